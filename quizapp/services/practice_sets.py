"""Practice sets: preview, save, rename and delete a set; take it, answer, finish and score."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from quizapp import puzzles
from quizapp.models import Card, Concept, PracticeSet, SetAnswer, SetAttempt, TeamMember
from quizapp.practice_sets import (
    CARD,
    Bank,
    BankCard,
    ItemRef,
    SetItem,
    SetParams,
    SetParamsError,
    UnknownItem,
    build_bank,
    canonicalize_title,
    parse_puzzle_key,
    plan,
    rebuild_items,
)
from quizapp.practice_sets.exports import FORMATS, export_set
from quizapp.services.errors import Conflict, NotFound, ServiceError
from quizapp.services.users import StudyUser

NO_SUCH_SET = ("There is no practice set at this address: check the link, or it may have "
               "been deleted by its owner.")
NO_SUCH_ATTEMPT = "There is no attempt of yours at this address."
KNEW, DIDNT = "knew", "didnt"
GRADES = {KNEW: "Knew it", DIDNT: "Didn't know it"}
ALREADY_ANSWERED = "That item was answered already (a second click, or another tab); the first answer stands."
TIME_UP = "Time was up before that answer arrived, so it was not counted."
FINISHED = "This attempt is finished; start a new one to answer again."
PICKS_MAX = puzzles.MAX_PICKS  # options a puzzle's answer may tick
# A visitor's session keeps the ids of this many of their latest attempts.
VISITOR_ATTEMPTS_KEPT = 20
# A visitor's attempt is deleted this long after it started (their session cookie ends with
# the browser session, so nobody can reach it later anyway).
VISITOR_ATTEMPT_LIFE = timedelta(days=2)


@dataclass(frozen=True)
class SavedSet:
    """A saved set as its pages read it: parameters, frozen item keys, owner."""

    id: int
    slug: str
    title: str
    owner_id: int
    params: SetParams
    refs: tuple[ItemRef, ...]
    created_at: datetime

    @property
    def time_limit(self) -> int | None:
        return self.params.time_limit

    def is_owned_by(self, user_id: int | None) -> bool:
        return user_id is not None and user_id == self.owner_id


@dataclass(frozen=True)
class GivenAnswer:
    position: int
    answer: str
    correct: bool
    answered_at: datetime


@dataclass(frozen=True)
class Attempt:
    """One go at a set: its answers by position, the deadline when timed, the score once
    finished."""

    id: int
    saved: SavedSet
    user_id: int | None
    started_at: datetime
    deadline: datetime | None
    finished_at: datetime | None
    score: int | None
    answers: dict[int, GivenAnswer] = field(default_factory=dict)
    step_id: int | None = None  # taken as a step of a team's track (track_standing)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def is_past_deadline(self, now: datetime) -> bool:
        return self.deadline is not None and now > self.deadline

    @property
    def next_position(self) -> int | None:
        """The first item not answered yet (None: every item is)."""
        for position in range(len(self.saved.refs)):
            if position not in self.answers:
                return position
        return None

    @property
    def right(self) -> int:
        return sum(answer.correct for answer in self.answers.values())


@dataclass(frozen=True)
class AttemptSummary:
    """A row of the taker's attempts on /sets."""

    id: int
    slug: str
    title: str
    items: int
    started_at: datetime
    finished_at: datetime | None
    score: int | None
    answered: int


@dataclass(frozen=True)
class AnswerOutcome:
    """What answering an item did: ``error`` set means the answer could not be read (nothing
    stored); ``counted`` False means it came too late or twice."""

    position: int
    correct: bool = False
    counted: bool = False
    error: str | None = None
    message: str | None = None


# --- the bank and the items ---------------------------------------------------------------

def load_bank(session: Session) -> Bank:
    """Every card in the database (retired ones too: a saved set still shows them) and every
    concept tag, as the set generator reads a bank."""
    cards = session.scalars(select(Card).order_by(Card.key)).all()
    concepts = session.scalars(select(Concept.tag)).all()
    return build_bank((BankCard(
        id=card.key, title=card.title, level=card.level, concepts=tuple(card.concept_tags),
        question=card.question, answer=card.basics, explanation=card.solid, code=card.code,
        code_output=card.code_output, retired=card.retired) for card in cards), concepts)


def list_concepts(session: Session) -> list[str]:
    return list(session.scalars(select(Concept.tag).order_by(Concept.tag)))


def preview_set(session: Session, params: SetParams) -> tuple[ItemRef, ...]:
    """The keys a set of ``params`` would freeze now; SetParamsError or NotEnoughItems (with
    how many the bank can give) when these parameters cannot make it."""
    return plan(params, load_bank(session))


def resolve_items(session: Session, refs: Sequence[ItemRef],
                  bank: Bank | None = None) -> tuple[SetItem, ...]:
    """The items of frozen keys, in order, from today's bank (a retired card labelled so)."""
    try:
        return rebuild_items(refs, bank or load_bank(session))
    except UnknownItem as exc:
        raise ServiceError(f"This set names an item the bank no longer has ({exc}).") from None


_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*) = (.+)")


def compute_explorer_chain(code: str) -> str | None:
    """A puzzle's code (``x = torch.empty(4, 2)``, ``y = x.t()[1:]``...) as one chain the
    explorer can walk (``torch.empty(4, 2).t()[1:]``): each line's leading name replaced by
    the chain it holds. None when the code is not such a chain (a name used otherwise)."""
    chains: dict[str, str] = {}
    last = None
    for line in code.strip().splitlines():
        match = _ASSIGNMENT.fullmatch(line.strip())
        if match is None:
            return None
        name, value = match.groups()
        head = re.match(r"[A-Za-z_][A-Za-z0-9_]*", value)
        prefix, rest = "", value
        if head and head.group() in chains and value[head.end():head.end() + 1] in (".", "["):
            prefix, rest = chains[head.group()], value[head.end():]
        elif not value.startswith("torch."):
            return None
        if any(re.search(rf"\b{re.escape(known)}\b", rest) for known in chains):
            return None  # another name inside the chain: no single chain to walk
        chains[name] = last = prefix + rest
    return last


# --- saving, reading, renaming, deleting -------------------------------------------------

def dump_params(params: SetParams) -> dict:
    return {"count": params.count, "seed": params.seed, "levels": list(params.levels),
            "concepts": list(params.concepts), "families": list(params.families),
            "puzzles": params.puzzles, "title": params.title, "time_limit": params.time_limit}


def load_params(stored: dict) -> SetParams:
    return SetParams(
        count=int(stored["count"]), seed=int(stored["seed"]),
        levels=tuple(stored.get("levels") or ()), concepts=tuple(stored.get("concepts") or ()),
        families=tuple(stored.get("families") or ()), puzzles=stored.get("puzzles"),
        title=stored.get("title"), time_limit=stored.get("time_limit"))


def compute_default_title(params: SetParams) -> str:
    """A title for a set saved without one: what it covers, e.g. "Junior, middle: 10 items"."""
    parts = [", ".join(params.levels).capitalize() if params.levels else "Every level"]
    if params.concepts:
        parts.append(", ".join(tag.replace("-", " ") for tag in params.concepts))
    return f"{'; '.join(parts)}: {params.count} item{'' if params.count == 1 else 's'}"


def to_saved(row: PracticeSet) -> SavedSet:
    return SavedSet(row.id, row.slug, row.title, row.owner_id, load_params(row.parameters),
                    tuple(ItemRef(kind, key) for kind, key in row.item_keys), row.created_at)


def create_set(session: Session, owner: StudyUser, params: SetParams, now: datetime,
               new_slug: Callable[[], str]) -> SavedSet:
    """Save a set: its items are drawn now and frozen. ``new_slug`` gives a random address
    (drawn again in the unlikely case it is taken)."""
    refs = preview_set(session, params)
    title = params.title or compute_default_title(params)
    for _ in range(3):
        row = PracticeSet(slug=new_slug(), owner_id=owner.id, title=title,
                          parameters=dump_params(params), seed=params.seed,
                          time_limit_minutes=params.time_limit,
                          item_keys=[[ref.kind, ref.key] for ref in refs], created_at=now)
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            continue
        return to_saved(row)
    raise Conflict("The set could not be given an address; try saving again.")


def load_set(session: Session, slug: str) -> SavedSet:
    """The set at ``slug``, for anyone holding the link; NotFound otherwise."""
    row = None
    if 0 < len(slug) <= 43:
        row = session.scalar(select(PracticeSet).where(PracticeSet.slug == slug))
    if row is None:
        raise NotFound(NO_SUCH_SET)
    return to_saved(row)


def _load_owned_row(session: Session, user: StudyUser, slug: str) -> PracticeSet:
    """The owner's set row; NotFound for a set that is someone else's, as for none at all."""
    row = None
    if 0 < len(slug) <= 43:
        row = session.scalar(select(PracticeSet).where(PracticeSet.slug == slug,
                                                       PracticeSet.owner_id == user.id))
    if row is None:
        raise NotFound(NO_SUCH_SET)
    return row


def rename_set(session: Session, user: StudyUser, slug: str, title: str) -> SavedSet:
    try:
        cleaned = canonicalize_title(title)
    except SetParamsError as exc:
        raise ServiceError(exc.message[:1].upper() + exc.message[1:] + ".") from None
    if cleaned is None:
        raise ServiceError("Type a title for the set.")
    row = _load_owned_row(session, user, slug)
    row.title = cleaned
    session.commit()
    return to_saved(row)


def delete_set(session: Session, user: StudyUser, slug: str) -> str:
    """Delete the owner's set with every attempt at it; its title."""
    row = _load_owned_row(session, user, slug)
    title = row.title
    session.delete(row)
    session.commit()
    return title


def list_user_sets(session: Session, user: StudyUser) -> list[SavedSet]:
    rows = session.scalars(select(PracticeSet).where(PracticeSet.owner_id == user.id)
                           .order_by(PracticeSet.created_at.desc(), PracticeSet.id.desc()))
    return [to_saved(row) for row in rows]


def list_user_attempts(session: Session, user_id: int | None,
                       visitor_ids: Sequence[int] = ()) -> list[AttemptSummary]:
    """The taker's attempts, newest first: an account's, or a visitor's (their session's)."""
    answered = (select(func.count()).select_from(SetAnswer)
                .where(SetAnswer.attempt_id == SetAttempt.id).scalar_subquery())
    query = (select(SetAttempt, PracticeSet.slug, PracticeSet.title, PracticeSet.item_keys,
                    answered.label("answered"))
             .join(PracticeSet, PracticeSet.id == SetAttempt.set_id)
             .order_by(SetAttempt.started_at.desc(), SetAttempt.id.desc()))
    if user_id is not None:
        query = query.where(SetAttempt.user_id == user_id)
    else:
        query = query.where(SetAttempt.user_id.is_(None),
                            SetAttempt.id.in_(list(visitor_ids)[-VISITOR_ATTEMPTS_KEPT:]))
    return [AttemptSummary(attempt.id, slug, title, len(keys), attempt.started_at,
                           attempt.finished_at, attempt.score, count)
            for attempt, slug, title, keys, count in session.execute(query)]


@dataclass(frozen=True)
class Download:
    """A set exported for download: its bytes, media type and file name."""

    data: bytes
    media_type: str
    filename: str


def export_saved_set(session: Session, saved: SavedSet, format_name: str,
                     now: datetime) -> Download:
    """The saved set in one of the export formats (NotFound for another), under its current
    title; the Anki deck is named by the set's slug, so it stays one deck across renames."""
    format_ = FORMATS.get(format_name)
    if format_ is None:
        raise NotFound("There is no such download: the formats are JSON, CSV, Markdown and "
                       "Anki (.apkg).")
    items = resolve_items(session, saved.refs)
    params = replace(saved.params, title=saved.title)
    data = export_set(format_.name, params, items, now=now.timestamp(), deck_key=saved.slug)
    return Download(data, format_.media_type, f"{saved.slug}.{format_.extension}")


# --- attempts ----------------------------------------------------------------------------

def start_attempt(session: Session, saved: SavedSet, user_id: int | None,
                  now: datetime, *, team_id: int | None = None,
                  step_id: int | None = None) -> int:
    """A new attempt (a retake is one too); a timed set's deadline is fixed now. A visitor's
    (``user_id`` None) is reachable from their session only, so visitors' attempts older
    than VISITOR_ATTEMPT_LIFE are deleted first. An attempt at a team's assigned step
    records the team and the step (checked by track_standing.claim_set_step)."""
    deadline = now + timedelta(minutes=saved.time_limit) if saved.time_limit else None
    if user_id is None:  # visitors' attempts outlive no browser session by much
        session.execute(delete(SetAttempt).where(
            SetAttempt.user_id.is_(None), SetAttempt.started_at < now - VISITOR_ATTEMPT_LIFE))
    row = SetAttempt(set_id=saved.id, user_id=user_id, started_at=now, deadline=deadline,
                     team_id=team_id, step_id=step_id)
    session.add(row)
    if team_id is not None and user_id is not None:  # work on the team's track
        session.execute(update(TeamMember).where(TeamMember.team_id == team_id,
                                                 TeamMember.user_id == user_id)
                        .values(last_active_at=now))
    session.commit()
    return row.id


def load_attempt(session: Session, saved: SavedSet, attempt_id: int, user_id: int | None,
                 visitor_ids: Sequence[int] = ()) -> Attempt:
    """The attempt, for its taker only: the account that started it, or a visitor whose
    session holds its id. NotFound for anyone else, as for an attempt that does not exist."""
    row = session.get(SetAttempt, attempt_id) if 0 < attempt_id < 2**31 else None
    if row is None or row.set_id != saved.id:
        raise NotFound(NO_SUCH_ATTEMPT)
    if row.user_id is not None and row.user_id != user_id:
        raise NotFound(NO_SUCH_ATTEMPT)
    if row.user_id is None and attempt_id not in visitor_ids:
        raise NotFound(NO_SUCH_ATTEMPT)
    answers = session.scalars(select(SetAnswer).where(SetAnswer.attempt_id == row.id))
    return Attempt(row.id, saved, row.user_id, row.started_at, row.deadline, row.finished_at,
                   row.score, {a.position: GivenAnswer(a.position, a.answer, a.correct,
                                                       a.answered_at) for a in answers},
                   row.step_id)


def compute_puzzle_view(item: SetItem) -> tuple[puzzles.Puzzle, list]:
    """A set's puzzle as its take page asks it: the puzzle and its options to pick (the
    study pages' pickers: radio buttons, check boxes or yes/no)."""
    key = parse_puzzle_key(item.key)
    puzzle = puzzles.deal(key.family, key.level, key.seed)
    return puzzle, puzzles.compute_pick_options(puzzle)


def judge_answer(item: SetItem, text: str, picks: Sequence[str], grade: str | None
                 ) -> tuple[str, bool]:
    """(the answer as stored, whether it is right); ServiceError when it cannot be read. A
    puzzle is judged by the study pages' checker; a card by the taker's own grade."""
    if item.kind == CARD:
        if grade not in GRADES:
            raise ServiceError("Say whether you knew it: pick “Knew it” or “Didn't know it”.")
        return grade, grade == KNEW
    key = parse_puzzle_key(item.key)
    puzzle = puzzles.deal(key.family, key.level, key.seed)
    try:
        answer = puzzles.compose_answer(puzzle, text, picks)
    except puzzles.ParseError as exc:
        raise ServiceError(str(exc)) from None
    if not answer.strip():
        raise ServiceError("Type an answer first (or pick an option).")
    verdict = puzzles.check(puzzle, answer)
    if verdict.get("error"):
        raise ServiceError(verdict["error"])
    return answer, bool(verdict["correct"])


def answer_item(session: Session, attempt: Attempt, item: SetItem, position: int, *,
                text: str = "", picks: Sequence[str] = (), grade: str | None = None,
                now: datetime) -> AnswerOutcome:
    """Record the answer to the item at ``position``. After the deadline it is not counted
    (the attempt is finished at its deadline); a second answer to one item is refused."""
    if attempt.finished:
        return AnswerOutcome(position, message=FINISHED)
    if attempt.is_past_deadline(now):
        finish_attempt(session, attempt, now)
        return AnswerOutcome(position, message=TIME_UP)
    if position in attempt.answers:
        return AnswerOutcome(position, message=ALREADY_ANSWERED)
    try:
        answer, correct = judge_answer(item, text, picks, grade)
    except ServiceError as exc:
        return AnswerOutcome(position, error=exc.message)
    session.add(SetAnswer(attempt_id=attempt.id, position=position, answer=answer,
                          correct=correct, answered_at=now))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return AnswerOutcome(position, message=ALREADY_ANSWERED)
    return AnswerOutcome(position, correct=correct, counted=True)


def finish_attempt(session: Session, attempt: Attempt, now: datetime) -> None:
    """Close the attempt and store its score (right answers given in time); a timed attempt
    closes at its deadline at the latest. Finishing twice changes nothing."""
    if attempt.finished:
        return
    row = session.get(SetAttempt, attempt.id)
    if row is None or row.finished_at is not None:
        session.rollback()
        return
    right = session.scalar(select(func.count()).select_from(SetAnswer).where(
        SetAnswer.attempt_id == attempt.id, SetAnswer.correct.is_(True)))
    row.finished_at = min(now, attempt.deadline) if attempt.deadline else now
    row.score = right or 0
    session.commit()
