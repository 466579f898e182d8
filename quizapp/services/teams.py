"""Teams: making and deleting them, members' roles, join codes and joining by one."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from quizapp.models import (
    Assignment,
    AssignmentMember,
    JoinCodeAttempt,
    Team,
    TeamJoinCode,
    TeamMember,
    Track,
    User,
)
from quizapp.models.account import ADDRESS_MAX
from quizapp.models.teams import JOIN_CODE_LENGTH, TEAM_DESCRIPTION_MAX, TEAM_NAME_MAX
from quizapp.services.errors import (
    Conflict,
    Forbidden,
    LimitReached,
    LoginThrottled,
    NotFound,
    ServiceError,
)
from quizapp.services.store.throttling import (
    compute_retry_after,
    describe_wait,
    recent_times,
    reserve_attempt,
)
from quizapp.services.users import StudyUser

OWNER, LEAD, MEMBER = "owner", "lead", "member"
ROLES = (OWNER, LEAD, MEMBER)
ROLE_NAMES = {OWNER: "Owner", LEAD: "Lead", MEMBER: "Member"}

TEAM_SIZE_MAX = 1000
TEAMS_PER_USER_MAX = 20

# Eight characters read out without confusion: no 0/O, 1/I/L, nor U (V's twin in some hands).
# 30 ** 8 is about 6.6e11 codes; wrong guesses are throttled per address.
JOIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
JOIN_CODE_DAYS = 14
JOIN_CODE_DAYS_MAX = 365
JOIN_CODE_USES_MAX = TEAM_SIZE_MAX
CODE_DRAWS = 5  # fresh codes tried when one drawn is taken (a 1 in 6e11 event, each)
JOIN_CODE_CHARS_MAX = 64  # what is read of a typed code (spaces and dashes are dropped)

NO_SUCH_TEAM = "There is no such team, or you are not a member of it."
LEADS_ONLY = "Only the team's owner and leads can do that."
OWNER_ONLY = "Only the team's owner can do that."


@dataclass(frozen=True)
class JoinCodeLimit:
    """Wrong join codes one address may try within the window."""

    per_address: int = 10
    window: timedelta = timedelta(minutes=15)


@dataclass(frozen=True)
class Membership:
    """The signed-in person's place in one team; what every team page checks first."""

    team_id: int
    team_name: str
    user_id: int
    role: str

    @property
    def is_owner(self) -> bool:
        return self.role == OWNER

    @property
    def is_lead(self) -> bool:
        """A lead's rights: the owner has them too."""
        return self.role in (OWNER, LEAD)


@dataclass(frozen=True)
class TeamSummary:
    """A team in the person's list of teams."""

    id: int
    name: str
    description: str | None
    role: str
    members: int
    joined_at: datetime


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    username: str
    role: str
    joined_at: datetime
    last_active_at: datetime | None


@dataclass(frozen=True)
class JoinCodeView:
    """The team's newest join code and whether it still works (``problem`` says why not)."""

    code: str
    created_at: datetime
    expires_at: datetime
    max_uses: int | None
    uses: int
    revoked_at: datetime | None
    problem: str | None


@dataclass(frozen=True)
class TeamPage:
    membership: Membership
    name: str
    description: str | None
    created_at: datetime
    members: list[MemberRow]
    code: JoinCodeView | None  # for the owner and leads only


@dataclass(frozen=True)
class CodeTeam:
    """The team a working join code leads to, as shown before joining."""

    team_id: int
    team_name: str
    description: str | None
    members: int
    code: str


@dataclass(frozen=True)
class JoinResult:
    team_id: int
    team_name: str
    joined: bool  # False: already a member, nothing changed


class JoinCodeRefused(ServiceError):
    """A real code that no longer works: expired, revoked or used up."""

    status = 410


class OwnsTeams(ServiceError):
    """An account that owns teams cannot be deleted until each is handed over or deleted."""

    status = 409


# --- reading and checking a membership ---------------------------------------------------

def load_membership(session: Session, user: StudyUser, team_id: int) -> Membership:
    """The user's membership of the team; NotFound when they have none (an outsider is told
    the same as for a team that does not exist)."""
    row = session.execute(
        select(TeamMember.role, Team.name).join(Team, Team.id == TeamMember.team_id)
        .where(TeamMember.team_id == team_id, TeamMember.user_id == user.id)).one_or_none()
    if row is None:
        raise NotFound(NO_SUCH_TEAM)
    return Membership(team_id=team_id, team_name=row.name, user_id=user.id, role=row.role)


def require_lead(session: Session, user: StudyUser, team_id: int) -> Membership:
    """The membership of the team's owner or one of its leads; NotFound for an outsider,
    Forbidden for a member."""
    membership = load_membership(session, user, team_id)
    if not membership.is_lead:
        raise Forbidden(LEADS_ONLY)
    return membership


def require_owner(session: Session, user: StudyUser, team_id: int) -> Membership:
    membership = load_membership(session, user, team_id)
    if not membership.is_owner:
        raise Forbidden(OWNER_ONLY)
    return membership


# --- teams -------------------------------------------------------------------------------

def canonicalize_text(value: str | None, noun: str, limit: int, *,
                      keep_lines: bool = False) -> str | None:
    """Trimmed text (runs of blanks made one space, unless ``keep_lines``), None when empty;
    refused when longer than ``limit`` or holding control characters."""
    if value is None:
        return None
    if keep_lines:
        lines = [" ".join(line.split()) for line in value.replace("\r\n", "\n").split("\n")]
        text = "\n".join(lines).strip("\n")
    else:
        text = " ".join(value.split())
    if not text:
        return None
    if len(text) > limit:
        raise ServiceError(f"The {noun} can be at most {limit:,} characters; this one has "
                           f"{len(text):,}.")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch != "\n" for ch in text):
        raise ServiceError(f"The {noun} may not contain control or unassigned characters.")
    return text


def canonicalize_team_fields(name: str | None,
                             description: str | None) -> tuple[str, str | None]:
    cleaned = canonicalize_text(name, "team name", TEAM_NAME_MAX)
    if cleaned is None:
        raise ServiceError("Give the team a name.")
    return cleaned, canonicalize_text(description, "description", TEAM_DESCRIPTION_MAX,
                                      keep_lines=True)


def count_user_teams(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).select_from(TeamMember)
                          .where(TeamMember.user_id == user_id)) or 0


def count_members(session: Session, team_id: int) -> int:
    return session.scalar(select(func.count()).select_from(TeamMember)
                          .where(TeamMember.team_id == team_id)) or 0


def validate_user_team_count(session: Session, user_id: int) -> None:
    if count_user_teams(session, user_id) >= TEAMS_PER_USER_MAX:
        raise LimitReached(f"You are in {TEAMS_PER_USER_MAX} teams, the most one account can "
                           "be in. Leave one before you create or join another.")


def create_team(session: Session, user: StudyUser, name: str | None, description: str | None,
                now: datetime) -> Membership:
    """A new team with the user as its owner; commits."""
    cleaned, about = canonicalize_team_fields(name, description)
    validate_user_team_count(session, user.id)
    team = Team(name=cleaned, description=about, created_at=now)
    session.add(team)
    session.flush()
    session.add(TeamMember(team_id=team.id, user_id=user.id, role=OWNER, joined_at=now))
    session.commit()
    return Membership(team_id=team.id, team_name=cleaned, user_id=user.id, role=OWNER)


def edit_team(session: Session, user: StudyUser, team_id: int, name: str | None,
              description: str | None) -> Membership:
    """The owner renames the team or changes its description; commits."""
    membership = require_owner(session, user, team_id)
    cleaned, about = canonicalize_team_fields(name, description)
    session.execute(update(Team).where(Team.id == team_id)
                    .values(name=cleaned, description=about))
    session.commit()
    return Membership(team_id=team_id, team_name=cleaned, user_id=user.id,
                      role=membership.role)


def delete_team(session: Session, user: StudyUser, team_id: int, typed_name: str | None) -> str:
    """The owner deletes the team with its members, codes, tracks and assignments; its name.
    Nobody's own study is touched: reviews belong to the person, and attempts at a team's
    sets stay theirs (set_attempt.team_id is set to NULL)."""
    membership = require_owner(session, user, team_id)
    if " ".join((typed_name or "").split()) != membership.team_name:
        raise ServiceError(f"Type the team's name, {membership.team_name}, to confirm.")
    session.execute(delete(Team).where(Team.id == team_id))
    session.commit()
    return membership.team_name


def list_user_teams(session: Session, user: StudyUser) -> list[TeamSummary]:
    """The user's teams, by name; only those teams' members are counted (the primary key's
    team_id leads, so each count reads its own team's rows)."""
    mine = select(TeamMember.team_id, TeamMember.role, TeamMember.joined_at).where(
        TeamMember.user_id == user.id).subquery()
    sizes = (select(TeamMember.team_id, func.count().label("members"))
             .where(TeamMember.team_id.in_(select(mine.c.team_id)))
             .group_by(TeamMember.team_id).subquery())
    rows = session.execute(
        select(Team.id, Team.name, Team.description, mine.c.role, mine.c.joined_at,
               sizes.c.members)
        .join(mine, mine.c.team_id == Team.id).join(sizes, sizes.c.team_id == Team.id)
        .order_by(func.lower(Team.name), Team.id))
    return [TeamSummary(id=row.id, name=row.name, description=row.description, role=row.role,
                        members=row.members, joined_at=row.joined_at) for row in rows]


ROLE_ORDER = {OWNER: 0, LEAD: 1, MEMBER: 2}


def list_members(session: Session, team_id: int) -> list[MemberRow]:
    """The team's members: the owner, then leads, then members, each by name."""
    rows = session.execute(
        select(TeamMember.user_id, User.username, TeamMember.role, TeamMember.joined_at,
               TeamMember.last_active_at).join(User, User.id == TeamMember.user_id)
        .where(TeamMember.team_id == team_id))
    members = [MemberRow(user_id=row.user_id, username=row.username, role=row.role,
                         joined_at=row.joined_at, last_active_at=row.last_active_at)
               for row in rows]
    return sorted(members, key=lambda m: (ROLE_ORDER.get(m.role, 3), m.username))


def load_team_page(session: Session, user: StudyUser, team_id: int,
                   now: datetime) -> TeamPage:
    """What a member sees of the team; leads and the owner also see its join code."""
    membership = load_membership(session, user, team_id)
    team = session.get_one(Team, team_id)
    code = load_join_code(session, team_id, now) if membership.is_lead else None
    return TeamPage(membership=membership, name=team.name, description=team.description,
                    created_at=team.created_at, members=list_members(session, team_id),
                    code=code)


# --- roles -------------------------------------------------------------------------------

def load_other_member(session: Session, membership: Membership, member_id: int) -> TeamMember:
    """Another member's row of the same team; NotFound when there is none."""
    if member_id == membership.user_id:
        raise ServiceError("That is you: choose another member.")
    row = session.get(TeamMember, (membership.team_id, member_id))
    if row is None:
        raise NotFound("That person is not a member of this team.")
    return row


def username_of(session: Session, user_id: int) -> str:
    return session.scalar(select(User.username).where(User.id == user_id)) or "?"


def set_role(session: Session, user: StudyUser, team_id: int, member_id: int,
             role: str) -> str:
    """The owner makes a member a lead or a lead a member again; commits. The member's name."""
    membership = require_owner(session, user, team_id)
    if role not in (LEAD, MEMBER):
        raise ServiceError("A member can be made a lead or a member; to make someone the "
                           "owner, hand the team over.")
    row = load_other_member(session, membership, member_id)
    if row.role == OWNER:  # cannot happen while the caller is the owner; kept as a guard
        raise Conflict("The owner's role changes only when the team is handed over.")
    row.role = role
    name = username_of(session, member_id)
    session.commit()
    return name


def remove_member(session: Session, user: StudyUser, team_id: int, member_id: int) -> str:
    """Take a person out of the team; commits and returns their name. The owner removes
    leads and members; a lead removes members only, never the owner or another lead. Their
    own study stays theirs."""
    membership = require_lead(session, user, team_id)
    row = load_other_member(session, membership, member_id)
    if row.role == OWNER:
        raise Forbidden("Nobody can remove the team's owner.")
    if row.role == LEAD and not membership.is_owner:
        raise Forbidden("Only the team's owner can remove a lead.")
    name = username_of(session, member_id)
    drop_membership(session, team_id, member_id)
    session.commit()
    return name


def drop_membership(session: Session, team_id: int, user_id: int) -> None:
    """Take the account out of the team and out of the team's assignments made to chosen
    members (a person who comes back is not assigned them again unasked); the caller
    commits. Nothing of their own study is touched."""
    team_assignments = (select(Assignment.id).join(Track, Track.id == Assignment.track_id)
                        .where(Track.team_id == team_id))
    session.execute(delete(AssignmentMember).where(
        AssignmentMember.user_id == user_id,
        AssignmentMember.assignment_id.in_(team_assignments)))
    session.execute(delete(TeamMember).where(TeamMember.team_id == team_id,
                                             TeamMember.user_id == user_id))


def hand_over(session: Session, user: StudyUser, team_id: int, member_id: int) -> str:
    """The owner makes another member the owner and stays on as a lead; commits and returns
    the new owner's name. Both rows change in one transaction, the old owner's only while it
    still is the owner, so the team always has exactly one."""
    membership = require_owner(session, user, team_id)
    load_other_member(session, membership, member_id)
    stepped_down = session.execute(
        update(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user.id,
                                 TeamMember.role == OWNER).values(role=LEAD))
    if stepped_down.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise Conflict("You are no longer this team's owner.")
    promoted = session.execute(
        update(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == member_id)
        .values(role=OWNER))
    if promoted.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise NotFound("That person is not a member of this team.")
    name = username_of(session, member_id)
    session.commit()
    return name


def leave_team(session: Session, user: StudyUser, team_id: int) -> str:
    """A member or lead leaves the team; commits and returns its name. The owner must hand
    the team over (or delete it) first. Their own study stays theirs."""
    membership = load_membership(session, user, team_id)
    if membership.is_owner:
        alone = count_members(session, team_id) == 1
        raise Conflict("You own this team: " + (
            "delete it instead, as you are its only member." if alone else
            "hand it over to another member first (you then stay as a lead and can leave), "
            "or delete it."))
    drop_membership(session, team_id, user.id)
    session.commit()
    return membership.team_name


def list_owned_teams(session: Session, user_id: int) -> list[str]:
    """Names of the teams the account owns, by name."""
    return list(session.scalars(
        select(Team.name).join(TeamMember, TeamMember.team_id == Team.id)
        .where(TeamMember.user_id == user_id, TeamMember.role == OWNER)
        .order_by(func.lower(Team.name))))


def validate_account_deletable(session: Session, user_id: int) -> None:
    """Raise OwnsTeams while the account owns a team: a team always has an owner, so each
    must be handed over or deleted first. Memberships go with the account (ON DELETE
    CASCADE)."""
    owned = list_owned_teams(session, user_id)
    if owned:
        names = ", ".join(f"“{name}”" for name in owned)
        noun = "the team" if len(owned) == 1 else "the teams"
        raise OwnsTeams(f"You own {noun} {names}. Hand each over to another member or delete "
                        "it (on its team page) before you delete your account.")


# --- join codes --------------------------------------------------------------------------

def new_join_code(choose: Callable[[str], str] = secrets.choice) -> str:
    """A fresh code of JOIN_CODE_LENGTH characters drawn from the look-alike-free alphabet."""
    return "".join(choose(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def canonicalize_join_code(text: str | None) -> str | None:
    """The code as stored (capitals, no spaces or dashes), or None when it cannot be one."""
    if not text:
        return None
    code = "".join(ch for ch in text[:JOIN_CODE_CHARS_MAX] if ch not in " -\t").upper()
    if len(code) != JOIN_CODE_LENGTH or any(ch not in JOIN_CODE_ALPHABET for ch in code):
        return None
    return code


def describe_code_problem(row: TeamJoinCode, now: datetime) -> str | None:
    """Why the code no longer works, or None while it does."""
    if row.revoked_at is not None:
        return ("This join code was revoked by the team's leads. Ask them for the "
                "current one.")
    if row.expires_at <= now:
        return (f"This join code expired on {row.expires_at:%Y-%m-%d at %H:%M} UTC. Ask the "
                "team's leads for a new one.")
    if row.max_uses is not None and row.uses >= row.max_uses:
        times = "once" if row.max_uses == 1 else f"{row.max_uses} times"
        return (f"This join code has been used up: it could be used {times}. Ask the team's "
                "leads for a new one.")
    return None


def to_code_view(row: TeamJoinCode, now: datetime) -> JoinCodeView:
    return JoinCodeView(code=row.code, created_at=row.created_at, expires_at=row.expires_at,
                        max_uses=row.max_uses, uses=row.uses, revoked_at=row.revoked_at,
                        problem=describe_code_problem(row, now))


def load_join_code(session: Session, team_id: int, now: datetime) -> JoinCodeView | None:
    """The team's newest code (working or not), or None when it never had one."""
    row = session.scalars(select(TeamJoinCode).where(TeamJoinCode.team_id == team_id)
                          .order_by(TeamJoinCode.id.desc()).limit(1)).first()
    return None if row is None else to_code_view(row, now)


def create_join_code(session: Session, user: StudyUser, team_id: int, now: datetime, *,
                     days: int = JOIN_CODE_DAYS, max_uses: int | None = None,
                     draw: Callable[[], str] = new_join_code) -> JoinCodeView:
    """A new code for the team, replacing (revoking) the one before; commits. A lead's."""
    require_lead(session, user, team_id)
    if not 1 <= days <= JOIN_CODE_DAYS_MAX:
        raise ServiceError(f"A code can last from 1 to {JOIN_CODE_DAYS_MAX} days.")
    if max_uses is not None and not 1 <= max_uses <= JOIN_CODE_USES_MAX:
        raise ServiceError(f"A code can be used from 1 to {JOIN_CODE_USES_MAX:,} times; leave "
                           "the number empty for no limit.")
    for _ in range(CODE_DRAWS):
        revoke_codes(session, team_id, now)
        row = TeamJoinCode(team_id=team_id, code=draw(), created_at=now,
                           expires_at=now + timedelta(days=days), max_uses=max_uses, uses=0)
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # the code drawn is another team's (or an old one): draw again
            session.rollback()
            continue
        return to_code_view(row, now)
    raise Conflict("No free join code could be drawn; try again.")


def revoke_codes(session: Session, team_id: int, now: datetime) -> int:
    """Revoke the team's codes not revoked yet; the caller commits. How many."""
    result = session.execute(update(TeamJoinCode).where(
        TeamJoinCode.team_id == team_id, TeamJoinCode.revoked_at.is_(None))
        .values(revoked_at=now))
    return int(result.rowcount)  # type: ignore[attr-defined]


def revoke_join_code(session: Session, user: StudyUser, team_id: int, now: datetime) -> bool:
    """Stop the team's code from working; commits. False when there was none to revoke."""
    require_lead(session, user, team_id)
    revoked = revoke_codes(session, team_id, now)
    session.commit()
    return revoked > 0


# --- joining -----------------------------------------------------------------------------

def validate_code_attempts(session: Session, address: str, now: datetime, limit: JoinCodeLimit,
                           own_attempt: int | None = None) -> None:
    """Raise LoginThrottled when the address tried too many wrong codes in the window."""
    wrong = recent_times(session, JoinCodeAttempt,
                         (JoinCodeAttempt.address == address,
                          JoinCodeAttempt.succeeded.is_(False)),
                         now - limit.window, limit.per_address, own_attempt)
    if len(wrong) >= limit.per_address:
        wait = compute_retry_after(wrong[-1], limit.window, now)
        raise LoginThrottled(f"Too many wrong join codes were tried from your address. Try "
                             f"again in {describe_wait(wait)}.", wait)


def find_code(session: Session, text: str | None, address: str, now: datetime,
              limit: JoinCodeLimit) -> TeamJoinCode:
    """The code row ``text`` names, checked and counted as a join attempt from ``address``;
    commits the attempt. NotFound for a code that does not exist (a wrong code, which counts
    against the address), JoinCodeRefused for one that no longer works."""
    code = canonicalize_join_code(text)
    if code is None:  # cannot be anyone's code: a typo, not a guess worth counting
        raise NotFound(f"A join code is {JOIN_CODE_LENGTH} letters and digits (no 0, 1, I, L, "
                       "O or U), such as K7PM-3QXD. Check what you typed.")
    address = address[:ADDRESS_MAX]
    attempt_id = reserve_attempt(
        session, JoinCodeAttempt(address=address, attempted_at=now, succeeded=False),
        lambda own: validate_code_attempts(session, address, now, limit, own))
    row = session.scalars(select(TeamJoinCode).where(TeamJoinCode.code == code)).first()
    if row is None:
        raise NotFound(f"No team has the join code {format_code(code)}. Check it for typos, "
                       "or ask the team's leads for the current one.")
    # A real code, working or not, is no guess: it does not count against the address.
    session.execute(update(JoinCodeAttempt).where(JoinCodeAttempt.id == attempt_id)
                    .values(succeeded=True))
    session.commit()
    return row


def format_code(code: str) -> str:
    """A code as shown: two groups of four, easier to read out (K7PM-3QXD)."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def look_up_code(session: Session, user: StudyUser, text: str | None, address: str,
                 now: datetime, limit: JoinCodeLimit) -> tuple[CodeTeam, bool]:
    """The team a code leads to (shown before joining) and whether the user is already in
    it; the look-up is a counted attempt as joining is."""
    row = find_code(session, text, address, now, limit)
    team = session.get_one(Team, row.team_id)
    member = session.get(TeamMember, (row.team_id, user.id)) is not None
    problem = describe_code_problem(row, now)
    if problem and not member:
        raise JoinCodeRefused(problem)
    return CodeTeam(team_id=team.id, team_name=team.name, description=team.description,
                    members=count_members(session, team.id), code=row.code), member


def validate_team_size(session: Session, team_id: int, team_name: str) -> None:
    if count_members(session, team_id) >= TEAM_SIZE_MAX:
        raise LimitReached(f"“{team_name}” has {TEAM_SIZE_MAX:,} members, the most a team can "
                           "have. Ask its leads to make room.")


def join_team(session: Session, user: StudyUser, text: str | None, address: str,
              now: datetime, limit: JoinCodeLimit) -> JoinResult:
    """Join the team of the code as a member; commits. Joining a team one is already in
    changes nothing (and uses nothing of the code)."""
    row = find_code(session, text, address, now, limit)
    team_id = row.team_id
    team_name = session.scalar(select(Team.name).where(Team.id == team_id)) or ""
    if session.get(TeamMember, (team_id, user.id)) is not None:
        return JoinResult(team_id=team_id, team_name=team_name, joined=False)
    problem = describe_code_problem(row, now)
    if problem:
        raise JoinCodeRefused(problem)
    validate_team_size(session, team_id, team_name)
    validate_user_team_count(session, user.id)
    # One use taken only while the code still works: two people joining at once on its last
    # use cannot both get in. The update also holds the code's row (on SQLite, the database)
    # until this transaction ends, so joins by the code take turns from here: the team's size
    # is counted again, now that nobody else can be joining through it.
    taken = session.execute(
        update(TeamJoinCode).where(
            TeamJoinCode.id == row.id, TeamJoinCode.revoked_at.is_(None),
            TeamJoinCode.expires_at > now,
            TeamJoinCode.max_uses.is_(None) | (TeamJoinCode.uses < TeamJoinCode.max_uses))
        .values(uses=TeamJoinCode.uses + 1))
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        session.refresh(row)
        raise JoinCodeRefused(describe_code_problem(row, now) or "This join code no longer works.")
    try:
        validate_team_size(session, team_id, team_name)
    except LimitReached:
        session.rollback()
        raise
    session.add(TeamMember(team_id=team_id, user_id=user.id, role=MEMBER, joined_at=now))
    try:
        session.commit()
    except IntegrityError:  # joined at the same moment from another tab: already a member
        session.rollback()
        return JoinResult(team_id=team_id, team_name=team_name, joined=False)
    return JoinResult(team_id=team_id, team_name=team_name, joined=True)
