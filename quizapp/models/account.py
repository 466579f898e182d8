"""Accounts and the login attempts that throttling counts."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, true
from sqlalchemy.orm import Mapped, mapped_column

from quizapp.extensions import db

USERNAME_MAX = 40
ADDRESS_MAX = 64
DEVICE_MAX = 32
TIME_ZONE_MAX = 64  # quizapp.srs.zones.ZONE_NAME_MAX
THEME_MAX = 8
NONCE_HASH_MAX = 64  # hex SHA-256 of a login's nonce
BROWSER_MAX = 200  # characters of a login's User-Agent kept to name it in Settings


class User(db.Model):
    """A person who studies; also holds their study settings."""

    __tablename__ = "user"
    # Ids are never reused (PostgreSQL's sequences never are): an account can be deleted, and
    # an id it signed into open pages and puzzle seeds must not name the next account.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_MAX), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    # Bumped to sign out every session of this account (e.g. after a password change).
    session_version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    desired_retention: Mapped[float] = mapped_column(default=0.9)
    new_per_day: Mapped[int] = mapped_column(default=20)
    reviews_per_day: Mapped[int] = mapped_column(default=200)
    # The longest wait between two reviews, in days (Anki's "Maximum interval"; fsrs's cap).
    maximum_interval_days: Mapped[int] = mapped_column(default=36500, server_default="36500")
    # The lowest level whose new items the queue introduces ("junior": every level, as before).
    new_from_level: Mapped[str] = mapped_column(String(16), default="junior",
                                                server_default="junior")
    # An IANA name ("Europe/Berlin", the browser's at registration) or a fixed offset
    # ("UTC+05:30", "UTC"): the study day starts at 04:00 there (quizapp.srs.zones).
    time_zone: Mapped[str] = mapped_column(String(TIME_ZONE_MAX), default="UTC",
                                           server_default="UTC")
    # Single-key shortcuts on study pages (Space, 1-4, u), as in Anki; a person can turn them
    # off (WCAG 2.1.4: stray keystrokes, e.g. from speech input, must not rate or undo).
    keyboard_shortcuts: Mapped[bool] = mapped_column(default=True, server_default=true())
    # "system" (follow the browser's prefers-color-scheme), "light" or "dark": the server sets
    # it on every page's <html> (quizapp.services.settings.THEMES).
    theme: Mapped[str] = mapped_column(String(THEME_MAX), default="system",
                                       server_default="system")
    # Ratings this user has undone. A puzzle's seed follows the item's state version, which an
    # undone first rating sets back to 0; counting undos into the seed deals a fresh puzzle
    # instead of the one whose answer was just shown (web.http.runtime.derive_puzzle_seed).
    undo_count: Mapped[int] = mapped_column(default=0, server_default="0")
    # The item of the latest undo: a page of another item shown before that one undo is still
    # current (srs.predates_undo).
    last_undo_item_id: Mapped[int | None]

    def get_id(self) -> str:
        """Not a Flask-Login identity on its own: an identity names one login (LoginSession),
        so that logging out can revoke it. Log in with services.accounts.start_login's user."""
        raise NotImplementedError(
            "log in with the SignedInUser that services.accounts.start_login returns")


class LoginSession(db.Model):
    """One login of an account (one device's session and remember cookie).

    The Flask-Login identity names this row and carries its nonce; a request is signed in only
    while the row exists, so logging out (deleting it) ends the session on the server, even
    for copies of the cookies. A password change deletes every login of the account but the
    new one. Rows older than the longest cookie lifetime are pruned when a login starts.
    """

    __tablename__ = "login_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    # SHA-256 (hex) of the identity's nonce: the table alone does not yield a usable identity.
    nonce_hash: Mapped[str] = mapped_column(String(NONCE_HASH_MAX))
    created_at: Mapped[datetime] = mapped_column(index=True)
    # Renewed at most every LAST_SEEN_EVERY (services.accounts), not at every request.
    last_seen_at: Mapped[datetime | None]
    browser: Mapped[str | None] = mapped_column(String(BROWSER_MAX))  # its User-Agent, cut


class LoginAttempt(db.Model):
    """One login attempt; throttling counts recent failures per account and per address."""

    __tablename__ = "login_attempt"
    __table_args__ = (
        Index("ix_login_attempt_username_at", "username", "attempted_at"),
        Index("ix_login_attempt_address_at", "address", "attempted_at"),
        Index("ix_login_attempt_attempted_at", "attempted_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_MAX))
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX))
    attempted_at: Mapped[datetime]
    succeeded: Mapped[bool]
    # The device cookie's nonce when the attempt came with a valid one for this account (a
    # client that logged in before); such attempts have their own limit. None: anonymous.
    device: Mapped[str | None] = mapped_column(String(DEVICE_MAX))


class RegistrationAttempt(db.Model):
    """One account registration tried from an address (taken names included): counted so one
    address cannot create accounts, or probe which names exist, without limit."""

    __tablename__ = "registration_attempt"
    __table_args__ = (Index("ix_registration_attempt_address_at", "address", "attempted_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX))
    attempted_at: Mapped[datetime] = mapped_column(index=True)
