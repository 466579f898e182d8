"""Members' standing on assigned tracks: who has which, each step done or due, and doing them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, or_, select, tuple_, update
from sqlalchemy.orm import Session

from quizapp.models import (
    Assignment,
    AssignmentMember,
    ReviewState,
    SetAttempt,
    Team,
    TeamMember,
    Track,
    TrackStep,
    User,
)
from quizapp.services import set_reviews
from quizapp.services.errors import NotFound
from quizapp.services.items import is_offered
from quizapp.services.store.bulk_reads import read_rows
from quizapp.services.store.study_items import ITEM
from quizapp.services.teams import load_membership
from quizapp.services.track_progress import (
    SET,
    StepProgress,
    TrackProgress,
    compute_count_done,
    compute_set_done,
    compute_start,
    compute_status,
    compute_step_due,
    order_assignments,
)
from quizapp.services.tracks import MEMBER, NO_SUCH_STEP, NO_SUCH_TRACK, Step, load_steps
from quizapp.services.users import StudyUser

NOT_ASSIGNED = "That step is not in a track assigned to you."


@dataclass(frozen=True)
class Holder:
    """One (assignment, member) pair: who has the track, since when, and by when."""

    assignment_id: int
    track_id: int
    team_id: int
    user_id: int
    started_at: datetime
    due_at: datetime | None  # the member's own date, else the assignment's
    assignment_due: datetime | None
    person_due: datetime | None


@dataclass(frozen=True)
class MemberProgress(TrackProgress):
    """A member's standing on one assigned track (TrackProgress) with who they are and when
    they last did work on it (a review of its items or a finished attempt for it)."""

    user_id: int = 0
    username: str = ""
    last_activity: datetime | None = None


def list_holders(session: Session, team_ids: Sequence[int], *,
                 user_ids: Sequence[int] | None = None,
                 track_ids: Sequence[int] | None = None) -> list[Holder]:
    """Every (assignment, member) pair of the teams' tracks: a whole-team assignment is every
    current member with the member role (later joiners from when they joined), a chosen one
    the listed people still in the team. Narrowed to ``user_ids`` and ``track_ids`` if given."""
    if not team_ids:
        return []
    query = (select(Assignment.id, Assignment.track_id, Track.team_id, Assignment.whole_team,
                    Assignment.due_at, Assignment.created_at, TeamMember.user_id,
                    TeamMember.joined_at, AssignmentMember.due_at)
             .join(Track, Track.id == Assignment.track_id)
             .join(TeamMember, TeamMember.team_id == Track.team_id)
             .outerjoin(AssignmentMember, (AssignmentMember.assignment_id == Assignment.id)
                        & (AssignmentMember.user_id == TeamMember.user_id))
             .where(Track.team_id.in_(list(team_ids)),
                    or_((Assignment.whole_team.is_(True)) & (TeamMember.role == MEMBER),
                        (Assignment.whole_team.is_(False))
                        & AssignmentMember.user_id.is_not(None))))
    if user_ids is not None:
        query = query.where(TeamMember.user_id.in_(list(user_ids)))
    if track_ids is not None:
        query = query.where(Assignment.track_id.in_(list(track_ids)))
    holders = []
    for (assignment_id, track_id, team_id, whole_team, due, created, user_id, joined,
         person_due) in read_rows(session, query):
        start = compute_start(created, joined if whole_team else None)
        holders.append(Holder(assignment_id, track_id, team_id, user_id, start,
                              person_due or due, due, person_due))
    return holders


@dataclass(frozen=True)
class StepItems:
    """A step's frozen items as item ids: those the study pages still offer, and all found."""

    offered: tuple[int, ...]
    found: tuple[int, ...]


def resolve_step_items(session: Session, steps: Iterable[Step]) -> dict[int, StepItems]:
    """The item ids of each step's (kind, key) items; a set step's puzzles are not items (they
    are answered in the set), so a set step resolves to its cards only."""
    steps = list(steps)
    wanted = {key for step in steps for key in step.item_keys if key[0] in ("card", "skill")}
    rows = {}
    if wanted:
        rows = {(row.kind, row.key): row for row in session.execute(
            select(ITEM.c.id, ITEM.c.kind, ITEM.c.key, ITEM.c.retired)
            .where(tuple_(ITEM.c.kind, ITEM.c.key).in_(sorted(wanted))))}
    resolved = {}
    for step in steps:
        found = [rows[key] for key in step.item_keys if key in rows]
        resolved[step.id] = StepItems(tuple(row.id for row in found if is_offered(row)),
                                      tuple(row.id for row in found))
    return resolved


def compute_progress(session: Session, holders: Sequence[Holder], now: datetime
                     ) -> list[MemberProgress]:
    """Each holder's standing on their track: a set step done by an attempt recorded for it at
    or above its pass mark, a question or skills step by a review of each of its items (still
    in the bank) since the assignment started for them. At most six queries, however many
    holders (two more a round for a member given one track twice, see _split_rounds)."""
    if not holders:
        return []
    track_ids = sorted({h.track_id for h in holders})
    user_ids = sorted({h.user_id for h in holders})
    steps = load_steps(session, track_ids)
    tracks = {row.id: (row.title, row.team_id, name) for row, name in session.execute(
        select(Track, Team.name).join(Team, Team.id == Track.team_id)
        .where(Track.id.in_(track_ids)))}
    names: dict[int, str] = {user_id: name for user_id, name in session.execute(
        select(User.id, User.username).where(User.id.in_(user_ids)))}
    listed = [step for track_steps in steps.values() for step in track_steps if step.kind != SET]
    items = resolve_step_items(session, listed)
    # SQL compares the review times with each holder's start and sums per (member, step), so
    # Python reads a few figures a step, not every review's time.
    round_of, rounds = _split_rounds(holders)
    set_steps = {track_id: [step.id for step in track_steps if step.kind == SET]
                 for track_id, track_steps in steps.items()}
    step_items = [(track_id, step.id, item) for track_id, track_steps in steps.items()
                  for step in track_steps if step.kind != SET for item in items[step.id].offered]
    reviewed: dict[tuple[int, int, int], tuple[int, datetime | None]] = {}
    taken: dict[tuple[int, int, int], tuple[int, int | None, datetime | None]] = {}
    for number, cohorts in enumerate(rounds):
        for (user_id, step_id), found in _count_step_reviews(session, cohorts,
                                                             step_items).items():
            reviewed[(number, user_id, step_id)] = found
        set_cohorts = {key: users for key, users in cohorts.items() if set_steps[key[0]]}
        for (user_id, step_id), figures in _sum_set_attempts(session, set_cohorts,
                                                             set_steps).items():
            taken[(number, user_id, step_id)] = figures
    results = []
    for n, holder in enumerate(holders):
        title, team_id, team_name = tracks[holder.track_id]
        shown, active = [], []
        for step in steps[holder.track_id]:
            due = compute_step_due(step.due_at, holder.assignment_due, holder.person_due)
            if step.kind == SET:
                attempts, best, last = taken.get((round_of[n], holder.user_id, step.id),
                                                   (0, None, None))
                if last is not None:
                    active.append(last)
                done = compute_set_done(() if best is None else (best,), step.items,
                                        step.pass_mark)
                shown.append(StepProgress(
                    step.id, step.position, step.kind, step.title, done,
                    compute_status(done, due, now, not step.gone), due, step.items,
                    best_score=best, pass_mark=step.pass_mark, attempts=attempts))
                continue
            required = items[step.id].offered
            count, last = reviewed.get((round_of[n], holder.user_id, step.id), (0, None))
            if last is not None:
                active.append(last)
            done = compute_count_done(count, len(required))
            shown.append(StepProgress(step.id, step.position, step.kind, step.title, done,
                                      compute_status(done, due, now), due, len(required),
                                      reviewed=count))
        results.append(MemberProgress(
            holder.assignment_id, holder.track_id, team_id, team_name, title, holder.due_at,
            holder.started_at, tuple(shown), user_id=holder.user_id,
            username=names.get(holder.user_id, ""), last_activity=max(active, default=None)))
    return results


Cohorts = dict[tuple[int, datetime], list[int]]  # (track id, start) -> user ids


def _split_rounds(holders: Sequence[Holder]) -> tuple[list[int], list[Cohorts]]:
    """Each holder's round, and each round's cohorts. A member given one track twice from
    different starts has one start a round, so a round's rows summed by (member, step) never
    mix two starts; most teams need one round."""
    starts: dict[tuple[int, int], list[datetime]] = {}
    for holder in holders:
        known = starts.setdefault((holder.user_id, holder.track_id), [])
        if holder.started_at not in known:
            known.append(holder.started_at)
    round_of: list[int] = []
    rounds: list[dict[tuple[int, datetime], set[int]]] = []
    for holder in holders:
        number = starts[(holder.user_id, holder.track_id)].index(holder.started_at)
        round_of.append(number)
        while len(rounds) <= number:
            rounds.append({})
        rounds[number].setdefault((holder.track_id, holder.started_at), set()).add(
            holder.user_id)
    return round_of, [{key: sorted(users) for key, users in sorted(cohorts.items())}
                      for cohorts in rounds]


def _count_step_reviews(session: Session, cohorts: Cohorts,
                        step_items: Sequence[tuple[int, int, int]]
                        ) -> dict[tuple[int, int], tuple[int, datetime | None]]:
    """(user id, step id) -> (how many of the step's items they reviewed since their start,
    the last such review). The review state keeps each (user, item)'s last review (a rating
    sets it, an undo puts the one before back): one row a pair, read from the index that
    holds its time, since the earliest start; each row then counts for every step of the
    member's track holding its item, if it came after their start there. An item listed
    twice in a step counts twice, as the step requires it twice."""
    if not cohorts or not step_items:
        return {}
    start_of = {(user, track_id): start for (track_id, start), members in cohorts.items()
                for user in members}
    steps_of: dict[int, list[tuple[int, int]]] = {}  # item id -> (track id, step id), repeated
    for track_id, step_id, item_id in step_items:
        steps_of.setdefault(item_id, []).append((track_id, step_id))
    counts: dict[tuple[int, int], int] = {}
    lasts: dict[tuple[int, int], datetime] = {}
    for user_id, item_id, last in read_rows(session,
            select(ReviewState.user_id, ReviewState.item_id, ReviewState.last_reviewed_at)
            .where(ReviewState.user_id.in_(sorted({user for user, _ in start_of})),
                   ReviewState.item_id.in_(sorted(steps_of)),
                   ReviewState.last_reviewed_at >= min(start for _, start in cohorts))):
        for track_id, step_id in steps_of[item_id]:
            start = start_of.get((user_id, track_id))
            if start is None or last is None or last < start:
                continue
            key = (user_id, step_id)
            counts[key] = counts.get(key, 0) + 1
            if key not in lasts or lasts[key] < last:
                lasts[key] = last
    return {key: (count, lasts[key]) for key, count in counts.items()}


def _sum_set_attempts(session: Session, cohorts: Cohorts, set_steps: dict[int, list[int]]
                      ) -> dict[tuple[int, int], tuple[int, int | None, datetime | None]]:
    """(user id, step id) -> (finished attempts recorded for the set step since their start,
    the best score, when the last finished). The best passes if any does: passing only grows
    with the score."""
    if not cohorts:
        return {}
    users = sorted({user for members in cohorts.values() for user in members})
    since = or_(*(and_(SetAttempt.step_id.in_(set_steps[track_id]),
                       SetAttempt.user_id.in_(members), SetAttempt.finished_at >= start)
                  for (track_id, start), members in cohorts.items()))
    found: dict[tuple[int, int], tuple[int, int | None, datetime | None]] = {}
    for user_id, step_id, attempts, best, last in read_rows(session,
            select(SetAttempt.user_id, SetAttempt.step_id, func.count(),
                   func.max(func.coalesce(SetAttempt.score, 0)), func.max(SetAttempt.finished_at))
            .where(SetAttempt.user_id.in_(users),
                   SetAttempt.step_id.in_(sorted({s for t, _ in cohorts for s in set_steps[t]})),
                   SetAttempt.finished_at.is_not(None), since)
            .group_by(SetAttempt.user_id, SetAttempt.step_id)):
        assert user_id is not None and step_id is not None  # both are in the IN lists above
        found[(user_id, step_id)] = (attempts, best, last)
    return found


def load_team_progress(session: Session, team_id: int, now: datetime, *,
                       track_ids: Sequence[int] | None = None) -> list[MemberProgress]:
    """Every member's standing on every track of the team assigned to them (or on
    ``track_ids``), ordered by track then member name. No authorisation here: the caller
    (a lead's page) has checked the role."""
    progress = compute_progress(session, list_holders(session, [team_id], track_ids=track_ids),
                                now)
    return sorted(progress, key=lambda p: (p.track_id, p.username.lower(), p.assignment_id))


def list_my_assignments(session: Session, user: StudyUser, now: datetime,
                        team_id: int | None = None) -> list[MemberProgress]:
    """The user's assigned tracks over their teams (or in ``team_id``): overdue first, then by
    what is due next, done ones last."""
    teams = ([team_id] if team_id is not None else
             list(session.scalars(select(TeamMember.team_id)
                                  .where(TeamMember.user_id == user.id))))
    holders = list_holders(session, teams, user_ids=[user.id])
    ordered = order_assignments(compute_progress(session, holders, now))
    return [p for p in ordered if isinstance(p, MemberProgress)]


def load_my_track(session: Session, user: StudyUser, team_id: int, track_id: int,
                  now: datetime) -> tuple[MemberProgress, tuple[Step, ...]]:
    """The user's standing on one track of the team assigned to them, with its steps (to
    link a set or add a list's items to their reviews); NotFound if it is not assigned to
    them, as for no track at all."""
    load_membership(session, user, team_id)
    holders = list_holders(session, [team_id], user_ids=[user.id], track_ids=[track_id])
    if not holders:
        raise NotFound(NO_SUCH_TRACK)
    progress = compute_progress(session, holders[:1], now)[0]
    return progress, load_steps(session, [track_id])[track_id]


def find_assigned_step(session: Session, user: StudyUser, step_id: int
                       ) -> tuple[Holder, Step]:
    """The user's assignment holding step ``step_id`` and the step; NotFound (NOT_ASSIGNED)
    when no track assigned to them has it."""
    row = session.get(TrackStep, step_id) if 0 < step_id < 2**31 else None
    if row is None:
        raise NotFound(NOT_ASSIGNED)
    track = session.get(Track, row.track_id)
    holders = list_holders(session, [track.team_id] if track else [], user_ids=[user.id],
                           track_ids=[row.track_id])
    if not holders:
        raise NotFound(NOT_ASSIGNED)
    step = next(s for s in load_steps(session, [row.track_id])[row.track_id] if s.id == step_id)
    return holders[0], step


@dataclass(frozen=True)
class StepClaim:
    """What an attempt at an assigned set records (the team and the step), and the names its
    take page shows."""

    team_id: int
    step_id: int
    track_id: int
    team_name: str
    track_title: str
    step_title: str


def claim_set_step(session: Session, user: StudyUser, step_id: int, set_id: int) -> StepClaim:
    """The team and step an attempt at set ``set_id`` is recorded for when taken from step
    ``step_id``: the user must have the step assigned, and the step must be that set's."""
    holder, step = find_assigned_step(session, user, step_id)
    row = session.get(TrackStep, step.id)
    if row is None or step.kind != SET or row.practice_set_id != set_id:
        raise NotFound(NOT_ASSIGNED)
    track = session.get(Track, holder.track_id)
    team = session.get(Team, holder.team_id)
    return StepClaim(holder.team_id, step.id, holder.track_id, team.name if team else "",
                     track.title if track else "", step.title)


def add_step_to_reviews(session: Session, user: StudyUser, team_id: int, track_id: int,
                        step_id: int, now: datetime) -> set_reviews.AddedToReviews:
    """Queue an assigned step's cards and skills the user has not studied as their next new
    items (what "Add to my reviews" does for a set): they then come through the normal
    queue, and each review counts toward the step."""
    holder, step = find_assigned_step(session, user, step_id)
    if holder.team_id != team_id or holder.track_id != track_id:
        raise NotFound(NO_SUCH_STEP)
    keys = step.item_keys if step.kind != SET else set_reviews.compute_ref_keys(
        [(kind, key) for kind, key in step.item_keys])
    session.execute(update(TeamMember).where(TeamMember.team_id == team_id,
                                             TeamMember.user_id == user.id)
                    .values(last_active_at=now))
    return set_reviews.add_items_to_reviews(session, user, keys, now)  # commits both


@dataclass(frozen=True)
class ItemLine:
    """One item of a member's question or skills step, as their track page lists it."""

    kind: str  # "card" or "skill"
    key: str
    title: str
    offered: bool  # still in the bank (a retired item is not counted)
    reviewed: bool  # reviewed by them since the assignment started


def list_step_items(session: Session, user: StudyUser, progress: TrackProgress,
                    steps: Sequence[Step]) -> dict[int, list[ItemLine]]:
    """The items of the track's question and skills steps, with whether the user reviewed
    each since the assignment started for them (what the step's completion counts)."""
    listed = [step for step in steps if step.kind != SET]
    wanted = sorted({key for step in listed for key in step.item_keys})
    if not wanted:
        return {}
    rows = {(row.kind, row.key): row for row in session.execute(
        select(ITEM.c.id, ITEM.c.kind, ITEM.c.key, ITEM.c.title, ITEM.c.retired)
        .where(tuple_(ITEM.c.kind, ITEM.c.key).in_(wanted)))}
    reviewed = set(session.scalars(
        select(ReviewState.item_id).where(
            ReviewState.user_id == user.id,
            ReviewState.item_id.in_([row.id for row in rows.values()]),
            ReviewState.last_reviewed_at >= progress.started_at)))
    lines: dict[int, list[ItemLine]] = {}
    for step in listed:
        lines[step.id] = []
        for kind, key in step.item_keys:
            row = rows.get((kind, key))
            lines[step.id].append(
                ItemLine(kind, key, key, False, False) if row is None else
                ItemLine(kind, key, row.title, is_offered(row), row.id in reviewed))
    return lines
