"""Practice: choose levels and families, then puzzles one after another with hints, a verdict and
the worked solution. Nothing is rated and no schedule moves; each answer is kept for Progress."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.services import practice
from quizapp.services.errors import ServiceError
from quizapp.web.http.fields import ID_MAX
from quizapp.web.http.runtime import current_time, fresh_puzzle_seed
from quizapp.web.practice.forms import (
    DAMAGED,
    EMPTY_ANSWER,
    PICK_FIRST,
    DealtPuzzle,
    PracticeAnswerForm,
    sign_dealt_puzzle,
    verify_dealt_puzzle,
)
from quizapp.web.rendering.filters import ANSWER_HINTS

bp = Blueprint("practice", __name__)


class Choice:
    """What the practice pages were asked for, read from the query string (level=, family=,
    mistakes=1), checked by services.practice; carried from puzzle to puzzle."""

    def __init__(self, args) -> None:
        self.levels = [value.strip() for value in args.getlist("level") if value.strip()]
        self.families = [value.strip() for value in args.getlist("family") if value.strip()]
        self.mistakes = args.get("mistakes", "") == "1"

    def query(self) -> str:
        pairs = [("mistakes", "1")] if self.mistakes else [
            *(("level", level) for level in self.levels),
            *(("family", family) for family in self.families)]
        return urlencode(pairs)

    def skills(self) -> list[practice.PracticeSkill]:
        """The skills to deal from (ServiceError: a bad name, or nothing left to deal)."""
        if self.mistakes:
            missed = practice.list_missed_skills(db.session, current_user, current_time())
            if not missed:
                raise ServiceError(practice.NO_MISTAKES)
            return missed
        return practice.validate_choice(self.levels, self.families)


def puzzle_url(choice: Choice) -> str:
    query = choice.query()
    return url_for("practice.puzzle") + (f"?{query}" if query else "")


@bp.route("/practice")
@login_required
def index():
    """The choice of levels and families, and the skills missed most often."""
    choice = Choice(request.args)
    return render_template(
        "practice/index.html", levels=puzzles.LEVELS, families=puzzles.families(),
        chosen_levels=set(choice.levels), chosen_families=set(choice.families),
        missed=practice.list_missed_skills(db.session, current_user, current_time()))


def render_puzzle(dealt: DealtPuzzle, choice: Choice, *, form: PracticeAnswerForm | None = None,
                  error: str | None = None, status: int = 200):
    skill = next(skill for skill in practice.list_practice_skills()
                 if (skill.family, skill.level) == (dealt.family, dealt.level))
    puzzle = practice.deal_practice_puzzle(dealt.family, dealt.level, dealt.seed)
    picks = puzzles.compute_pick_options(puzzle)
    if error == EMPTY_ANSWER and picks:
        error = PICK_FIRST
    return render_template(
        "practice/puzzle.html", skill=skill, puzzle=puzzle, picks=picks,
        picked={p.lower() for p in form.pick.data} if form else set(),
        typed_answer=form.answer.data if form else None,
        hints_used=(form.hints_used.data if form else None) or 0,
        answer_error=error, answer_max=practice.ANSWER_MAX,
        answer_hint=ANSWER_HINTS.get(puzzle.answer_kind, ""), token=sign_dealt_puzzle(dealt),
        choice=choice, next_url=puzzle_url(choice)), status


@bp.route("/practice/puzzle")
@login_required
def puzzle():
    """A new puzzle (a fresh seed on every visit) of one of the chosen skills."""
    choice = Choice(request.args)
    skills = choice.skills()
    seed = fresh_puzzle_seed(current_user.id)
    skill = practice.pick_skill(skills, seed)
    now_ms = int(current_time().timestamp() * 1000)
    return render_puzzle(DealtPuzzle(current_user.id, skill.family, skill.level, seed, now_ms),
                         choice)


@bp.route("/practice/answer", methods=["POST"])
@login_required
def answer():
    """Judge and keep an answer, then show the verdict and the worked solution (a redirect to
    the kept answer's page, so Reload and Back send nothing twice)."""
    choice = Choice(request.form)
    form = PracticeAnswerForm()
    if not form.validate():
        if form.errors.keys() & {"token", "hints_used", "pick", "hint"}:  # the page wrote these
            abort(400, DAMAGED)
        dealt = verify_dealt_puzzle(form.token.data or "", current_user.id)
        message = "; ".join(e for errors in form.errors.values() for e in errors)
        return render_puzzle(dealt, choice, form=form, error=message, status=400)
    dealt = verify_dealt_puzzle(form.token.data, current_user.id)
    if form.hint.data:  # a hint asked for without JavaScript: the same puzzle, that hint open
        form.hints_used.data = max(form.hints_used.data or 0, form.hint.data)
        return render_puzzle(dealt, choice, form=form)
    now = current_time()
    kept = practice.record_practice_answer(
        db.session, current_user, dealt.family, dealt.level, dealt.seed, form.answer.data or "",
        form.pick.data or (), now, hints_used=form.hints_used.data or 0,
        duration_ms=int(now.timestamp() * 1000) - dealt.dealt_at_ms)
    if not isinstance(kept, practice.PracticeResult):
        return render_puzzle(dealt, choice, form=form, error=kept.error, status=422)
    query = choice.query()
    return redirect(url_for("practice.attempt", attempt_id=kept.attempt_id)
                    + (f"?{query}" if query else ""), 303)


@bp.route(f"/practice/answers/<int(max={ID_MAX}):attempt_id>")
@login_required
def attempt(attempt_id: int):
    """A kept practice answer: the puzzle, the verdict, the worked solution, the next puzzle."""
    result = practice.load_practice_result(db.session, current_user, attempt_id)
    choice = Choice(request.args)
    skill = next(skill for skill in practice.list_practice_skills()
                 if (skill.family, skill.level) == (result.family, result.level))
    return render_template("practice/result.html", result=result, skill=skill,
                           puzzle=result.checked.puzzle, checked=result.checked, choice=choice,
                           next_url=puzzle_url(choice))
