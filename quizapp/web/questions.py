"""Questions area: the bank browser with filters, and one page per card."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, render_template, request, url_for
from flask_login import current_user

from quizapp.extensions import db
from quizapp.services import item_record, paging, question_browser
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import ServiceError
from quizapp.web.runtime import current_time
from quizapp.web.study_forms import LIST_QUERY_MAX

bp = Blueprint("questions", __name__)
# The list's own query parameters: a card opened from a filtered list carries them (?from=),
# so its way back returns to that list, not to every question (notes/s11/browse.md #5).
LIST_KEYS = ("level", "concept", "importance", "mine", "q", "sort", "page")
TEXT_MAX_IN_QUERY = 200
WHITESPACE_CONTROLS = str.maketrans("\t\n\r\v\f", "     ")


def compute_list_query(pairs) -> dict[str, str]:
    """The list parameters among ``pairs`` (name, value), non-empty and bounded; the rest is
    dropped, so a crafted ``from`` can only lead to a question list."""
    kept: dict[str, str] = {}
    for name, value in pairs:
        # A tab or line break is a space, as the list page's search reads it; any other control
        # character drops the value: a NUL read out of a nested query string (?list=, ?from=)
        # is past the request's own NUL check, and PostgreSQL refuses it (notes/s12/review.md D1).
        value = value.translate(WHITESPACE_CONTROLS)
        if (name in LIST_KEYS and value.strip() and len(value) <= TEXT_MAX_IN_QUERY
                and not any(unicodedata.category(char) == "Cc" for char in value)):
            kept.setdefault(name, value)
    return kept


def compute_studied_list(pairs) -> tuple[dict[str, str], str]:
    """A list as "Study these" names it (``/study?list=``, carried by the rating and Undo
    forms): its parameters among ``pairs`` without the page number, and their query string,
    or "all" for the whole bank."""
    kept = compute_list_query(pairs)
    kept.pop("page", None)
    return kept, urlencode(kept) or "all"


def read_studied_list(text: str) -> tuple[dict[str, str], str]:
    """compute_studied_list of a carried list's query string (bounded)."""
    return compute_studied_list(parse_qsl(text[:LIST_QUERY_MAX]))


def compute_list_args(filters: question_browser.CardFilters) -> dict[str, str]:
    """The list's filters and order as query parameters (the set ones), without the page: what
    its pager and "Did you mean" links keep."""
    pairs = (("level", filters.level), ("concept", filters.concept),
             ("importance", filters.importance), ("mine", filters.mine), ("q", filters.text),
             ("sort", filters.sort))
    return {name: value for name, value in pairs if value}


def describe_filters(filters: question_browser.CardFilters) -> list[str]:
    """The list's filters in words, as its title and a studied list's note name it:
    ["senior", "channels last", "due now"] (the search text apart)."""
    mine = question_browser.MINE.get(filters.mine, "").lower() if filters.mine else ""
    words = (filters.level, filters.concept.replace("-", " "),
             filters.importance.replace("-", " "), mine)
    return [word for word in words if word]


def name_filters(filters: question_browser.CardFilters) -> str:
    """A list's filters and search in words, as the studied list's note and the list page's
    folded filters name them: "senior, due now; search “view”" ("" for the whole bank)."""
    text = " ".join(filters.text.split())
    parts = (", ".join(describe_filters(filters)), f"search “{text}”" if text else "")
    return "; ".join(part for part in parts if part)


def read_filters() -> question_browser.CardFilters:
    return compute_filters(request.args)


def compute_filters(args: Mapping[str, str]) -> question_browser.CardFilters:
    """The list's filters in ``args`` (its query parameters), as the list page reads them."""
    return question_browser.CardFilters(
        # The lists show "Senior", "channels last" and "Should know": a typed URL may too.
        level=args.get("level", "").strip().lower(),
        concept=args.get("concept", "").strip().lower().replace(" ", "-"),
        importance=args.get("importance", "").strip().lower().replace(" ", "-"),
        text=args.get("q", ""),
        page=paging.read_page_number(args.get("page", "1")),
        sort=args.get("sort", "").strip().lower(),
        # Read for a signed-in person only: a shared link with it lists every card to others.
        mine=args.get("mine", "").strip().lower() if current_user.is_authenticated else "")


@bp.route("/questions")
def index():
    filters = read_filters()
    context = {"filters": filters, "levels": LEVEL_ORDER, "importances": IMPORTANCE_ORDER,
               "concepts": question_browser.list_concepts(db.session),
               "sorts": question_browser.SORTS, "mines": question_browser.MINE,
               "filter_words": describe_filters(filters), "list_name": name_filters(filters)}
    viewer = (question_browser.compute_viewer(current_user, current_time())
              if current_user.is_authenticated else None)
    try:
        result = question_browser.list_cards(db.session, filters, viewer=viewer)
    except ServiceError as exc:
        return render_template("questions/index.html", result=None, error=exc.message,
                               **context), 400
    kept = compute_list_query(request.args.items(multi=True))
    # The order links keep the filters and start again at page 1.
    unordered = {name: value for name, value in kept.items() if name not in ("sort", "page")}
    order_urls = {sort: url_for("questions.index", **unordered, **({"sort": sort} if sort else {}))
                  for sort in question_browser.SORTS}
    study_list_url = url_for("study.index", list=compute_studied_list(kept.items())[1])
    return render_template("questions/index.html", result=result, error=None,
                           list_query=urlencode(kept), order_urls=order_urls,
                           study_list_url=study_list_url, list_args=compute_list_args(filters),
                           **context)


@bp.route("/questions/<string:key>")
def card(key: str):
    card = question_browser.load_card(db.session, key)
    standing = item_record.VISITOR
    if current_user.is_authenticated:
        standing = item_record.load_standing(db.session, current_user, card.id,
                                             current_time())
    came_from = request.args.get("from", "")[:LIST_QUERY_MAX]
    back = compute_list_query(parse_qsl(came_from, keep_blank_values=False))
    # seen: Back to the study page after rating it does not offer it again (study.index);
    # signed out the version is not known, so none is sent (notes/s12/review.md D2).
    study_args = {"card": card.key}
    if current_user.is_authenticated:
        study_args["seen"] = str(standing.state.version if standing.state else 0)
    if back:
        study_args["from"] = urlencode(back)
    return render_template("questions/card.html", card=card, state=standing.state,
                           suspended=standing.suspended, record=standing.record,
                           back_url=url_for("questions.index", **back), back_to_list=bool(back),
                           list_query=urlencode(back),
                           study_url=url_for("study.index", **study_args))
