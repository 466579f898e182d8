"""Study area: the queue page, puzzle answers, ratings, undo and the review history."""

from __future__ import annotations

from datetime import datetime
from math import ceil

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from quizapp.extensions import db
from quizapp.puzzles import compute_pick_options
from quizapp.services import (
    paging,
    reviews,
    skill_reviews,
    study_stats,
    suspensions,
    track_standing,
)
from quizapp.services.errors import OUTDATED_PUZZLE, Conflict, NotFound, ServiceError
from quizapp.services.items import is_offered
from quizapp.services.rating_limits import RatingLimits, RatingThrottled
from quizapp.services.study_queue import (
    QueueView,
    compute_item_view,
    compute_queue,
    compute_status,
)
from quizapp.web.http.errors import render_error
from quizapp.web.http.runtime import current_time, new_puzzle_seed
from quizapp.web.navigation.lists import read_studied_list
from quizapp.web.navigation.urls import compute_study_url
from quizapp.web.rendering.filters import ANSWER_HINTS, RATING_LABELS
from quizapp.web.study.chosen import (
    ChosenCard,
    read_chosen_card,
    read_chosen_skill,
    read_list_study,
)
from quizapp.web.study.forms import (
    ANSWER_MAX,
    EMPTY_ANSWER,
    PICK_FIRST,
    AnswerForm,
    RateForm,
    UndoForm,
)
from quizapp.web.study.tokens import (
    DAMAGED,
    ShownItem,
    compute_duration_ms,
    epoch_ms,
    is_own_review,
    sign_own_review,
    sign_shown_item,
    verify_shown_item,
)

bp = Blueprint("study", __name__)
HISTORY_RESULTS = ("", "all", "wrong")  # ?result= of the history: every review, or wrong ones
ALREADY_UNDONE = ("That rating was undone already (a second click, or another tab); nothing more "
                  "was undone.")


@bp.context_processor
def study_page_context() -> dict:
    """Whether this person's study pages answer Space, 1-4 and u (a setting; on by default),
    and the Undo form's proof that its review is theirs."""
    return {"keyboard_shortcuts": bool(current_user.is_authenticated
                                       and current_user.keyboard_shortcuts),
            "own_review_token": lambda review_id: sign_own_review(current_user.id, review_id)}


def render_queue_page(*, status: int = 200, shown: ShownItem | None = None,
                      answer_form: AnswerForm | None = None, answer_error: str | None = None,
                      chosen: ChosenCard | None = None):
    """The next item; ``shown`` re-renders a puzzle whose typed answer could not be read (that
    puzzle while its page is current, even one dealt out of turn, else the queue's next);
    ``chosen`` is a card shown instead of the queue's head (or a studied list without one).

    Pages carry their hidden fields as plain values (the templates write the inputs): forms
    are built only to read and validate what is posted back.
    """
    now = current_time()
    view = chosen.view if chosen else (shown and compute_shown_view(shown, now))
    view = view or compute_queue(db.session, current_user, now)
    context = {"view": view, "ratings": RATING_LABELS, "last_review": view.last_review,
               "chosen": chosen}
    item = view.item
    if item is None:  # a studied list's end (chosen has no card) or the queue's
        return render_template("study/list_done.html" if chosen else "study/empty.html",
                               **context), status
    version = view.state.version if view.state else 0
    undos = current_user.undo_count
    if shown is None or shown.item_id != item.id or not shown.is_current(version, current_user):
        seed = new_puzzle_seed(current_user.id, item.id, version, undos) if item.is_skill else None
        shown = ShownItem(current_user.id, item.id, version, seed, epoch_ms(now), undos)
        answer_form = None
    context["token"] = sign_shown_item(shown)
    context["dealing"] = f"{shown.version}.{shown.undo_count}"  # study.js: whose hints are kept
    if item.is_card:  # a puzzle shows its rating buttons only with the result (study.answer)
        context["intervals"] = reviews.compute_interval_labels(view.state, current_user, now)
        return render_template("study/card.html", card=item, **context), status
    puzzle = context["puzzle"] = skill_reviews.generate_skill_puzzle(item, shown.seed)
    context["picks"] = compute_pick_options(puzzle)
    context["picked"] = {p.lower() for p in answer_form.pick.data} if answer_form else set()
    context["typed_answer"] = answer_form.answer.data if answer_form else None
    context["hints_used"] = (answer_form.hints_used.data if answer_form else None) or 0
    if answer_error == EMPTY_ANSWER and context["picks"]:
        answer_error = PICK_FIRST
    context["answer_error"] = answer_error
    context["answer_max"] = ANSWER_MAX
    context["answer_hint"] = ANSWER_HINTS.get(puzzle.answer_kind, "")
    return render_template("study/puzzle.html", skill=item, **context), status


def compute_shown_view(shown: ShownItem, now: datetime) -> QueueView | None:
    """The view of the puzzle ``shown`` while its page is current, even one dealt out of turn
    (Study it now) that the queue's head is not; None once rated, undone or retired since."""
    try:
        view = compute_item_view(db.session, current_user, now, shown.item_id)
    except NotFound:
        return None
    return view if shown.is_current(view.state.version if view.state else 0,
                                    current_user) else None


@bp.route("/")
def home():
    if current_user.is_authenticated:
        now = current_time()
        view = compute_queue(db.session, current_user, now)
        assignments = track_standing.list_my_assignments(db.session, current_user, now)
        return render_template("home.html", view=view, assignments=assignments)
    return render_template("home.html", view=None, assignments=())


@bp.route("/study")
@login_required
def index():
    """The queue's next item; ``?card=<id>`` shows that card instead ("Study it now" on its
    question page, or after undoing its rating), to be rated as the queue would rate it, and
    ``?skill=<family/level>`` deals a puzzle of that skill ("Study it now" on its page).

    ``seen`` is the card's version when its page linked here: a different one means it was
    rated (or undone) since, so Back after rating it does not offer to rate it again.
    """
    key = request.args.get("card", "").strip()
    if "skill" in request.args and not key:  # "Study it now" on a puzzle skill's page
        chosen = read_chosen_skill(request.args["skill"].strip())
        if chosen is None:  # rated or undone since its page linked here
            return redirect(url_for("study.index"), 303)
        return render_queue_page(chosen=chosen)
    if "list" in request.args and not key:
        return render_queue_page(chosen=read_list_study(request.args["list"]))
    if not key:
        return render_queue_page()
    chosen = read_chosen_card(key, request.args.get("list"))
    if chosen is None:  # rated or undone since its page linked here (read_chosen_card)
        return redirect(compute_study_url(request.args.get("list")), 303)
    return render_queue_page(chosen=chosen)


@bp.route("/study/answer", methods=["GET", "POST"])
@login_required
def answer():
    """Judge a typed puzzle answer, then show the solution and the rating buttons.

    Checking writes nothing, so the page's form sends it by GET: Back and Reload show the
    result again instead of the browser's "Confirm Form Resubmission",
    and no CSRF token rides in the URL. POST (with the app-wide CSRF check) is read the same.
    """
    by_get = request.method != "POST"  # HEAD too, which Flask serves with the GET view
    if by_get and not request.args:
        return redirect(url_for("study.index"))
    form = AnswerForm(request.args) if by_get else AnswerForm()
    if not form.validate():
        if form.errors.keys() & {"token", "hints_used", "pick", "hint"}:  # the page wrote these
            abort(400, DAMAGED)
        shown = _verify_or_none(form.token.data)
        message = "; ".join(e for errors in form.errors.values() for e in errors)
        return render_queue_page(status=400, shown=shown, answer_form=form, answer_error=message)
    shown = verify_shown_item(form.token.data, current_user.id)
    skill, state = skill_reviews.load_skill_and_state(db.session, current_user, shown.item_id)
    if not shown.is_current(state.version if state else 0, current_user):
        flash(OUTDATED_PUZZLE, "info")  # rated or undone since (Back after rating, or undo)
        return redirect(url_for("study.index"))
    if form.hint.data:  # a hint asked for without JavaScript: counted, and shown open
        form.hints_used.data = max(form.hints_used.data or 0, form.hint.data)
        return render_queue_page(shown=shown, answer_form=form)
    now = current_time()
    seconds = compute_duration_ms(shown, now) / 1000
    checked = skill_reviews.check_skill_answer(
        skill, shown.seed, form.answer.data or "", seconds=seconds,
        hints_used=form.hints_used.data or 0, state=state, picks=form.pick.data)
    if checked.error:
        return render_queue_page(status=422, shown=shown, answer_form=form,
                                 answer_error=checked.error)
    # The status bar, as on every study page, and whether the skill was suspended after this
    # page was dealt (another tab, or Suspend here and then Back): a rating is still saved.
    view = compute_status(db.session, current_user, now, skill.id)
    return render_template(
        "study/puzzle_result.html", skill=skill, checked=checked, puzzle=checked.puzzle,
        token=form.token.data, hints_used=form.hints_used.data or 0, ratings=RATING_LABELS,
        intervals=reviews.compute_interval_labels(state, current_user, now), view=view,
        last_review=view.last_review)


def _verify_or_none(token: str | None) -> ShownItem | None:
    try:
        return verify_shown_item(token or "", current_user.id)
    except ServiceError:
        return None


def current_rating_limits() -> RatingLimits:
    config = current_app.config
    return RatingLimits(per_minute=config["RATING_LIMIT_PER_MINUTE"],
                        per_hour=config["RATING_LIMIT_PER_HOUR"])


@bp.route("/study/rate", methods=["POST"])
@login_required
def rate():
    form = RateForm()
    if not form.validate_on_submit():
        abort(400, DAMAGED if form.errors.keys() & {"token", "then_list"} else
              "Pick one of Again, Hard, Good or Easy. Nothing was saved.")
    shown = verify_shown_item(form.token.data, current_user.id)
    if shown.predates_undo(current_user):
        # The service checks again in its write transaction, which an undo may have beaten.
        flash(f"Not saved. {OUTDATED_PUZZLE}", "warning")
        return redirect(url_for("study.index"))
    now = current_time()
    duration = compute_duration_ms(shown, now)
    try:
        if shown.seed is not None:
            skill_reviews.record_skill_review(
                db.session, current_user, shown.item_id, shown.seed, form.answer.data or "",
                form.rating.data, now, seen_version=shown.version, duration_ms=duration,
                hints_used=form.hints_used.data or 0, seen_undos=shown.undo_count,
                rate_limits=current_rating_limits())
        else:
            reviews.record_review(
                db.session, current_user, shown.item_id, form.rating.data, now,
                seen_version=shown.version, duration_ms=duration,
                rate_limits=current_rating_limits())
    except RatingThrottled as exc:
        refusal = current_app.make_response(render_error(429, exc.message))
        refusal.headers["Retry-After"] = str(ceil(exc.retry_after.total_seconds()))
        return refusal
    except Conflict as exc:
        flash(exc.message, "warning")  # e.g. a double click: nothing was saved twice
    except NotFound:
        if not form.then_list.data:
            raise
        # Retired while its list was studied: the list goes on.
        flash("Not saved: that card has left the question bank since its page was shown.",
              "warning")
    # A saved rating is not flashed: the next study page confirms it from the review log
    # (study/_status.html), so a rating does not rewrite the session cookie, nor does that page.
    return redirect(compute_study_url(form.then_list.data), 303)  # a studied list: its next


@bp.route("/study/undo", methods=["POST"])
@login_required
def undo():
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400, "That undo request is incomplete. Nothing was changed.")
    try:
        item = reviews.undo_review(db.session, current_user, form.review_id.data,
                                   current_time())
    except Conflict as exc:
        flash(exc.message, "warning")
        return redirect(url_for("study.index"), 303)
    except NotFound:
        if not is_own_review(form.review_token.data, current_user.id, form.review_id.data):
            raise  # an unknown id, or another user's: the same 404
        flash(ALREADY_UNDONE, "info")  # a second click on Undo (without JavaScript)
        return redirect(url_for("study.index"), 303)
    if suspensions.is_suspended(db.session, current_user.id, item.id):
        # Suspended since that rating: the undo stands, the suspension too (it is no rating),
        # so the item is not shown again until it is resumed.
        flash(f"Undone: “{item.title}” is back as it was before that rating. It is suspended, "
              "so it stays out of your reviews until you resume it.", "info")
        return redirect(compute_study_url(form.then_list.data), 303)
    flash(f"Undone: “{item.title}” is back as it was before that rating.", "info")
    # While a list is studied, its next rating leads back to it.
    in_list = {"list": read_studied_list(form.then_list.data)[1]} if form.then_list.data else {}
    if is_offered(item) and (item.kind == "card" or not in_list):
        # Shown again to be rated anew, as Anki does, even if it was chosen out of turn ("Study
        # it now") and is not the queue's (or the list's) head now; a skill with a fresh puzzle
        # (a question list being studied goes on instead: it holds no skills).
        state = reviews.load_state(db.session, current_user, item.id)
        return redirect(url_for("study.index", **{item.kind: item.key}, undone=1,
                                seen=state.version if state else 0, **in_list), 303)
    return redirect(compute_study_url(form.then_list.data), 303)


@bp.route("/study/history")
@login_required
def history():
    """The user's reviews, newest first, a page at a time (?page=, 1 = the newest);
    ``?result=wrong``: only the puzzle answers judged wrong ("My mistakes")."""
    page = paging.read_page_number(request.args.get("page", "1"))
    result = request.args.get("result", "")
    if result not in HISTORY_RESULTS:
        abort(400, "The history can show every review, or only wrong answers (result=wrong); "
                   f"“{result[:40]}” is neither.")
    wrong_only = result == "wrong"
    return render_template(
        "study/history.html", ratings=RATING_LABELS, wrong_only=wrong_only,
        history=reviews.list_history(db.session, current_user, page, wrong_only=wrong_only))


@bp.route("/study/stats")
@login_required
def stats():
    """Progress: items by stage, the coming week's reviews, retention and the last two weeks."""
    return render_template(
        "study/stats.html",
        stats=study_stats.compute_study_stats(db.session, current_user, current_time()))
