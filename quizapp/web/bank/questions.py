"""Questions area: the bank browser with filters, and one page per card."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, render_template, request, url_for
from flask_login import current_user

from quizapp.extensions import db
from quizapp.services import item_record, question_browser
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import ServiceError
from quizapp.web.http.rate_limits import limit_questions
from quizapp.web.http.runtime import current_time
from quizapp.web.navigation.lists import (
    LIST_QUERY_MAX,
    compute_filters,
    compute_list_args,
    compute_list_query,
    compute_studied_list,
    describe_filters,
    name_filters,
)

bp = Blueprint("questions", __name__)


def read_filters() -> question_browser.CardFilters:
    return compute_filters(request.args)


@bp.route("/questions")
@limit_questions
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
    # signed out the version is not known, so none is sent.
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
