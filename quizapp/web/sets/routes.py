"""Practice sets: /sets (yours), /sets/new, a set's page, taking it, its result, print view."""

from __future__ import annotations

import secrets
from random import SystemRandom

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required

from quizapp.extensions import db
from quizapp.practice_sets import CARD, NotEnoughItems, SetParamsError
from quizapp.services import practice_sets as sets
from quizapp.services import set_reviews, track_standing
from quizapp.services.errors import NotFound, ServiceError
from quizapp.web.http.runtime import current_time
from quizapp.web.rendering.filters import ANSWER_HINTS
from quizapp.web.sets.forms import AnswerForm, RenameForm, SetForm, read_params

bp = Blueprint("sets", __name__)
PREVIEW_ITEMS = 5
SLUG_BYTES = 16  # 128 random bits
VISITOR_KEY = "set_attempts"  # a visitor's attempt ids, in their session only
_SEEDS = SystemRandom()


def new_slug() -> str:
    return secrets.token_urlsafe(SLUG_BYTES)


def user_id() -> int | None:
    return current_user.id if current_user.is_authenticated else None


def visitor_ids() -> list[int]:
    ids = session.get(VISITOR_KEY) or []
    return [i for i in ids if isinstance(i, int)][-sets.VISITOR_ATTEMPTS_KEPT:]


def remember_visitor_attempt(attempt_id: int) -> None:
    session[VISITOR_KEY] = [*visitor_ids(), attempt_id][-sets.VISITOR_ATTEMPTS_KEPT:]


# --- making a set ------------------------------------------------------------------------

def render_new(form: SetForm, *, status: int = 200, drawn_seed: bool = False, refs=(),
               items=(), problem: str | None = None, available: int | None = None):
    cards = sum(ref.kind == CARD for ref in refs)
    return render_template(
        "sets/new.html", form=form, drawn_seed=drawn_seed, refs=refs, items=items,
        cards=cards, puzzles=len(refs) - cards, problem=problem, available=available,
        preview_count=PREVIEW_ITEMS, query=request.query_string.decode("ascii", "replace"),
    ), status


def build_preview(form: SetForm, *, draw: bool):
    """(params, refs, items, problem, available) for the form as filled."""
    concepts = sets.list_concepts(db.session)
    read = read_params(form, concepts, _SEEDS if draw else None)
    if read.params is None:
        return read, None, (), (), None, None
    try:
        refs = sets.preview_set(db.session, read.params)
    except NotEnoughItems as exc:
        message = (f"The bank cannot fill this set: {exc.message}. With these filters it can "
                   f"have {exc.available} item{'' if exc.available == 1 else 's'}"
                   f"{' at most' if exc.available else ''}; lower the number of items or "
                   "widen the filters.")
        return read, read.params, (), (), message, exc.available
    except SetParamsError as exc:
        return read, read.params, (), (), exc.message, None
    items = sets.resolve_items(db.session, refs[:PREVIEW_ITEMS])
    return read, read.params, refs, items, None, None


@bp.route("/sets/new", methods=["GET"])
def new():
    """The parameters form; filled in (any parameter given), a preview of the set's first
    items and what the bank can give. Nothing is saved: the preview is a GET."""
    concepts = sets.list_concepts(db.session)
    if not request.args:
        return render_new(SetForm(formdata=None, concepts=concepts))
    form = SetForm(request.args, concepts=concepts)
    read, _params, refs, items, problem, available = build_preview(form, draw=True)
    if read.params is None:
        return render_new(form, status=400)
    if problem:
        return render_new(form, status=422, drawn_seed=read.drawn_seed, problem=problem,
                          available=available)
    return render_new(form, drawn_seed=read.drawn_seed, refs=refs, items=items)


@bp.route("/sets/new", methods=["POST"])
@login_required
def create():
    """Save the set as previewed: its items are drawn again from the same parameters and
    seed, and frozen."""
    form = SetForm(concepts=sets.list_concepts(db.session))
    read, params, refs, items, problem, available = build_preview(form, draw=False)
    if read.params is None:
        return render_new(form, status=400)
    if problem or params is None:
        return render_new(form, status=422, problem=problem, available=available)
    saved = sets.create_set(db.session, current_user, params, current_time(), new_slug)
    flash(f"Saved “{saved.title}”. Its address is permanent: share it with anyone.", "info")
    return redirect(url_for("sets.show", slug=saved.slug), 303)


# --- a saved set -------------------------------------------------------------------------

@bp.route("/sets")
def index():
    """The user's sets and attempts; a visitor's attempts of this session."""
    own = sets.list_user_sets(db.session, current_user) if current_user.is_authenticated else []
    attempts = sets.list_user_attempts(db.session, user_id(), visitor_ids())
    return render_template("sets/index.html", own=own, attempts=attempts)


def load_set_and_items(slug: str):
    saved = sets.load_set(db.session, slug)
    return saved, sets.resolve_items(db.session, saved.refs)


@bp.route("/sets/<slug>")
def show(slug: str):
    saved, items = load_set_and_items(slug)
    return render_show(saved, items, RenameForm(formdata=None, data={"title": saved.title}))


def render_show(saved: sets.SavedSet, items, rename_form: RenameForm, status: int = 200):
    """A set's page; ``rename_form`` as typed when a rename was refused."""
    attempts = [a for a in sets.list_user_attempts(db.session, user_id(), visitor_ids())
                if a.slug == saved.slug]
    return render_template("sets/show.html", saved=saved, items=items,
                           mine=saved.is_owned_by(user_id()), rename_form=rename_form,
                           attempts=attempts), status


@bp.route("/sets/<slug>/rename", methods=["POST"])
@login_required
def rename(slug: str):
    form = RenameForm()
    saved = sets.load_set(db.session, slug)
    if not saved.is_owned_by(user_id()):
        abort(404, sets.NO_SUCH_SET)
    if not form.validate():
        return render_show(saved, sets.resolve_items(db.session, saved.refs), form, 400)
    try:
        renamed = sets.rename_set(db.session, current_user, slug, form.title.data)
    except NotFound:  # deleted meanwhile (another tab)
        raise
    except ServiceError as exc:
        form.title.errors = [exc.message]
        return render_show(saved, sets.resolve_items(db.session, saved.refs), form, 400)
    flash(f"Renamed to “{renamed.title}”.", "info")
    return redirect(url_for("sets.show", slug=slug), 303)


@bp.route("/sets/<slug>/delete", methods=["POST"])
@login_required
def delete(slug: str):
    title = sets.delete_set(db.session, current_user, slug)
    flash(f"Deleted “{title}” and every attempt at it.", "info")
    return redirect(url_for("sets.index"), 303)


@bp.route("/sets/<slug>/print")
def print_view(slug: str):
    saved, items = load_set_and_items(slug)
    return render_template("sets/print.html", saved=saved, items=items)


# --- taking a set ------------------------------------------------------------------------

def read_step_claim(saved: sets.SavedSet, text: str | None
                    ) -> track_standing.StepClaim | None:
    """The team step an attempt is taken for (``?step=`` from a track's page, or the Start
    form's field): None without one; 404 unless the user has that step of this set assigned."""
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 10 or user_id() is None:
        abort(404, track_standing.NOT_ASSIGNED)
    return track_standing.claim_set_step(db.session, current_user, int(text), saved.id)


@bp.route("/sets/<slug>/take", methods=["GET"])
def take(slug: str):
    """What taking the set means (items, time limit, whether the result is kept) and Start:
    a GET starts nothing, so a timed set's clock starts only when asked."""
    saved = sets.load_set(db.session, slug)
    claim = read_step_claim(saved, request.args.get("step"))
    attempts = [a for a in sets.list_user_attempts(db.session, user_id(), visitor_ids())
                if a.slug == saved.slug]
    return render_template("sets/take.html", saved=saved, attempts=attempts, claim=claim)


@bp.route("/sets/<slug>/take", methods=["POST"])
def start(slug: str):
    saved = sets.load_set(db.session, slug)
    claim = read_step_claim(saved, request.form.get("step"))
    attempt_id = sets.start_attempt(
        db.session, saved, user_id(), current_time(),
        team_id=claim.team_id if claim else None, step_id=claim.step_id if claim else None)
    if user_id() is None:
        remember_visitor_attempt(attempt_id)
    return redirect(url_for("sets.attempt", slug=slug, attempt_id=attempt_id), 303)


def load_attempt(slug: str, attempt_id: int):
    saved = sets.load_set(db.session, slug)
    return sets.load_attempt(db.session, saved, attempt_id, user_id(), visitor_ids())


@bp.route("/sets/<slug>/attempts/<int:attempt_id>")
def attempt(slug: str, attempt_id: int):
    """The attempt's next item while it runs; its result once finished or out of time."""
    found = load_attempt(slug, attempt_id)
    now = current_time()
    if not found.finished and (found.is_past_deadline(now) or found.next_position is None):
        sets.finish_attempt(db.session, found, now)
        found = load_attempt(slug, attempt_id)
    items = sets.resolve_items(db.session, found.saved.refs)
    if found.finished:
        return render_result(found, items)
    return render_item(found, items, found.next_position)


def render_item(found: sets.Attempt, items, position: int, *, form: AnswerForm | None = None,
                error: str | None = None, status: int = 200):
    item = items[position]
    puzzle = picks = None
    if item.kind != CARD:
        puzzle, picks = sets.compute_puzzle_view(item)
    previous = found.answers.get(position - 1) if position else None
    return render_template(
        "sets/item.html", attempt=found, saved=found.saved, item=item, position=position,
        total=len(items), puzzle=puzzle, picks=picks or (), previous=previous,
        previous_item=items[position - 1] if previous else None, error=error,
        typed=form.answer.data if form else "",
        picked={p.lower() for p in (form.pick.data or ())} if form else set(),
        answer_hint=ANSWER_HINTS.get(item.answer_kind, ""), visitor=user_id() is None,
        now=current_time()), status


def render_result(found: sets.Attempt, items):
    claim = None
    if found.step_id is not None and user_id() is not None:  # taken for a team's track
        try:
            claim = track_standing.claim_set_step(db.session, current_user, found.step_id,
                                                  found.saved.id)
        except NotFound:  # no longer assigned: the result stays theirs
            claim = None
    return render_template("sets/result.html", attempt=found, saved=found.saved, items=items,
                           visitor=found.user_id is None, claim=claim,
                           explorer_links=[sets.compute_explorer_chain(item.code)
                                           if item.kind != CARD else None for item in items])


@bp.route("/sets/<slug>/attempts/<int:attempt_id>/answer", methods=["POST"])
def answer(slug: str, attempt_id: int):
    found = load_attempt(slug, attempt_id)
    form = AnswerForm()
    if not form.validate():
        if "position" in form.errors or "pick" in form.errors or "grade" in form.errors:
            abort(400, "That answer arrived damaged; nothing was saved.")
        items = sets.resolve_items(db.session, found.saved.refs)
        message = "; ".join(e for errors in form.errors.values() for e in errors)
        return render_item(found, items, form.position.data, form=form, error=message,
                           status=400)
    items = sets.resolve_items(db.session, found.saved.refs)
    position = form.position.data
    if position >= len(items):
        abort(400, "That answer names no item of this set; nothing was saved.")
    outcome = sets.answer_item(
        db.session, found, items[position], position, text=form.answer.data or "",
        picks=form.pick.data or (), grade=form.grade.data or None, now=current_time())
    if outcome.error:
        return render_item(found, items, position, form=form, error=outcome.error, status=422)
    if outcome.message:
        flash(outcome.message, "warning")
    return redirect(url_for("sets.attempt", slug=slug, attempt_id=attempt_id), 303)


@bp.route("/sets/<slug>/attempts/<int:attempt_id>/finish", methods=["POST"])
def finish(slug: str, attempt_id: int):
    found = load_attempt(slug, attempt_id)
    sets.finish_attempt(db.session, found, current_time())
    return redirect(url_for("sets.attempt", slug=slug, attempt_id=attempt_id), 303)


@bp.route("/sets/<slug>/download.<format_name>")
def download(slug: str, format_name: str):
    """The set as JSON, CSV, Markdown or an Anki package, for anyone with its link."""
    saved = sets.load_set(db.session, slug)
    file = sets.export_saved_set(db.session, saved, format_name, current_time())
    # content_type, not mimetype: the format's type already names its charset, and mimetype
    # would append a second "; charset=utf-8" to a text/* type.
    response = Response(file.data, content_type=file.media_type)
    response.headers["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    return response


@bp.route("/sets/<slug>/reviews", methods=["POST"])
@login_required
def add_to_reviews(slug: str):
    """The set's cards and puzzle skills become the user's next new items."""
    saved = sets.load_set(db.session, slug)
    done = set_reviews.add_set_to_reviews(db.session, current_user, saved, current_time())
    flash(describe_added(done), "info")
    return redirect(url_for("sets.show", slug=slug), 303)


def describe_added(done: set_reviews.AddedToReviews) -> str:
    def items(n: int) -> str:
        return f"{n} item{'' if n == 1 else 's'}"

    parts = []
    if done.added:
        parts.append(f"Added {items(done.added)} to your reviews: they come first among your "
                     "new items, as many a day as your daily limit for new items allows.")
    else:
        parts.append("Nothing new to add to your reviews.")
    if done.studied:
        parts.append(f"{items(done.studied)} you have studied already keep their schedule.")
    if done.already:
        parts.append(f"{items(done.already)} were added before and are still waiting.")
    if done.suspended:
        parts.append(f"{items(done.suspended)} are suspended: they come once you resume them.")
    if done.missing:
        parts.append(f"{items(done.missing)} are no longer studied (retired from the bank).")
    return " ".join(parts)
