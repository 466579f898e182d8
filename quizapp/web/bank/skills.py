"""Puzzle skills area: every skill by level with the user's progress, and one page per skill."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user

from quizapp.extensions import db
from quizapp.services import item_record, skill_browser
from quizapp.services.bank_import import LEVEL_ORDER
from quizapp.services.items import is_offered
from quizapp.web.http.runtime import current_time
from quizapp.web.navigation.urls import compute_skill_url

bp = Blueprint("skills", __name__)
bp.add_app_template_global(compute_skill_url, "skill_url")


@bp.route("/puzzles")
def index():
    user_id = current_user.id if current_user.is_authenticated else None
    listed = skill_browser.list_skills(db.session, user_id)
    by_level = {level: [row for row in listed if row.skill.level == level]
                for level in LEVEL_ORDER}
    return render_template("skills/index.html", by_level=by_level, total=len(listed))


@bp.route("/puzzles/<string:family>/<string:level>")
def show(family: str, level: str):
    skill = skill_browser.load_skill(db.session, f"{family}/{level}")
    studied = is_offered(skill)
    standing = item_record.VISITOR
    if current_user.is_authenticated:
        standing = item_record.load_standing(db.session, current_user, skill.id,
                                             current_time())
    study_args = {"skill": skill.key}
    if current_user.is_authenticated:
        study_args["seen"] = str(standing.state.version if standing.state else 0)
    return render_template(
        "skills/show.html", skill=skill, studied=studied, state=standing.state,
        suspended=standing.suspended, record=standing.record, study_args=study_args,
        example=skill_browser.deal_example(skill) if studied else None)
