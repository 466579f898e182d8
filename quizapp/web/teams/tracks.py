"""A team's tracks: leads build and assign them; members see and work through their own."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from quizapp import srs
from quizapp.extensions import db
from quizapp.services import practice_sets, question_browser, skill_browser, teams
from quizapp.services import track_standing as standing
from quizapp.services import tracks as service
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import ServiceError
from quizapp.services.track_progress import SET, canonicalize_due
from quizapp.web.http.fields import ID_MAX
from quizapp.web.http.runtime import current_time
from quizapp.web.navigation.lists import (
    compute_filters,
    compute_list_args,
    compute_list_query,
    name_filters,
)
from quizapp.web.teams.track_forms import (
    AssignForm,
    DueForm,
    MoveForm,
    QuestionsStepForm,
    SetStepForm,
    SkillsStepForm,
    StepEditForm,
    TrackForm,
    set_filter_choices,
)

bp = Blueprint("tracks", __name__)
SLUG_IN_LINK = re.compile(r"(?:^|/)sets/([A-Za-z0-9_-]{1,43})(?:[/?#]|$)")
BARE_SLUG = re.compile(r"[A-Za-z0-9_-]{1,43}")
ID = f"int(max={ID_MAX})"
TEAM = f"/teams/<{ID}:team_id>"
TRACK = f"{TEAM}/tracks/<{ID}:track_id>"
STEP = f"{TRACK}/steps/<{ID}:step_id>"
ASSIGNMENT = f"{TRACK}/assignments/<{ID}:assignment_id>"
PERSON = f"{ASSIGNMENT}/people/<{ID}:user_id>"


def read_due(text: str | None):
    """A due date field as a UTC time at the end of that day on the user's clock (None when
    empty); ServiceError in words otherwise."""
    return canonicalize_due(text or "", srs.compute_user_zone(current_user), current_time())


def read_slug(link: str) -> str:
    """The slug in a pasted set address (or the slug itself)."""
    link = link.strip()
    match = SLUG_IN_LINK.search(urlsplit(link).path if "://" in link else link)
    if match:
        return match.group(1)
    if BARE_SLUG.fullmatch(link):
        return link
    raise ServiceError("That is not a practice set's address: paste the address of a set's "
                       "page (/sets/...).")


def read_list_filters(form: QuestionsStepForm) -> question_browser.CardFilters:
    """The filters of a pasted /questions address, else those picked on the form."""
    link = (form.list_link.data or "").strip()
    if link:
        parts = urlsplit(link)
        if parts.path and not parts.path.rstrip("/").endswith("/questions") \
                and parts.path != "questions":
            raise ServiceError("That is not a question list's address: copy it from the "
                               "Questions page after filtering it.")
        return compute_filters(compute_list_query(parse_qsl(parts.query)))
    picked = {"level": form.level.data or "", "concept": form.concept.data or "",
              "importance": form.importance.data or "", "q": form.q.data or ""}
    return compute_filters(compute_list_query(picked.items()))


# --- the track pages --------------------------------------------------------------------------

def render_manage(team_id: int, track_id: int, *, status: int = 200, problem: str | None = None,
                  **forms):
    """A lead's page of a track: its steps, the forms that add, edit and order them, and its
    assignments; ``forms`` are the ones to show as posted (with their errors)."""
    membership = teams.load_membership(db.session, current_user, team_id)
    track = service.load_track(db.session, current_user, team_id, track_id)
    questions_form = forms.get("questions_form") or QuestionsStepForm(formdata=None)
    set_filter_choices(questions_form, LEVEL_ORDER,
                       [c.tag for c in question_browser.list_concepts(db.session)],
                       IMPORTANCE_ORDER)
    zone = srs.compute_user_zone(current_user)
    progress = standing.load_team_progress(db.session, team_id, current_time(),
                                           track_ids=[track_id])
    return render_template(
        "teams/track_manage.html", membership=membership, track=track, problem=problem,
        people=service.list_people(db.session, current_user, team_id),
        skills=skill_browser.list_skills(db.session, None),
        own_sets=practice_sets.list_user_sets(db.session, current_user),
        track_form=forms.get("track_form") or TrackForm(
            formdata=None, data={"title": track.title, "description": track.description}),
        set_form=forms.get("set_form") or SetStepForm(formdata=None),
        questions_form=questions_form,
        skills_form=forms.get("skills_form") or SkillsStepForm(formdata=None),
        assign_form=forms.get("assign_form") or AssignForm(formdata=None),
        local_date=lambda moment: moment.astimezone(zone).date().isoformat() if moment else "",
        edit_typed=forms.get("edit_typed") or {}, due_typed=forms.get("due_typed") or {},
        progress=progress, max_steps=service.STEPS_PER_TRACK), status


def form_problem(form) -> str:
    return "; ".join(error for errors in form.errors.values() for error in errors)


def read_typed_due(field: str) -> dict[str, str]:
    """A refused due date as typed, for the field it came from (its input's id) to show again
    instead of the stored date."""
    return {"field": field, "due": request.form.get("due", "")[:40]}


def refuse(team_id: int, track_id: int, message: str, status: int = 400, **forms):
    return render_manage(team_id, track_id, status=status, problem=message, **forms)


def refuse_error(exc: ServiceError, team_id: int, track_id: int, **forms):
    """The track's page again with the service's refusal; a 404 (no such step, assignment or
    person here) is raised on, answered as the app answers any."""
    if exc.status == 404:
        raise exc
    return refuse(team_id, track_id, exc.message, exc.status, **forms)


def to_assignments(team_id: int, track_id: int):
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id,
                            _anchor="assignments"), 303)


@bp.route(f"{TEAM}/tracks/new", methods=["GET"])
@login_required
def new(team_id: int):
    membership = teams.require_lead(db.session, current_user, team_id)
    return render_template("teams/track_new.html", membership=membership,
                           form=TrackForm(formdata=None))


@bp.route(f"{TEAM}/tracks", methods=["POST"])
@login_required
def create(team_id: int):
    membership = teams.require_lead(db.session, current_user, team_id)
    form = TrackForm()
    problem = None
    if form.validate():
        try:
            track_id = service.create_track(db.session, current_user, team_id,
                                            form.title.data or "", form.description.data,
                                            current_time())
        except ServiceError as exc:
            problem = exc.message
        else:
            flash("Track created: add its steps, then assign it.", "info")
            return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id), 303)
    return render_template("teams/track_new.html", membership=membership, form=form,
                           problem=problem), 400


@bp.route(TRACK, methods=["GET"])
@login_required
def show(team_id: int, track_id: int):
    """A lead's page of the track; a member's own standing on it, if it is assigned to them
    (404 otherwise, as for an outsider)."""
    membership = teams.load_membership(db.session, current_user, team_id)
    if membership.is_lead and request.args.get("view") != "mine":  # ?view=mine: their own
        return render_manage(team_id, track_id)
    progress, steps = standing.load_my_track(db.session, current_user, team_id, track_id,
                                             current_time())
    return render_template("teams/track_member.html", membership=membership,
                           progress=progress, steps={step.id: step for step in steps},
                           items=standing.list_step_items(db.session, current_user, progress,
                                                          steps))


@bp.route(f"{TRACK}/edit", methods=["POST"])
@login_required
def edit(team_id: int, track_id: int):
    teams.require_lead(db.session, current_user, team_id)
    form = TrackForm()
    if not form.validate():
        return refuse(team_id, track_id, form_problem(form), track_form=form)
    try:
        service.update_track(db.session, current_user, team_id, track_id, form.title.data or "",
                             form.description.data)
    except ServiceError as exc:
        return refuse(team_id, track_id, exc.message, exc.status, track_form=form)
    flash("Track saved.", "info")
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id), 303)


@bp.route(f"{TRACK}/delete", methods=["POST"])
@login_required
def delete(team_id: int, track_id: int):
    title = service.delete_track(db.session, current_user, team_id, track_id)
    flash(f"Deleted the track “{title}”. What its members did stays in their own history.",
          "info")
    return redirect(url_for("teams.show", team_id=team_id), 303)


# --- steps ------------------------------------------------------------------------------------

@bp.route(f"{TRACK}/steps", methods=["POST"])
@login_required
def add_step(team_id: int, track_id: int):
    """Add a step of the kind posted (``kind``: set, questions or skills) at the end."""
    teams.require_lead(db.session, current_user, team_id)
    kind = request.form.get("kind", "")
    if kind == SET:
        set_form = SetStepForm()
        if not set_form.validate():
            return refuse(team_id, track_id, form_problem(set_form), set_form=set_form)
        try:
            service.add_set_step(db.session, current_user, team_id, track_id,
                                 read_slug(set_form.set_link.data or ""),
                                 title=set_form.title.data or "",
                                 pass_mark=set_form.pass_mark.data,
                                 due_at=read_due(set_form.due.data))
        except ServiceError as exc:
            return refuse(team_id, track_id, exc.message, exc.status, set_form=set_form)
    elif kind == "questions":
        questions_form = QuestionsStepForm()
        if not questions_form.validate():
            return refuse(team_id, track_id, form_problem(questions_form),
                          questions_form=questions_form)
        try:
            filters = read_list_filters(questions_form)
            named = name_filters(filters)
            service.add_questions_step(
                db.session, current_user, team_id, track_id, filters,
                urlencode(compute_list_args(filters)),
                title=questions_form.title.data or (
                    f"Questions: {named}" if named else "Every question"),
                due_at=read_due(questions_form.due.data))
        except ServiceError as exc:
            return refuse(team_id, track_id, exc.message, exc.status,
                          questions_form=questions_form)
    elif kind == "skills":
        skills_form = SkillsStepForm()
        if not skills_form.validate():
            return refuse(team_id, track_id, form_problem(skills_form), skills_form=skills_form)
        chosen = skills_form.skills.data or []
        try:
            service.add_skills_step(
                db.session, current_user, team_id, track_id, chosen,
                title=skills_form.title.data or (
                    f"Puzzle skills ({len(set(chosen))})"),
                due_at=read_due(skills_form.due.data))
        except ServiceError as exc:
            return refuse(team_id, track_id, exc.message, exc.status, skills_form=skills_form)
    else:
        abort(400, "That step arrived damaged (no kind); nothing was added.")
    flash("Step added.", "info")
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id, _anchor="steps"),
                    303)


@bp.route(f"{STEP}/edit", methods=["POST"])
@login_required
def edit_step(team_id: int, track_id: int, step_id: int):
    teams.require_lead(db.session, current_user, team_id)
    form = StepEditForm()
    typed = {"step_id": step_id, "title": request.form.get("title", "")[:400],
             "pass_mark": request.form.get("pass_mark", "")[:40],
             "due": request.form.get("due", "")[:40]}  # shown again as typed when refused
    if not form.validate():
        return refuse(team_id, track_id, form_problem(form), edit_typed=typed)
    try:
        service.update_step(db.session, current_user, team_id, track_id, step_id,
                            title=form.title.data or "", pass_mark=form.pass_mark.data,
                            due_at=read_due(form.due.data))
    except ServiceError as exc:
        return refuse_error(exc, team_id, track_id, edit_typed=typed)
    flash("Step saved.", "info")
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id, _anchor="steps"),
                    303)


@bp.route(f"{STEP}/move", methods=["POST"])
@login_required
def move_step(team_id: int, track_id: int, step_id: int):
    form = MoveForm()
    if not form.validate() or form.direction.data not in ("up", "down"):
        teams.require_lead(db.session, current_user, team_id)
        abort(400, "That move arrived damaged; nothing was moved.")
    service.move_step(db.session, current_user, team_id, track_id, step_id,
                      -1 if form.direction.data == "up" else 1)
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id, _anchor="steps"),
                    303)


@bp.route(f"{STEP}/delete", methods=["POST"])
@login_required
def remove_step(team_id: int, track_id: int, step_id: int):
    title = service.remove_step(db.session, current_user, team_id, track_id, step_id)
    flash(f"Removed the step “{title}”.", "info")
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id, _anchor="steps"),
                    303)


# --- assignments ------------------------------------------------------------------------------

@bp.route(f"{TRACK}/assignments", methods=["POST"])
@login_required
def assign(team_id: int, track_id: int):
    teams.require_lead(db.session, current_user, team_id)
    form = AssignForm()
    if not form.validate():
        return refuse(team_id, track_id, form_problem(form), assign_form=form)
    people = form.read_people()
    if people is None:
        abort(400, "The members picked arrived damaged; nothing was assigned.")
    try:
        service.assign_track(db.session, current_user, team_id, track_id,
                             whole_team=form.to.data == "team", user_ids=people,
                             due_at=read_due(form.due.data), now=current_time())
    except ServiceError as exc:
        return refuse(team_id, track_id, exc.message, exc.status, assign_form=form)
    flash("Track assigned: its members see it on their home page and the team's page.", "info")
    return to_assignments(team_id, track_id)


@bp.route(f"{ASSIGNMENT}/edit", methods=["POST"])
@login_required
def edit_assignment(team_id: int, track_id: int, assignment_id: int):
    teams.require_lead(db.session, current_user, team_id)
    form = DueForm()
    try:
        if not form.validate():
            raise ServiceError(form_problem(form))
        service.update_assignment(db.session, current_user, team_id, track_id, assignment_id,
                                  read_due(form.due.data))
    except ServiceError as exc:
        return refuse_error(exc, team_id, track_id,
                            due_typed=read_typed_due(f"adue-{assignment_id}"))
    flash("Due date saved.", "info")
    return to_assignments(team_id, track_id)


@bp.route(f"{ASSIGNMENT}/delete", methods=["POST"])
@login_required
def remove_assignment(team_id: int, track_id: int, assignment_id: int):
    service.remove_assignment(db.session, current_user, team_id, track_id, assignment_id)
    flash("Assignment removed. What its members did stays in their own history.", "info")
    return to_assignments(team_id, track_id)


@bp.route(f"{PERSON}/due", methods=["POST"])
@login_required
def person_due(team_id: int, track_id: int, assignment_id: int, user_id: int):
    """One person's own due date on the assignment (an extension); empty takes it back."""
    teams.require_lead(db.session, current_user, team_id)
    form = DueForm()
    try:
        if not form.validate():
            raise ServiceError(form_problem(form))
        due = read_due(form.due.data)
        name = service.set_person_due(db.session, current_user, team_id, track_id,
                                      assignment_id, user_id, due)
    except ServiceError as exc:
        return refuse_error(exc, team_id, track_id,
                            due_typed=read_typed_due(f"pdue-{assignment_id}-{user_id}"))
    flash(f"{name} now has their own due date." if due else
          f"{name} has the assignment's due date again.", "info")
    return to_assignments(team_id, track_id)


@bp.route(f"{PERSON}/delete", methods=["POST"])
@login_required
def unassign(team_id: int, track_id: int, assignment_id: int, user_id: int):
    teams.require_lead(db.session, current_user, team_id)
    try:
        service.unassign_person(db.session, current_user, team_id, track_id, assignment_id,
                                user_id)
    except ServiceError as exc:
        return refuse_error(exc, team_id, track_id)
    flash("Taken off the assignment. What they did stays in their own history.", "info")
    return to_assignments(team_id, track_id)


# --- a member's work --------------------------------------------------------------------------

@bp.route(f"{STEP}/reviews", methods=["POST"])
@login_required
def add_to_reviews(team_id: int, track_id: int, step_id: int) -> Response:
    """An assigned step's questions and skills become the member's next new items."""
    teams.load_membership(db.session, current_user, team_id)
    done = standing.add_step_to_reviews(db.session, current_user, team_id, track_id, step_id,
                                        current_time())
    flash(describe_added(done), "info")
    return redirect(url_for("tracks.show", team_id=team_id, track_id=track_id), 303)


def describe_added(done) -> str:
    def items(n: int) -> str:
        return f"{n} item{'' if n == 1 else 's'}"

    parts = [f"Added {items(done.added)} to your reviews: they come first among your new "
             "items, as many a day as your daily limit for new items allows."
             if done.added else "Nothing new to add to your reviews."]
    if done.studied:
        parts.append(f"{items(done.studied)} you have studied already keep their schedule: "
                     "review each when it is due (or open it and choose Study it now).")
    if done.already:
        parts.append(f"{items(done.already)} were added before and are still waiting.")
    if done.suspended:
        parts.append(f"{items(done.suspended)} are suspended: they come once you resume them.")
    if done.missing:
        parts.append(f"{items(done.missing)} are no longer studied (retired from the bank).")
    return " ".join(parts)


@bp.app_template_global("track_section")
def track_section(team_id: int) -> dict:
    """What the team page's tracks section shows the signed-in person: a lead every track
    of the team, a member their own assignments in it."""
    membership = teams.load_membership(db.session, current_user, team_id)
    if membership.is_lead:
        return {"lead": True, "tracks": service.list_tracks(db.session, current_user, team_id)}
    return {"lead": False, "mine": standing.list_my_assignments(
        db.session, current_user, current_time(), team_id=team_id)}
