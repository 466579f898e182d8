"""Suspend and resume (Anki's "Suspend"): an item out of the reviews and back, and the list of
what is suspended, so puzzle skills can be resumed too."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from quizapp.extensions import db
from quizapp.services import reviews, suspensions
from quizapp.services.items import StudyItem
from quizapp.web.http.runtime import current_time
from quizapp.web.navigation.urls import compute_skill_url, compute_study_url
from quizapp.web.study.forms import MALFORMED, SuspendForm

bp = Blueprint("suspend", __name__)
# The flash category whose message carries a Resume button (base.html): a dict with the
# text, the item id and the list being studied, if any.
RESUMABLE = "suspended"


def read_form() -> SuspendForm:
    form = SuspendForm()
    if not form.validate():
        abort(400, MALFORMED)
    return form


def compute_back_url(form: SuspendForm, item: StudyItem) -> str:
    """Where the form's ``back`` leads: the study page (the queue, or the list being studied),
    the card's or puzzle skill's page, or the suspended items."""
    if form.back.data == "card" and item.is_card:
        # The question list the card page was opened from, so its "Back to the list" stays.
        came_from = {"from": form.then_list.data} if form.then_list.data else {}
        return url_for("questions.card", key=item.key, **came_from)
    if form.back.data == "skill" and item.is_skill:
        return compute_skill_url(item.key)
    if form.back.data == "suspended":
        return url_for("suspend.index")
    return compute_study_url(form.then_list.data)


@bp.route("/study/suspend", methods=["POST"])
@login_required
def suspend():
    """Take the item out of the reviews; from a study page, go on to the next item, with a
    Resume button in the message to take it back at once."""
    form = read_form()
    change = suspensions.suspend_item(db.session, current_user, form.item_id.data,
                                      current_time())
    title = change.item.title
    if not change.changed:
        flash(f"“{title}” was suspended already; nothing changed.", "info")
    elif form.back.data in ("", "study"):
        flash({"text": f"“{title}” suspended.", "item_id": change.item.id,
               "then_list": form.then_list.data or ""}, RESUMABLE)
    else:  # the item's page, whose own note says what being suspended means
        flash(f"“{title}” suspended.", "info")
    return redirect(compute_back_url(form, change.item), 303)


@bp.route("/study/resume", methods=["POST"])
@login_required
def resume():
    """Put a suspended item back where its schedule has it (an overdue one is simply due)."""
    form = read_form()
    change = suspensions.resume_item(db.session, current_user, form.item_id.data)
    title = change.item.title
    if change.changed and reviews.load_state(db.session, current_user, change.item.id) is None:
        flash(f"“{title}” resumed: it is back among your new items.", "info")
    elif change.changed:
        flash(f"“{title}” resumed: it is back in your reviews where its schedule has it.", "info")
    else:
        flash(f"“{title}” was not suspended; nothing changed.", "info")
    return redirect(compute_back_url(form, change.item), 303)


@bp.route("/study/suspended")
@login_required
def index():
    """Everything the user has suspended, cards and puzzle skills, each with a Resume button."""
    return render_template("study/suspended.html",
                           items=suspensions.list_suspended(db.session, current_user))
