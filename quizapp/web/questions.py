"""Questions area: the bank browser with filters, and one page per card."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_login import current_user

from quizapp.extensions import db
from quizapp.services import paging, question_browser, reviews
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import ServiceError

bp = Blueprint("questions", __name__)


def read_filters() -> question_browser.CardFilters:
    args = request.args
    return question_browser.CardFilters(
        # The lists show "Senior" and "Should know": a hand-typed URL may say so too.
        level=args.get("level", "").strip().lower(), concept=args.get("concept", "").strip(),
        importance=args.get("importance", "").strip().lower().replace(" ", "-"),
        text=args.get("q", ""),
        page=paging.read_page_number(args.get("page", "1")))


@bp.route("/questions")
def index():
    filters = read_filters()
    context = {"filters": filters, "levels": LEVEL_ORDER, "importances": IMPORTANCE_ORDER,
               "concepts": question_browser.list_concepts(db.session)}
    try:
        result = question_browser.list_cards(db.session, filters)
    except ServiceError as exc:
        return render_template("questions/index.html", result=None, error=exc.message,
                               **context), 400
    return render_template("questions/index.html", result=result, error=None, **context)


@bp.route("/questions/<string:key>")
def card(key: str):
    card = question_browser.load_card(db.session, key)
    state = None
    if current_user.is_authenticated:
        state = reviews.load_state(db.session, current_user, card.id)
    return render_template("questions/card.html", card=card, state=state)
