"""The lead's dashboard of a team's track: the figures loaded in a few indexed queries.

Leads and the owner only. What they see of a member is work on the track assigned to them:
the attempts recorded for its set steps and the reviews of its steps' items made since the
assignment started for that member; never the member's other study. The predicted recall
is FSRS's projection of the member's memory of the track's own items (quizapp.teams.readiness).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select, tuple_
from sqlalchemy.orm import Session

from quizapp import srs, teams
from quizapp.models import (
    ItemConcept,
    Review,
    ReviewState,
    SetAnswer,
    SetAttempt,
    TeamMember,
    Track,
    User,
)
from quizapp.services import set_reviews
from quizapp.services.errors import NotFound
from quizapp.services.store.bulk_reads import read_rows
from quizapp.services.store.study_items import ITEM
from quizapp.services.teams import Membership, require_lead
from quizapp.services.track_progress import SET
from quizapp.services.track_standing import Holder, MemberProgress, compute_progress, list_holders
from quizapp.services.tracks import NO_SUCH_TRACK, Step, load_steps
from quizapp.services.users import StudyUser

CARD_KIND, SKILL_KIND = "card", "skill"
# Sorting by these needs every member's progress (by name, role or recall, the page's only).
PROGRESS_COLUMNS = frozenset({"done", "overdue", "score", "active"})


@dataclass(frozen=True)
class TrackChoice:
    """A track of the team, as the dashboard's track picker lists it."""

    id: int
    title: str


@dataclass(frozen=True)
class Dashboard:
    """Everything the dashboard page and its CSV show for one track of one team.

    ``rows`` holds every member in ``sort``'s order; the accuracy grid, the readiness by
    concept and the per-step figures are for ``shown`` (one page of rows; all of them for
    the CSV)."""

    membership: Membership  # the viewer's: a lead or the owner
    tracks: tuple[TrackChoice, ...]  # newest first
    track: TrackChoice | None  # None: the team has no track yet
    steps: tuple[teams.Step, ...]
    rows: tuple[teams.MemberRow, ...]
    sort: teams.Sort
    page: teams.Page
    grid: teams.AccuracyGrid
    readiness: dict[int, teams.Readiness]  # user id -> over the whole track, at their due
    step_accuracy: dict[tuple[int, int], teams.Tally]  # (user id, step id)
    step_recall: dict[tuple[int, int], teams.Readiness]  # (user id, step id): CSV only
    now: datetime

    @property
    def shown(self) -> tuple[teams.MemberRow, ...]:
        return self.rows[self.page.start:self.page.stop]

    @property
    def step_dues(self) -> dict[int, datetime | None]:
        """Each step's due time for most members shown (its column heading names it)."""
        return teams.compute_common_dues(self.shown)

    def csv_rows(self) -> Iterator[tuple[str, ...]]:
        return teams.compute_csv_rows(self.shown, self.step_accuracy, self.step_recall)


def compute_step_keys(step: Step) -> list[tuple[str, str]]:
    """The (kind, key) study items of a step: a list's own, or a set's cards and its puzzles'
    skills (a puzzle is one deal of a skill; FSRS schedules the skill)."""
    if step.kind == SET:
        return set_reviews.compute_ref_keys(list(step.item_keys))
    return [key for key in step.item_keys if key[0] in (CARD_KIND, SKILL_KIND)]


def _to_dashboard_step(step: Step) -> teams.Step:
    return teams.Step(step.id, step.position, step.kind, step.title, step.items,
                      step.pass_mark, not step.gone)


def _to_results(step_ids: set[int], progress: MemberProgress
                ) -> Iterator[teams.StepResult]:
    """The member's standing on each of the track's steps in ``step_ids``."""
    for shown in progress.steps:
        if shown.step_id in step_ids:
            yield teams.StepResult(shown.step_id, shown.status, shown.due_at, shown.reviewed,
                                   shown.best_score, shown.attempts)


def list_track_choices(session: Session, team_id: int) -> tuple[TrackChoice, ...]:
    return tuple(TrackChoice(track_id, title) for track_id, title in session.execute(
        select(Track.id, Track.title).where(Track.team_id == team_id)
        .order_by(Track.created_at.desc(), Track.id.desc())))


def load_dashboard(session: Session, user: StudyUser, team_id: int, now: datetime, *,
                   track_id: int | None = None, sort: str | None = None,
                   page: str | None = None, everyone: bool = False) -> Dashboard:
    """The dashboard of track ``track_id`` (default: the team's newest) for a lead or the
    owner: Forbidden for a member, NotFound for anyone outside the team or a track not the
    team's. ``sort`` and ``page`` are the page's query values (teams.canonicalize_sort,
    teams.compute_page); ``everyone`` shows every member on one page with the per-step
    recall too (the CSV)."""
    membership = require_lead(session, user, team_id)
    choices = list_track_choices(session, team_id)
    if track_id is not None:
        track = next((choice for choice in choices if choice.id == track_id), None)
        if track is None:
            raise NotFound(NO_SUCH_TRACK)
    else:
        track = choices[0] if choices else None
    if track is None:
        return Dashboard(membership, choices, None, (), (), teams.DEFAULT_SORT,
                         teams.compute_page(0, None), teams.compute_accuracy((), (), ()), {},
                         {}, {}, now)
    steps = load_steps(session, [track.id])[track.id]
    shown_steps = tuple(_to_dashboard_step(step) for step in steps)
    chosen = teams.canonicalize_sort(sort, [step.id for step in shown_steps])
    # One assignment per member: the first (a person given the track twice sees one row).
    holders: dict[int, Holder] = {}
    for holder in sorted(list_holders(session, [team_id], track_ids=[track.id]),
                         key=lambda holder: holder.assignment_id):
        holders.setdefault(holder.user_id, holder)
    people = {user_id: (name, role) for user_id, name, role in session.execute(
        select(TeamMember.user_id, User.username, TeamMember.role)
        .join(User, User.id == TeamMember.user_id)
        .where(TeamMember.team_id == team_id, TeamMember.user_id.in_(sorted(holders))))}
    items = _load_items(session, steps)
    track_items = {item: items.concepts.get(item, ())
                   for item in sorted({i for ids in items.step_items.values() for i in ids})}

    # Progress and readiness are a team's largest reads: for every member when the rows sort
    # by them (or for the CSV), else for the page's members only.
    progress: dict[int, MemberProgress] = {}
    readiness: dict[int, teams.Readiness] = {}
    detailed: set[int] = set()  # members whose readiness has its means per concept
    known: dict[int, dict[tuple[int, datetime], float | None]] = {}
    curves: dict[int, dict[int, srs.Curve | None]] = {}  # user id -> item id -> curve

    def load_figures(user_ids: Sequence[int], *, with_progress: bool = True,
                     with_readiness: bool = True, per_concept: bool = True) -> None:
        if with_progress:
            for found in compute_progress(
                    session, [holders[u] for u in user_ids if u not in progress], now):
                progress[found.user_id] = found
        if with_readiness:
            unread = [u for u in user_ids if u not in curves]
            curves.update(_load_curves(session, unread, sorted(items.concepts)))
            for user_id in user_ids:
                if user_id in detailed or (user_id in readiness and not per_concept):
                    continue
                # The curves hold every state of the member's (an absent item: never reviewed).
                if not per_concept:  # the sort's figure only
                    readiness[user_id] = teams.compute_mean_readiness(
                        track_items, curves.get(user_id, {}),
                        teams.compute_recall_moment(holders[user_id].due_at, now))
                    continue
                readiness[user_id] = teams.compute_readiness(
                    track_items, {}, teams.compute_recall_moment(holders[user_id].due_at, now),
                    known.setdefault(user_id, {}), per_concept=per_concept,
                    curves=curves.setdefault(user_id, {}))
                if per_concept:
                    detailed.add(user_id)

    def build(user_ids: Sequence[int]) -> list[teams.MemberRow]:
        members = []
        for user_id in user_ids:
            name, role = people.get(user_id, ("", "member"))
            found = progress.get(user_id)
            members.append(teams.Member(user_id, name, role,
                                        found.last_activity if found else None,
                                        holders[user_id].due_at))
        step_ids = {step.id for step in shown_steps}
        results = {(found.user_id, result.step_id): result
                   for found in (progress[u] for u in user_ids if u in progress)
                   for result in _to_results(step_ids, found)}
        return teams.build_rows(shown_steps, members, results,
                                {u: ready.recall for u, ready in readiness.items()})

    everybody = list(holders)
    load_figures(everybody, with_progress=everyone or chosen.column in PROGRESS_COLUMNS
                 or chosen.column.startswith(teams.STEP_COLUMN),
                 with_readiness=everyone or chosen.column == "recall",
                 per_concept=everyone)  # the page shows the means per concept of its own only
    rows = teams.sort_rows(build(everybody), chosen)
    paged = teams.compute_page(len(rows), None if everyone else page,
                               len(rows) if everyone else teams.PAGE_SIZE)
    page_ids = [row.member.user_id for row in rows[paged.start:paged.stop]]
    load_figures(page_ids)
    rows[paged.start:paged.stop] = build(page_ids)  # the same order: it did not depend on them
    shown = rows[paged.start:paged.stop]

    # The answers, per concept and per step, of the members shown only.
    answers = _load_answers(session, steps, [holders[row.member.user_id] for row in shown],
                            items)
    grid = teams.compute_accuracy(
        [(row.member.user_id, row.member.username) for row in shown],
        {concept for tags in track_items.values() for concept in tags}, answers.by_item)
    step_recall: dict[tuple[int, int], teams.Readiness] = {}
    if everyone:
        step_items = {step_id: {item: items.concepts.get(item, ()) for item in ids}
                      for step_id, ids in items.step_items.items()}
        for row in shown:
            user_id = row.member.user_id
            for cell in row.cells:
                step_recall[user_id, cell.step.id] = teams.compute_readiness(
                    step_items.get(cell.step.id, {}), {},
                    teams.compute_recall_moment(cell.result.due_at, now), known[user_id],
                    per_concept=False, curves=curves[user_id])
    return Dashboard(membership, choices, track, shown_steps, tuple(rows), chosen, paged, grid,
                     readiness, answers.by_step, step_recall, now)


@dataclass(frozen=True)
class _Items:
    step_items: dict[int, tuple[int, ...]]  # step id -> its study items' ids (still in the bank)
    ids: dict[tuple[str, str], int]  # (kind, key) -> item id
    concepts: dict[int, tuple[str, ...]]  # item id -> its concepts (every item of the track)


def _load_items(session: Session, steps: Sequence[Step]) -> _Items:
    """The track's study items, by step, with their concepts: two queries."""
    step_keys = {step.id: compute_step_keys(step) for step in steps}
    wanted = sorted({key for keys in step_keys.values() for key in keys})
    ids: dict[tuple[str, str], int] = {}
    if wanted:
        ids = {(kind, key): item_id for item_id, kind, key in session.execute(
            select(ITEM.c.id, ITEM.c.kind, ITEM.c.key)
            .where(tuple_(ITEM.c.kind, ITEM.c.key).in_(wanted)))}
    step_items = {step_id: tuple(dict.fromkeys(ids[key] for key in keys if key in ids))
                  for step_id, keys in step_keys.items()}
    concepts: dict[int, list[str]] = {item_id: [] for item_id in ids.values()}
    if ids:
        for item_id, concept in session.execute(
                select(ItemConcept.item_id, ItemConcept.concept)
                .where(ItemConcept.item_id.in_(sorted(concepts)))):
            concepts[item_id].append(concept)
    return _Items(step_items, ids, {item: tuple(tags) for item, tags in concepts.items()})


def _load_curves(session: Session, user_ids: Sequence[int], item_ids: Sequence[int]
                 ) -> dict[int, dict[int, srs.Curve | None]]:
    """user id -> item id -> the forgetting curve of the member's FSRS state of the item, from
    the two columns that keep its last review and stability beside the state, read from an
    index alone (srs.read_curve): a team's thousands of states are not decoded. An item with
    no state is absent (never reviewed)."""
    curves: dict[int, dict[int, srs.Curve | None]] = {}
    if not user_ids or not item_ids:
        return curves
    for user_id, item_id, stability, last_review in read_rows(session,
            select(ReviewState.user_id, ReviewState.item_id, ReviewState.stability,
                   ReviewState.last_reviewed_at)
            .where(ReviewState.user_id.in_(sorted(user_ids)),
                   ReviewState.item_id.in_(list(item_ids)))):
        curves.setdefault(user_id, {})[item_id] = teams.read_curve(last_review, stability)
    return curves


def _since_start(user_column: Any, time_column: Any, starts: dict[int, datetime]) -> Any:
    """SQL: the row is a holder's and came at or after their assignment started. Holders are
    grouped by start (one group, but for those who joined later), so the statement names
    each start once and returns no time for Python to read back."""
    groups: dict[datetime, list[int]] = {}
    for user_id, start in starts.items():
        groups.setdefault(start, []).append(user_id)
    return or_(*(and_(user_column.in_(sorted(users)), time_column >= start)
                 for start, users in sorted(groups.items())))


@dataclass(frozen=True)
class _Answers:
    """The answers of the members shown on the track's work, tallied twice: per item (the
    concept grid) and per (member, step) (the CSV's accuracy of each step)."""

    by_item: list[teams.Outcome]
    by_step: dict[tuple[int, int], teams.Tally]


def _count_right(correct: Any, rating: Any | None = None) -> Any:
    """SQL: 1 for a right answer, else 0: ``correct`` when the row has it, else (a card's
    review) a rating above Again."""
    if rating is None:
        return case((correct.is_(True), 1), else_=0)
    return case((correct.is_(True), 1), (and_(correct.is_(None), rating > srs.AGAIN), 1),
                else_=0)


def _load_answers(session: Session, steps: Sequence[Step], holders: Sequence[Holder],
                  items: _Items) -> _Answers:
    """The answers the ``holders`` gave on the track's work since it was assigned to them:
    reviews of a question or skills step's items (a card rated Again was not known; a puzzle
    is judged by its answer) and answers in attempts recorded for a set step. SQL counts them
    per (member, item) and per (member, set step, position), so Python reads a few thousand
    figures, not every answer."""
    by_item: list[teams.Outcome] = []
    by_step: dict[tuple[int, int], list[int]] = {}

    def add(user_id: int, tags: tuple[str, ...], right: int, total: int,
            step_ids: Iterable[int]) -> None:
        by_item.append(teams.Outcome(user_id, tags, right, total))
        for step_id in step_ids:  # an item in two steps counts for each
            count = by_step.setdefault((user_id, step_id), [0, 0])
            count[0] += right
            count[1] += total

    starts = {holder.user_id: holder.started_at for holder in holders}
    steps_of: dict[int, list[int]] = {}
    for step in steps:
        if step.kind != SET:
            for item in items.step_items[step.id]:
                steps_of.setdefault(item, []).append(step.id)
    if starts and steps_of:
        for user_id, item_id, right, total in read_rows(session,
                select(Review.user_id, Review.item_id,
                       func.sum(_count_right(Review.correct, Review.rating)), func.count())
                .where(Review.item_id.in_(sorted(steps_of)),
                       _since_start(Review.user_id, Review.reviewed_at, starts))
                .group_by(Review.user_id, Review.item_id)):
            add(user_id, items.concepts.get(item_id, ()), int(right), total, steps_of[item_id])
    # A set step's items are the set's, frozen in its order when the step was made: an
    # answer's position names its item.
    position_tags: dict[int, list[tuple[str, ...]]] = {}
    for step in steps:
        if step.kind == SET:
            tags_of = []
            for key in step.item_keys:
                found = items.ids.get(set_reviews.compute_ref_keys([key])[0])
                tags_of.append(items.concepts.get(found, ()) if found is not None else ())
            position_tags[step.id] = tags_of
    if starts and position_tags:
        for taker, attempt_step, position, right, total in read_rows(session,
                select(SetAttempt.user_id, SetAttempt.step_id, SetAnswer.position,
                       func.sum(_count_right(SetAnswer.correct)), func.count())
                .join(SetAnswer, SetAnswer.attempt_id == SetAttempt.id)
                .where(SetAttempt.step_id.in_(sorted(position_tags)),
                       _since_start(SetAttempt.user_id, SetAttempt.started_at, starts))
                .group_by(SetAttempt.user_id, SetAttempt.step_id, SetAnswer.position)):
            if taker is None or attempt_step is None:
                continue  # the query names both; the columns may hold NULL elsewhere
            tags_of = position_tags[attempt_step]
            if 0 <= position < len(tags_of):
                add(taker, tags_of[position], int(right), total, (attempt_step,))
    return _Answers(by_item, {key: teams.Tally(*count) for key, count in by_step.items()})
