"""Items shown ahead of the queue: a card or puzzle skill chosen on its page ("Study it now"), a
card shown again after Undo, or the next of a question list being studied ("Study these")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qsl, urlencode

from flask import flash, request, url_for
from flask_login import current_user

from quizapp.extensions import db
from quizapp.services import list_study
from quizapp.services.question_browser import CardFilters
from quizapp.services.study_queue import QueueView, compute_chosen_card
from quizapp.web.http.runtime import current_time
from quizapp.web.navigation.lists import (
    LIST_QUERY_MAX,
    compute_filters,
    compute_list_query,
    name_filters,
    read_studied_list,
)
from quizapp.web.navigation.urls import compute_skill_url

SEEN_VERSION = re.compile(r"[0-9]{1,9}")


@dataclass(frozen=True)
class ChosenCard:
    """A card shown instead of the queue's head, and why. ``back`` leads to the card's page
    (with the list it was opened from) or, studying a list (``list_query``, its parameters),
    to that list."""

    view: QueueView
    back: str
    undone: bool = False  # shown again after Undo: the flash says why
    early: bool = False  # in Review or learning, and not due yet: rating it reviews it early
    list_query: str | None = None
    list_filters: CardFilters | None = None  # studying a list: the filters it was read with
    left: int = 0  # studying a list: its cards new or due, this one included
    next_due: datetime | None = None  # a list with none left: when its next card falls due

    @property
    def list_name(self) -> str:
        """The studied list's filters in words ("" for the whole bank, or no list)."""
        return name_filters(self.list_filters) if self.list_filters else ""

    @property
    def next_due_leaves(self) -> bool:
        """The next card is due on a later study day, and the list holds cards "not studied
        before today": by then it has left the list, so it comes back in the queue only."""
        return (self.list_filters is not None and self.list_filters.mine == "new"
                and self.next_due is not None and self.next_due >= self.view.next_day)


def read_chosen_skill(key: str) -> ChosenCard | None:
    """The puzzle skill ``key`` of ``/study?skill=`` ("Study it now" on its page, or dealt again
    after Undo), read as read_chosen_card reads a card (``seen`` and ``undone`` included);
    NotFound if the queue does not offer it.
    After its rating the queue carries on."""
    now = current_time()
    view = compute_chosen_card(db.session, current_user, now, key, kind="skill")
    if not _is_seen_version(view):
        flash(f"“{view.item.title}” was rated or undone since you chose it, so it is not dealt "
              "again: here is your queue. Its page has Study it now if you want another.",
              "info")
        return None
    early = view.state is not None and view.state.due > now
    return ChosenCard(view, compute_skill_url(view.item.key),
                      undone=request.args.get("undone") == "1", early=early)


def _is_seen_version(view: QueueView) -> bool:
    """False if the page that linked here showed the item at another version (``seen``)."""
    version = view.state.version if view.state else 0
    seen = request.args.get("seen", "")
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    return not (SEEN_VERSION.fullmatch(seen) and int(seen) != version)


def read_chosen_card(key: str, list_text: str | None = None) -> ChosenCard | None:
    """The card ``key`` of ``/study?card=``; NotFound if there is none to study. None (with a
    flash saying why) when the page that linked here showed it at another version (``seen``):
    it was rated or undone since, so Back after rating it does not offer it again. With
    ``list_text`` (shown again after Undo while a list was studied) its rating leads back to
    that list."""
    now = current_time()
    view = compute_chosen_card(db.session, current_user, now, key)
    if not _is_seen_version(view):
        where = "the list's next card" if list_text is not None else "your queue"
        flash(f"“{view.item.title}” was rated or undone since you chose it, so it is not shown "
              f"again: here is {where}. Its page has Study it now if you want it again.",
              "info")
        return None
    undone = request.args.get("undone") == "1"
    early = view.state is not None and view.state.due > now
    if list_text is not None:
        kept, list_query = read_studied_list(list_text)
        return ChosenCard(view, url_for("questions.index", **kept), undone=undone, early=early,
                          list_query=list_query, list_filters=compute_filters(kept))
    back = compute_list_query(parse_qsl(request.args.get("from", "")[:LIST_QUERY_MAX]))
    back_url = url_for("questions.card", key=view.item.key,
                       **({"from": urlencode(back)} if back else {}))
    return ChosenCard(view, back_url, undone=undone, early=early)


def read_list_study(text: str) -> ChosenCard:
    """``/study?list=``: the list's next card new or due (``view.item`` None when none is
    left), and the way back to the list page."""
    kept, list_query = read_studied_list(text)
    filters = compute_filters(kept)
    study = list_study.compute_list_study(db.session, current_user, current_time(), filters)
    return ChosenCard(study.view, url_for("questions.index", **kept), list_query=list_query,
                      list_filters=filters, left=study.left, next_due=study.next_due)
