"""Signed study-page tokens: which item was shown, to whom, at which version, with which seed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from itsdangerous import BadSignature, URLSafeSerializer

from quizapp import srs
from quizapp.services.errors import ServiceError
from quizapp.services.users import StudyUser
from quizapp.web.http.signing import current_serializer

SALT = "quizapp.study-page"
DAMAGED = ("This study page is damaged or from an old session. Nothing was saved: open Study "
           "to carry on from where you are.")


@dataclass(frozen=True)
class ShownItem:
    user_id: int
    item_id: int
    version: int  # the state version the page showed (0 = new to this user)
    seed: int | None  # the puzzle seed for a skill, None for a card
    shown_at_ms: int  # server time the page was rendered, for the review's duration
    undo_count: int = 0  # the user's undos when it was shown (the seed depends on them)

    def predates_undo(self, user: StudyUser) -> bool:
        """A puzzle shown before an undo of its item's first rating, which set the version
        back and dealt a fresh puzzle (srs.predates_undo)."""
        return self.seed is not None and srs.predates_undo(
            self.undo_count, self.item_id, user.undo_count, user.last_undo_item_id)

    def is_current(self, version: int, user: StudyUser) -> bool:
        """Whether this page still shows the item as it is: the same state version and, for a
        puzzle, no undo since that took it back."""
        return self.version == version and not self.predates_undo(user)


def _serializer() -> URLSafeSerializer:
    return current_serializer(SALT)


def sign_shown_item(shown: ShownItem) -> str:
    return _serializer().dumps([shown.user_id, shown.item_id, shown.version, shown.seed,
                                shown.shown_at_ms, shown.undo_count])


def verify_shown_item(token: str, user_id: int) -> ShownItem:
    """The ShownItem a token carries; ServiceError if forged, malformed or someone else's."""
    try:
        # Pages shown before undos were counted carry five values: no undo since then.
        user, item, version, seed, shown_at, *undos = _serializer().loads(token)
        undo_count, = undos or [0]
    except (BadSignature, ValueError, TypeError):
        raise ServiceError(DAMAGED) from None
    values = (user, item, version, shown_at, undo_count)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ServiceError(DAMAGED)
    if seed is not None and not isinstance(seed, int):
        raise ServiceError(DAMAGED)
    if user != user_id:
        raise ServiceError("This study page belongs to another account. Nothing was saved.")
    return ShownItem(user, item, version, seed, shown_at, undo_count)


# The Undo form's own proof that its review was this user's: a second click on Undo finds the
# review gone, and is told it was undone, not a 404. A review id with
# no such proof still gets the 404 that another user's id gets.
OWN_REVIEW_SALT = "quizapp.own-review"


def sign_own_review(user_id: int, review_id: int) -> str:
    return current_serializer(OWN_REVIEW_SALT).dumps([user_id, review_id])


def is_own_review(token: str | None, user_id: int, review_id: int) -> bool:
    try:
        return current_serializer(OWN_REVIEW_SALT).loads(token or "") == [user_id, review_id]
    except BadSignature:
        return False


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def compute_duration_ms(shown: ShownItem, now: datetime) -> int:
    """Time from showing the item to rating it, clamped to 0..1 hour."""
    return max(0, min(epoch_ms(now) - shown.shown_at_ms, 60 * 60 * 1000))
