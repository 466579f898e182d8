"""A puzzle from the review history, shown again: what was asked, the answer given, the solution."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user, login_required

from quizapp.extensions import db
from quizapp.services import reviewed_puzzles
from quizapp.web.http.fields import ID_MAX
from quizapp.web.rendering.filters import RATING_LABELS

bp = Blueprint("history_puzzle", __name__)


@bp.route(f"/study/history/<int(max={ID_MAX}):review_id>")
@login_required
def show(review_id: int):
    """GET only: nothing is rated or changed here (a 404 for what is not the user's puzzle)."""
    shown = reviewed_puzzles.load_reviewed_puzzle(db.session, current_user, review_id)
    return render_template("study/history_puzzle.html", shown=shown, ratings=RATING_LABELS)
