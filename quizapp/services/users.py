"""StudyUser: the account as the study use cases read it, whichever object carries it."""

from __future__ import annotations

from typing import Protocol


class StudyUser(Protocol):
    """What the study use cases read of an account: its id, settings and undo count.

    The web layer passes the signed-in user (accounts.SignedInUser, a plain row read on every
    request); use cases that change the account load the model (accounts.load_account), which
    has the same fields. Nothing here is written through this type.
    """

    @property
    def id(self) -> int: ...
    @property
    def username(self) -> str: ...
    @property
    def desired_retention(self) -> float: ...
    @property
    def new_per_day(self) -> int: ...
    @property
    def reviews_per_day(self) -> int: ...
    @property
    def maximum_interval_days(self) -> int: ...
    @property
    def new_from_level(self) -> str: ...
    @property
    def time_zone(self) -> str: ...
    @property
    def keyboard_shortcuts(self) -> bool: ...
    @property
    def undo_count(self) -> int: ...
    @property
    def last_undo_item_id(self) -> int | None: ...
