"""Teams: /teams (yours, make one), a team's page (members, roles, join code), joining."""

from __future__ import annotations

from datetime import timedelta
from math import ceil

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required, login_url

from quizapp.extensions import db
from quizapp.services import teams
from quizapp.services.errors import LoginThrottled, NotFound, ServiceError
from quizapp.web.http.fields import ID_MAX
from quizapp.web.http.runtime import client_address, compute_safe_next, current_time
from quizapp.web.teams.forms import DeleteTeamForm, JoinCodeForm, JoinForm, TeamForm

bp = Blueprint("teams", __name__)

TEAM = f"/teams/<int(max={ID_MAX}):team_id>"
MEMBER = f"{TEAM}/members/<int(max={ID_MAX}):member_id>"
SIGN_IN_TO_JOIN = ("Log in to join the team, or create an account: you come back to the "
                   "invitation after.")


def current_join_code_limit() -> teams.JoinCodeLimit:
    config = current_app.config
    return teams.JoinCodeLimit(per_address=config["JOIN_CODE_LIMIT_PER_ADDRESS"],
                               window=timedelta(minutes=config["JOIN_CODE_LIMIT_WINDOW_MINUTES"]))


def retry_headers(throttled: LoginThrottled) -> dict[str, str]:
    return {"Retry-After": str(ceil(throttled.retry_after.total_seconds()))}


def to_team(team_id: int, status: int = 303) -> Response:
    return redirect(url_for("teams.show", team_id=team_id), status)


# --- your teams --------------------------------------------------------------------------

def render_index(form: TeamForm | None = None, join_form: JoinForm | None = None,
                 status: int = 200, problem: str | None = None, headers=None):
    return render_template(
        "teams/index.html", teams=teams.list_user_teams(db.session, current_user),
        form=form or TeamForm(formdata=None), join_form=join_form or JoinForm(formdata=None),
        problem=problem, limit=teams.TEAMS_PER_USER_MAX, roles=teams.ROLE_NAMES,
    ), status, headers or {}


@bp.route("/teams")
@login_required
def index():
    """The person's teams, a form to make one and one to join with a code."""
    return render_index()


@bp.route("/teams", methods=["POST"])
@login_required
def create():
    form = TeamForm()
    if not form.validate():
        return render_index(form=form, status=400)
    try:
        made = teams.create_team(db.session, current_user, form.name.data,
                                 form.description.data, current_time())
    except ServiceError as exc:
        form.name.errors = [exc.message]
        return render_index(form=form, status=exc.status)
    flash(f"Made the team “{made.team_name}”. You are its owner: make a join code below and "
          "share it to bring people in.", "success")
    return to_team(made.team_id)


# --- a team's page -----------------------------------------------------------------------

def render_team(team_id: int, *, status: int = 200, problem: str | None = None,
                edit_form: TeamForm | None = None, delete_form: DeleteTeamForm | None = None,
                code_form: JoinCodeForm | None = None):
    """The team's page; a refused form shown again with why (``problem`` above it all)."""
    page = teams.load_team_page(db.session, current_user, team_id, current_time())
    code = page.code
    return render_template(
        "teams/show.html", page=page, membership=page.membership, problem=problem,
        roles=teams.ROLE_NAMES, code=code,
        code_text=teams.format_code(code.code) if code else None,
        join_url=url_for("teams.join_code", code=code.code, _external=True) if code else None,
        edit_form=edit_form or TeamForm(formdata=None, data={
            "name": page.name, "description": page.description or ""}),
        delete_form=delete_form or DeleteTeamForm(formdata=None),
        code_form=code_form or JoinCodeForm(formdata=None),
        size_max=teams.TEAM_SIZE_MAX,
    ), status


@bp.route(TEAM)
@login_required
def show(team_id: int):
    return render_team(team_id)


def refuse(team_id: int, exc: ServiceError):
    """Not found and forbidden are error pages; any other refusal is the team's page again,
    saying why."""
    if exc.status in (403, 404):
        raise exc
    return render_team(team_id, status=exc.status, problem=exc.message)


@bp.route(f"{TEAM}/edit", methods=["POST"])
@login_required
def edit(team_id: int):
    teams.require_owner(db.session, current_user, team_id)
    form = TeamForm()
    if not form.validate():
        return render_team(team_id, status=400, edit_form=form)
    try:
        teams.edit_team(db.session, current_user, team_id, form.name.data,
                        form.description.data)
    except ServiceError as exc:
        if exc.status in (403, 404):
            raise
        form.name.errors = [exc.message]
        return render_team(team_id, status=exc.status, edit_form=form)
    flash("Saved the team's name and description.", "success")
    return to_team(team_id)


@bp.route(f"{TEAM}/delete", methods=["POST"])
@login_required
def delete(team_id: int):
    teams.require_owner(db.session, current_user, team_id)
    form = DeleteTeamForm()
    if not form.validate():
        return render_team(team_id, status=400, delete_form=form)
    try:
        name = teams.delete_team(db.session, current_user, team_id, form.confirm_name.data)
    except ServiceError as exc:
        if exc.status in (403, 404):
            raise
        form.confirm_name.errors = [exc.message]
        return render_team(team_id, status=exc.status, delete_form=form)
    flash(f"Deleted the team “{name}”. Everyone's own study and results stay theirs.",
          "success")
    return redirect(url_for("teams.index"), 303)


@bp.route(f"{TEAM}/code", methods=["POST"])
@login_required
def new_code(team_id: int):
    """A new join code replaces the current one."""
    teams.require_lead(db.session, current_user, team_id)
    form = JoinCodeForm()
    if not form.validate():
        return render_team(team_id, status=400, code_form=form)
    try:
        made = teams.create_join_code(db.session, current_user, team_id, current_time(),
                                      days=form.days.data, max_uses=form.max_uses.data)
    except ServiceError as exc:
        return refuse(team_id, exc)
    flash(f"New join code {teams.format_code(made.code)}: the one before no longer works.",
          "success")
    return to_team(team_id)


@bp.route(f"{TEAM}/code/revoke", methods=["POST"])
@login_required
def revoke_code(team_id: int):
    revoked = teams.revoke_join_code(db.session, current_user, team_id, current_time())
    flash("The join code was revoked: nobody can join with it any more." if revoked else
          "There was no working join code to revoke.", "info")
    return to_team(team_id)


@bp.route(f"{MEMBER}/role", methods=["POST"])
@login_required
def set_role(team_id: int, member_id: int):
    role = request.form.get("role", "")
    try:
        name = teams.set_role(db.session, current_user, team_id, member_id, role)
    except ServiceError as exc:
        return refuse(team_id, exc)
    flash(f"{name} is now a lead." if role == teams.LEAD else f"{name} is now a member.",
          "success")
    return to_team(team_id)


@bp.route(f"{MEMBER}/remove", methods=["POST"])
@login_required
def remove(team_id: int, member_id: int):
    try:
        name = teams.remove_member(db.session, current_user, team_id, member_id)
    except ServiceError as exc:
        return refuse(team_id, exc)
    flash(f"Removed {name} from the team. Their own study stays theirs.", "success")
    return to_team(team_id)


@bp.route(f"{TEAM}/hand-over", methods=["POST"])
@login_required
def hand_over(team_id: int):
    teams.require_owner(db.session, current_user, team_id)
    text = request.form.get("member_id", "")
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= ID_MAX:
        return render_team(team_id, status=400, problem="Choose the member to hand the team "
                                                        "over to.")
    try:
        name = teams.hand_over(db.session, current_user, team_id, int(text))
    except NotFound as exc:  # the member left meanwhile: say so on the page
        return render_team(team_id, status=exc.status, problem=exc.message)
    except ServiceError as exc:
        return refuse(team_id, exc)
    flash(f"{name} now owns the team; you are a lead of it.", "success")
    return to_team(team_id)


@bp.route(f"{TEAM}/leave", methods=["POST"])
@login_required
def leave(team_id: int):
    try:
        name = teams.leave_team(db.session, current_user, team_id)
    except ServiceError as exc:
        return refuse(team_id, exc)
    flash(f"You left the team “{name}”. Your own study stays yours.", "success")
    return redirect(url_for("teams.index"), 303)


# --- joining -----------------------------------------------------------------------------

def render_join(form: JoinForm, *, status: int = 200, problem: str | None = None,
                found: teams.CodeTeam | None = None, member: bool = False, headers=None):
    return render_template("teams/join.html", form=form, problem=problem, found=found,
                           member=member,
                           code_text=teams.format_code(found.code) if found else None,
                           ), status, headers or {}


def ask_to_sign_in() -> Response:
    """A signed-out visitor with an invitation: log in (or register) and come back to it."""
    flash(SIGN_IN_TO_JOIN, "info")
    return redirect(login_url("auth.login", next_url=request.path))


def try_join(form: JoinForm, text: str | None):
    """Join with the code ``text``: the team's page, or the join page saying why not."""
    try:
        result = teams.join_team(db.session, current_user, text, client_address(),
                                 current_time(), current_join_code_limit())
    except LoginThrottled as exc:
        return render_join(form, status=429, problem=exc.message, headers=retry_headers(exc))
    except ServiceError as exc:
        form.code.errors = [exc.message]
        return render_join(form, status=exc.status)
    if result.joined:
        flash(f"Welcome to “{result.team_name}”.", "success")
    else:
        flash(f"You are already a member of “{result.team_name}”.", "info")
    return to_team(result.team_id)


@bp.route("/join")
@login_required
def join():
    """The form to type a join code in."""
    return render_join(JoinForm(formdata=None))


def ask_to_sign_in_with(text: str | None) -> Response:
    """A code typed (or an invitation's button pressed) while signed out: log in (or register), then on to its invitation. Only a
    code that can be one goes into ``next``, in the form it is stored in; anything else is
    treated as any form posted while signed out is (back to the page it was on)."""
    code = teams.canonicalize_join_code(text)
    if code is None:
        return current_app.login_manager.unauthorized()  # type: ignore[attr-defined]
    flash(SIGN_IN_TO_JOIN, "info")
    target = compute_safe_next(url_for("teams.join_code", code=code), url_for("teams.join"))
    return redirect(login_url("auth.login", next_url=target))


@bp.route("/join", methods=["POST"])
def join_typed():
    form = JoinForm()
    if not current_user.is_authenticated:
        return ask_to_sign_in_with(form.code.data)
    if not form.validate():
        return render_join(form, status=400)
    return try_join(form, form.code.data)


@bp.route("/join/<code>")
def join_code(code: str):
    """An invitation link: the team it leads to and a button to join (a GET joins nothing)."""
    if not current_user.is_authenticated:
        return ask_to_sign_in()
    form = JoinForm(formdata=None, data={"code": code[:teams.JOIN_CODE_CHARS_MAX]})
    try:
        found, member = teams.look_up_code(db.session, current_user, code, client_address(),
                                           current_time(), current_join_code_limit())
    except LoginThrottled as exc:
        return render_join(form, status=429, problem=exc.message, headers=retry_headers(exc))
    except ServiceError as exc:
        return render_join(form, status=exc.status, problem=exc.message)
    return render_join(form, found=found, member=member)


@bp.route("/join/<code>", methods=["POST"])
def join_with_link(code: str):
    if not current_user.is_authenticated:  # signed out on the invitation page: back to it
        return ask_to_sign_in_with(code)
    form = JoinForm(formdata=None, data={"code": code[:teams.JOIN_CODE_CHARS_MAX]})
    return try_join(form, code)
