"""Tracks: a lead builds one of ordered steps (sets, question lists, puzzle skills) and assigns it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from quizapp.models import (
    Assignment,
    AssignmentMember,
    PracticeSet,
    TeamMember,
    Track,
    TrackStep,
    User,
)
from quizapp.models.teams import FILTER_QUERY_MAX, STEP_TITLE_MAX, TRACK_TITLE_MAX
from quizapp.services import practice_sets, question_browser, skill_browser
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.store.search_text import compute_search_terms
from quizapp.services.store.study_items import CARD, ITEM
from quizapp.services.teams import MEMBER, Membership, load_membership, require_lead
from quizapp.services.track_progress import KINDS, QUESTIONS, SET, SKILLS
from quizapp.services.users import StudyUser

TRACKS_PER_TEAM = 50
STEPS_PER_TRACK = 50
ITEMS_PER_STEP = 200  # a question list or skills step: what a person reviews as one step
DESCRIPTION_MAX = 2000
NO_SUCH_TRACK = "There is no such track in this team."
NO_SUCH_STEP = "There is no such step in this track."
NO_SUCH_ASSIGNMENT = "There is no such assignment of this track."


@dataclass(frozen=True)
class Step:
    """A track's step as its pages show it: a set (by its link, None once deleted) with its
    pass mark, or the frozen (kind, key) items of a question list or of puzzle skills."""

    id: int
    track_id: int
    position: int
    kind: str
    title: str
    set_slug: str | None
    set_title: str | None
    pass_mark: int | None
    item_keys: tuple[tuple[str, str], ...]
    filter_query: str | None
    due_at: datetime | None

    @property
    def kind_label(self) -> str:
        return KINDS[self.kind]

    @property
    def gone(self) -> bool:
        """A set step whose set its owner deleted: it cannot be taken any more."""
        return self.kind == SET and self.set_slug is None

    @property
    def items(self) -> int:
        return len(self.item_keys)


@dataclass(frozen=True)
class Assignee:
    user_id: int
    username: str
    due_at: datetime | None  # their own due date (an extension), None: the assignment's


@dataclass(frozen=True)
class AssignmentInfo:
    """An assignment of a track: to the whole team (``people`` then lists extensions only) or
    to the people listed."""

    id: int
    track_id: int
    whole_team: bool
    due_at: datetime | None
    created_at: datetime
    people: tuple[Assignee, ...]


@dataclass(frozen=True)
class TrackInfo:
    id: int
    team_id: int
    title: str
    description: str | None
    created_at: datetime
    steps: tuple[Step, ...]
    assignments: tuple[AssignmentInfo, ...] = ()


@dataclass(frozen=True)
class TeamPerson:
    """A team member as the assignment form lists them."""

    user_id: int
    username: str
    role: str


# --- reading --------------------------------------------------------------------------------

def canonicalize_title(text: str, limit: int, what: str) -> str:
    cleaned = " ".join(text.split())
    if not cleaned:
        raise ServiceError(f"Give the {what} a title.")
    if len(cleaned) > limit:
        raise ServiceError(f"A {what}'s title is at most {limit} characters.")
    return cleaned


def canonicalize_description(text: str | None) -> str | None:
    cleaned = (text or "").strip()
    if len(cleaned) > DESCRIPTION_MAX:
        raise ServiceError(f"A description is at most {DESCRIPTION_MAX} characters.")
    return cleaned or None


def _step(row: TrackStep, slug: str | None, set_title: str | None) -> Step:
    keys = tuple((str(kind), str(key)) for kind, key in row.item_keys)
    return Step(row.id, row.track_id, row.position, row.kind, row.title, slug, set_title,
                row.pass_mark, keys, row.filter_query, row.due_at)


def load_steps(session: Session, track_ids: Sequence[int]) -> dict[int, tuple[Step, ...]]:
    """The steps of each track, in order, with their sets' links and titles."""
    steps: dict[int, list[Step]] = {track_id: [] for track_id in track_ids}
    if not track_ids:
        return {}
    rows = session.execute(
        select(TrackStep, PracticeSet.slug, PracticeSet.title)
        .outerjoin(PracticeSet, PracticeSet.id == TrackStep.practice_set_id)
        .where(TrackStep.track_id.in_(list(track_ids)))
        .order_by(TrackStep.track_id, TrackStep.position, TrackStep.id))
    for row, slug, title in rows:
        steps[row.track_id].append(_step(row, slug, title))
    return {track_id: tuple(listed) for track_id, listed in steps.items()}


def load_assignments(session: Session, track_ids: Sequence[int]
                     ) -> dict[int, tuple[AssignmentInfo, ...]]:
    """Each track's assignments, oldest first, with the people named in each."""
    if not track_ids:
        return {}
    rows = session.scalars(select(Assignment).where(Assignment.track_id.in_(list(track_ids)))
                           .order_by(Assignment.created_at, Assignment.id)).all()
    people: dict[int, list[Assignee]] = {row.id: [] for row in rows}
    if rows:
        for assignment_id, user_id, username, due_at in session.execute(
                select(AssignmentMember.assignment_id, AssignmentMember.user_id, User.username,
                       AssignmentMember.due_at)
                .join(User, User.id == AssignmentMember.user_id)
                .where(AssignmentMember.assignment_id.in_(list(people)))
                .order_by(func.lower(User.username))):
            people[assignment_id].append(Assignee(user_id, username, due_at))
    found: dict[int, list[AssignmentInfo]] = {track_id: [] for track_id in track_ids}
    for row in rows:
        found[row.track_id].append(AssignmentInfo(row.id, row.track_id, row.whole_team,
                                                  row.due_at, row.created_at,
                                                  tuple(people[row.id])))
    return {track_id: tuple(listed) for track_id, listed in found.items()}


def list_tracks(session: Session, user: StudyUser, team_id: int) -> list[TrackInfo]:
    """The team's tracks, newest first, with steps and assignments: for its leads and owner
    (Forbidden for a member, NotFound for an outsider)."""
    require_lead(session, user, team_id)
    rows = session.scalars(select(Track).where(Track.team_id == team_id)
                           .order_by(Track.created_at.desc(), Track.id.desc())).all()
    ids = [row.id for row in rows]
    steps, assignments = load_steps(session, ids), load_assignments(session, ids)
    return [TrackInfo(row.id, row.team_id, row.title, row.description, row.created_at,
                      steps[row.id], assignments[row.id]) for row in rows]


def _load_track_row(session: Session, team_id: int, track_id: int) -> Track:
    row = session.get(Track, track_id) if 0 < track_id < 2**31 else None
    if row is None or row.team_id != team_id:
        raise NotFound(NO_SUCH_TRACK)
    return row


def load_track(session: Session, user: StudyUser, team_id: int, track_id: int) -> TrackInfo:
    """One track with its steps and assignments, for the team's leads and owner."""
    require_lead(session, user, team_id)
    row = _load_track_row(session, team_id, track_id)
    return TrackInfo(row.id, row.team_id, row.title, row.description, row.created_at,
                     load_steps(session, [row.id])[row.id],
                     load_assignments(session, [row.id])[row.id])


def list_people(session: Session, user: StudyUser, team_id: int) -> list[TeamPerson]:
    """The team's members by name, for a lead choosing whom to assign a track to."""
    require_lead(session, user, team_id)
    return [TeamPerson(user_id, username, role) for user_id, username, role in session.execute(
        select(TeamMember.user_id, User.username, TeamMember.role)
        .join(User, User.id == TeamMember.user_id).where(TeamMember.team_id == team_id)
        .order_by(func.lower(User.username)))]


# --- building a track -----------------------------------------------------------------------

def create_track(session: Session, user: StudyUser, team_id: int, title: str,
                 description: str | None, now: datetime) -> int:
    """A new, empty track of the team; its id. At most TRACKS_PER_TEAM per team."""
    require_lead(session, user, team_id)
    cleaned = canonicalize_title(title, TRACK_TITLE_MAX, "track")
    about = canonicalize_description(description)
    count = session.scalar(select(func.count()).select_from(Track)
                           .where(Track.team_id == team_id)) or 0
    if count >= TRACKS_PER_TEAM:
        raise ServiceError(f"A team has at most {TRACKS_PER_TEAM} tracks: delete one it no "
                           "longer needs first.")
    row = Track(team_id=team_id, title=cleaned, description=about, created_at=now,
                created_by=user.id)
    session.add(row)
    session.commit()
    return row.id


def update_track(session: Session, user: StudyUser, team_id: int, track_id: int, title: str,
                 description: str | None) -> None:
    require_lead(session, user, team_id)
    row = _load_track_row(session, team_id, track_id)
    row.title = canonicalize_title(title, TRACK_TITLE_MAX, "track")
    row.description = canonicalize_description(description)
    session.commit()


def delete_track(session: Session, user: StudyUser, team_id: int, track_id: int) -> str:
    """Delete the track with its steps and assignments; its title. The members' attempts and
    reviews stay theirs (the attempts only lose their link to the step)."""
    require_lead(session, user, team_id)
    row = _load_track_row(session, team_id, track_id)
    title = row.title
    session.delete(row)
    session.commit()
    return title


def _check_room(session: Session, track_id: int) -> int:
    """The next step's position; ServiceError when the track has STEPS_PER_TRACK."""
    count, last = session.execute(
        select(func.count(), func.max(TrackStep.position))
        .where(TrackStep.track_id == track_id)).one()
    if count >= STEPS_PER_TRACK:
        raise ServiceError(f"A track has at most {STEPS_PER_TRACK} steps: split it into two "
                           "tracks, or remove a step first.")
    return (last + 1) if last is not None else 0


def _add_step(session: Session, user: StudyUser, team_id: int, track_id: int,
              **columns) -> int:
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    columns["title"] = canonicalize_title(columns["title"], STEP_TITLE_MAX, "step")
    row = TrackStep(track_id=track_id, position=_check_room(session, track_id), **columns)
    session.add(row)
    session.commit()
    return row.id


def check_pass_mark(pass_mark: int | None) -> int | None:
    if pass_mark is not None and not 0 <= pass_mark <= 100:
        raise ServiceError("A pass mark is a percentage from 0 to 100.")
    return pass_mark


def add_set_step(session: Session, user: StudyUser, team_id: int, track_id: int, slug: str,
                 *, title: str = "", pass_mark: int | None, due_at: datetime | None) -> int:
    """Add a practice set (by its link's slug) as the track's last step; its id."""
    require_lead(session, user, team_id)
    try:
        saved = practice_sets.load_set(session, slug)
    except NotFound:
        raise ServiceError("There is no practice set at that address: paste the link of a "
                           "set's page (/sets/...).") from None
    return _add_step(session, user, team_id, track_id, kind=SET, title=title or saved.title,
                     practice_set_id=saved.id, pass_mark=check_pass_mark(pass_mark),
                     item_keys=[[ref.kind, ref.key] for ref in saved.refs], due_at=due_at)


def list_filtered_cards(session: Session, filters: question_browser.CardFilters
                        ) -> list[tuple[str, str]]:
    """(kind, key) of the cards a /questions filter lists now, in the list's order; at most
    ITEMS_PER_STEP (ServiceError naming the count when there are more, or none)."""
    question_browser.validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    on_item, on_card = question_browser.compute_card_conditions(filters, terms)
    joined = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id)
    total = session.scalar(select(func.count()).select_from(joined)
                           .where(*on_item, *on_card)) or 0
    if not total:
        raise ServiceError("That filter lists no questions: widen it.")
    if total > ITEMS_PER_STEP:
        raise ServiceError(f"That filter lists {total} questions; a step holds at most "
                           f"{ITEMS_PER_STEP}: narrow it (a level, a concept or a search).")
    keys = session.execute(select(ITEM.c.kind, ITEM.c.key).select_from(joined)
                           .where(*on_item, *on_card)
                           .order_by(*question_browser.compute_card_order(filters, terms)))
    return [(str(kind), str(key)) for kind, key in keys]


def add_questions_step(session: Session, user: StudyUser, team_id: int, track_id: int,
                       filters: question_browser.CardFilters, filter_query: str, *,
                       title: str, due_at: datetime | None) -> int:
    """Add the cards a /questions filter lists now (frozen: later bank edits leave the step
    as it was) as the track's last step; ``filter_query`` is the list's query string, kept
    to link back to it. The person's own-progress filter is not a team's: it is dropped."""
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    keys = list_filtered_cards(session, question_browser.CardFilters(
        level=filters.level, concept=filters.concept, importance=filters.importance,
        text=filters.text, sort=filters.sort))
    return _add_step(session, user, team_id, track_id, kind=QUESTIONS, title=title,
                     item_keys=[list(key) for key in keys],
                     filter_query=filter_query[:FILTER_QUERY_MAX] or None, due_at=due_at)


def add_skills_step(session: Session, user: StudyUser, team_id: int, track_id: int,
                    skill_keys: Sequence[str], *, title: str, due_at: datetime | None) -> int:
    """Add puzzle skills ("family/level", as the puzzle list names them) as the track's last
    step, in the order the queue introduces them."""
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    offered = [listed.skill.key for listed in skill_browser.list_skills(session, None)]
    chosen = set(skill_keys)
    unknown = chosen.difference(offered)
    if unknown:
        raise ServiceError(f"There is no puzzle skill {sorted(unknown)[0][:60]!r}: pick from "
                           "the list.")
    if not chosen:
        raise ServiceError("Pick at least one puzzle skill.")
    keys = [["skill", key] for key in offered if key in chosen]
    return _add_step(session, user, team_id, track_id, kind=SKILLS, title=title,
                     item_keys=keys, due_at=due_at)


def _load_step_row(session: Session, user: StudyUser, team_id: int, track_id: int,
                   step_id: int) -> TrackStep:
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    row = session.get(TrackStep, step_id) if 0 < step_id < 2**31 else None
    if row is None or row.track_id != track_id:
        raise NotFound(NO_SUCH_STEP)
    return row


def update_step(session: Session, user: StudyUser, team_id: int, track_id: int, step_id: int,
                *, title: str, pass_mark: int | None, due_at: datetime | None) -> None:
    """Change a step's title, due date and (a set's) pass mark; its items stay frozen."""
    row = _load_step_row(session, user, team_id, track_id, step_id)
    row.title = canonicalize_title(title, STEP_TITLE_MAX, "step")
    if row.kind == SET:
        row.pass_mark = check_pass_mark(pass_mark)
    row.due_at = due_at
    session.commit()


def _ordered_rows(session: Session, track_id: int) -> list[TrackStep]:
    return list(session.scalars(select(TrackStep).where(TrackStep.track_id == track_id)
                                .order_by(TrackStep.position, TrackStep.id)))


def move_step(session: Session, user: StudyUser, team_id: int, track_id: int, step_id: int,
              offset: int) -> None:
    """Move a step ``offset`` places (-1: up, 1: down); at either end it stays put. Positions
    are renumbered 0, 1, 2... in the new order."""
    _load_step_row(session, user, team_id, track_id, step_id)
    rows = _ordered_rows(session, track_id)
    index = next(i for i, row in enumerate(rows) if row.id == step_id)
    target = min(max(index + offset, 0), len(rows) - 1)
    rows.insert(target, rows.pop(index))
    for position, row in enumerate(rows):
        row.position = position
    session.commit()


def remove_step(session: Session, user: StudyUser, team_id: int, track_id: int,
                step_id: int) -> str:
    """Remove a step (the attempts taken for it stay their takers', unlinked); its title."""
    row = _load_step_row(session, user, team_id, track_id, step_id)
    title = row.title
    session.delete(row)
    session.flush()
    for position, left in enumerate(_ordered_rows(session, track_id)):
        left.position = position
    session.commit()
    return title


# --- assigning ------------------------------------------------------------------------------

def _load_assignment_row(session: Session, user: StudyUser, team_id: int, track_id: int,
                         assignment_id: int) -> Assignment:
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    row = session.get(Assignment, assignment_id) if 0 < assignment_id < 2**31 else None
    if row is None or row.track_id != track_id:
        raise NotFound(NO_SUCH_ASSIGNMENT)
    return row


def _team_roles(session: Session, team_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    return {user_id: role for user_id, role in session.execute(
        select(TeamMember.user_id, TeamMember.role).where(
            TeamMember.team_id == team_id, TeamMember.user_id.in_(list(user_ids))))}


def assign_track(session: Session, user: StudyUser, team_id: int, track_id: int, *,
                 whole_team: bool, user_ids: Sequence[int] = (), due_at: datetime | None,
                 now: datetime) -> int:
    """Assign the track to the whole team (everyone with the member role, now and when they
    join later) or to the chosen members; its id. Nobody gets one track twice."""
    require_lead(session, user, team_id)
    _load_track_row(session, team_id, track_id)
    if not session.scalar(select(func.count()).select_from(TrackStep)
                          .where(TrackStep.track_id == track_id)):
        raise ServiceError("Add a step to the track before assigning it.")
    existing = session.scalars(select(Assignment).where(Assignment.track_id == track_id)).all()
    if whole_team:
        if existing:
            raise ServiceError("This track is assigned already: remove that assignment first "
                               "to give it to the whole team, or give one person more time "
                               "with their own due date.")
        row = Assignment(track_id=track_id, whole_team=True, due_at=due_at, created_at=now)
        session.add(row)
        session.commit()
        return row.id
    chosen = sorted(set(user_ids))
    if not chosen:
        raise ServiceError("Pick the members to assign the track to, or the whole team.")
    if any(a.whole_team for a in existing):
        raise ServiceError("This track is assigned to the whole team already; give one person "
                           "more time with their own due date instead.")
    roles = _team_roles(session, team_id, chosen)
    if len(roles) < len(chosen):
        raise ServiceError("One of the people picked is not in this team (any more): reload "
                           "the page and pick again.")
    taken = set(session.scalars(select(AssignmentMember.user_id).where(
        AssignmentMember.assignment_id.in_([a.id for a in existing]),
        AssignmentMember.user_id.in_(chosen)))) if existing else set()
    if taken:
        names = session.scalars(select(User.username).where(User.id.in_(sorted(taken)))
                                .order_by(User.username)).all()
        raise ServiceError(f"{', '.join(names)} {'has' if len(names) == 1 else 'have'} this "
                           "track already: change their due date there instead.")
    row = Assignment(track_id=track_id, whole_team=False, due_at=due_at, created_at=now)
    session.add(row)
    session.flush()
    session.add_all(AssignmentMember(assignment_id=row.id, user_id=user_id, due_at=None)
                    for user_id in chosen)
    session.commit()
    return row.id


def update_assignment(session: Session, user: StudyUser, team_id: int, track_id: int,
                      assignment_id: int, due_at: datetime | None) -> None:
    _load_assignment_row(session, user, team_id, track_id, assignment_id).due_at = due_at
    session.commit()


def remove_assignment(session: Session, user: StudyUser, team_id: int, track_id: int,
                      assignment_id: int) -> None:
    """Take the assignment back; the work done for it stays its members'."""
    session.delete(_load_assignment_row(session, user, team_id, track_id, assignment_id))
    session.commit()


def set_person_due(session: Session, user: StudyUser, team_id: int, track_id: int,
                   assignment_id: int, person_id: int, due_at: datetime | None) -> str:
    """Give one person of the assignment their own due date (an extension), or take it back
    (None); their name."""
    row = _load_assignment_row(session, user, team_id, track_id, assignment_id)
    roles = _team_roles(session, team_id, [person_id])
    listed = session.get(AssignmentMember, (row.id, person_id))
    covered = listed is not None if not row.whole_team else roles.get(person_id) == MEMBER
    if person_id not in roles or not covered:
        raise ServiceError("That person does not have this assignment.")
    if listed is None:
        if due_at is not None:
            session.add(AssignmentMember(assignment_id=row.id, user_id=person_id, due_at=due_at))
    elif row.whole_team and due_at is None:
        session.delete(listed)  # a whole-team row is an extension only
    else:
        listed.due_at = due_at
    session.commit()
    return session.scalar(select(User.username).where(User.id == person_id)) or ""


def unassign_person(session: Session, user: StudyUser, team_id: int, track_id: int,
                    assignment_id: int, person_id: int) -> None:
    """Take a chosen member off the assignment (a whole-team one covers every member: remove
    it, or assign the track to chosen members instead)."""
    row = _load_assignment_row(session, user, team_id, track_id, assignment_id)
    if row.whole_team:
        raise ServiceError("A whole-team assignment is everyone's: remove the assignment and "
                           "assign the track to chosen members instead.")
    session.execute(delete(AssignmentMember).where(AssignmentMember.assignment_id == row.id,
                                                   AssignmentMember.user_id == person_id))
    if not session.scalar(select(func.count()).select_from(AssignmentMember)
                          .where(AssignmentMember.assignment_id == row.id)):
        session.delete(row)  # its last person: nothing is assigned any more
    session.commit()


def load_member_role(session: Session, user: StudyUser, team_id: int) -> Membership:
    """The user's membership (NotFound for an outsider), for pages both roles see."""
    return load_membership(session, user, team_id)
