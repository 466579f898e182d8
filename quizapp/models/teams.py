"""Teams, their members and join codes, tracks of steps and the assignments of tracks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from quizapp.extensions import db
from quizapp.models.account import ADDRESS_MAX

TEAM_NAME_MAX = 80
TEAM_DESCRIPTION_MAX = 2000
ROLE_MAX = 16  # "owner", "lead", "member"
JOIN_CODE_LENGTH = 8
TRACK_TITLE_MAX = 200
STEP_TITLE_MAX = 200
STEP_KIND_MAX = 16  # "set", "questions", "skills"
FILTER_QUERY_MAX = 2000  # the /questions query string a questions step was built from


class Team(db.Model):
    """A group a lead brings people into: its members hold roles, its tracks are assigned."""

    __tablename__ = "team"
    # Ids are never reused: a team's address names its id, and a deleted team's must not
    # lead to the next one.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(TEAM_NAME_MAX))
    description: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]


class TeamMember(db.Model):
    """One account's place in a team: its role ("owner", exactly one per team; "lead";
    "member"), when it joined and when it last did assigned work."""

    __tablename__ = "team_member"
    # Exactly one owner per team is the database's rule too, not only the services': a second
    # owner row is refused, so a hand-over demotes the old owner before promoting the new.
    __table_args__ = (
        Index("uq_team_member_team_id_owner", "team_id", unique=True,
              sqlite_where=text("role = 'owner'"), postgresql_where=text("role = 'owner'")),
    )

    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"),
                                         primary_key=True)
    # The account's teams (/teams) and the removal of its memberships when it is deleted.
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"),
                                         primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(ROLE_MAX))
    joined_at: Mapped[datetime]
    last_active_at: Mapped[datetime | None]


class TeamJoinCode(db.Model):
    """A code that lets people join a team, by link or typed in. It works until it expires,
    is revoked (a new code revokes the team's current one) or has been used ``max_uses``
    times; the row stays so a person holding an old code is told which of these happened."""

    __tablename__ = "team_join_code"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(JOIN_CODE_LENGTH), unique=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    max_uses: Mapped[int | None]
    uses: Mapped[int] = mapped_column(default=0, server_default="0")
    revoked_at: Mapped[datetime | None]


class JoinCodeAttempt(db.Model):
    """One join code tried from an address: wrong ones are throttled per address the way
    failed logins are (services.store.throttling)."""

    __tablename__ = "join_code_attempt"
    __table_args__ = (
        Index("ix_join_code_attempt_address_at", "address", "attempted_at"),
        Index("ix_join_code_attempt_attempted_at", "attempted_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX))
    attempted_at: Mapped[datetime]
    succeeded: Mapped[bool]


class Track(db.Model):
    """An ordered list of steps a lead builds for a team to work through."""

    __tablename__ = "track"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(TRACK_TITLE_MAX))
    description: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))


class TrackStep(db.Model):
    """One step of a track: a practice set (with an optional pass mark, in percent), a list
    of questions or puzzle skills. Its items are frozen in ``item_keys`` when it is made, so a
    later bank edit does not change what was assigned; a deleted set leaves the step without
    its set (``practice_set_id`` None), shown as such."""

    __tablename__ = "track_step"
    __table_args__ = (
        Index("ix_track_step_track_id_position", "track_id", "position"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    track_id: Mapped[int] = mapped_column(ForeignKey("track.id", ondelete="CASCADE"))
    position: Mapped[int]
    kind: Mapped[str] = mapped_column(String(STEP_KIND_MAX))
    title: Mapped[str] = mapped_column(String(STEP_TITLE_MAX))
    practice_set_id: Mapped[int | None] = mapped_column(
        ForeignKey("practice_set.id", ondelete="SET NULL"), index=True)
    pass_mark: Mapped[int | None]
    item_keys: Mapped[list[Any]] = mapped_column(JSON)
    filter_query: Mapped[str | None] = mapped_column(String(FILTER_QUERY_MAX))
    due_at: Mapped[datetime | None]


class Assignment(db.Model):
    """A track given to the whole team (members who join later get it too) or to the
    members listed in assignment_member, with an optional due date."""

    __tablename__ = "assignment"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    track_id: Mapped[int] = mapped_column(ForeignKey("track.id", ondelete="CASCADE"), index=True)
    whole_team: Mapped[bool]
    due_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class AssignmentMember(db.Model):
    """A member an assignment is given to; ``due_at`` extends the assignment's for them."""

    __tablename__ = "assignment_member"

    assignment_id: Mapped[int] = mapped_column(
        ForeignKey("assignment.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"),
                                         primary_key=True, index=True)
    due_at: Mapped[datetime | None]
