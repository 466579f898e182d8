"""Study-page tokens: signed for one user, refused when forged, kept across a key rotation."""

from __future__ import annotations

import pytest
from flask import Flask

from quizapp.services.errors import ServiceError
from quizapp.web.study.tokens import (
    DAMAGED,
    ShownItem,
    _serializer,
    sign_shown_item,
    verify_shown_item,
)

SHOWN = ShownItem(user_id=7, item_id=12, version=3, seed=991, shown_at_ms=1_700_000_000_000)


def keyed_app(secret_key: str, fallbacks: list[str]) -> Flask:
    app = Flask("study-tokens-test")
    app.config.update(SECRET_KEY=secret_key, SECRET_KEY_FALLBACKS=fallbacks)
    return app


def sign_with(secret_key: str, fallbacks: list[str] | None = None) -> str:
    with keyed_app(secret_key, fallbacks or []).app_context():
        return sign_shown_item(SHOWN)


def verify_with(token: str, secret_key: str, fallbacks: list[str] | None = None,
                user_id: int = 7) -> ShownItem:
    with keyed_app(secret_key, fallbacks or []).app_context():
        return verify_shown_item(token, user_id)


def test_a_token_carries_what_was_shown_back():
    assert verify_with(sign_with("key-a"), "key-a") == SHOWN


def test_a_page_open_while_the_key_rotates_is_still_taken():
    token = sign_with("old-key")
    assert verify_with(token, "new-key", ["old-key"]) == SHOWN
    # The new key signs: a token made after the rotation does not verify under the old key.
    with pytest.raises(ServiceError, match="damaged"):
        verify_with(sign_with("new-key", ["old-key"]), "old-key")


def test_a_token_from_a_retired_key_is_refused_as_damaged():
    with pytest.raises(ServiceError) as refused:
        verify_with(sign_with("old-key"), "new-key")
    assert str(refused.value) == DAMAGED


def test_another_users_token_is_refused():
    with pytest.raises(ServiceError, match="another account"):
        verify_with(sign_with("key-a"), "key-a", user_id=8)


@pytest.mark.parametrize("tamper", [lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
                                    lambda t: "x" + t, lambda t: ""])
def test_a_forged_or_cut_token_is_refused(tamper):
    with pytest.raises(ServiceError, match="damaged"):
        verify_with(tamper(sign_with("key-a")), "key-a")


def test_a_page_shown_before_undos_were_counted_is_read_as_none_since():
    """Five values, as tokens were signed before undo_count joined them (pages open at the
    deploy): read with no undo since, and a sixth value that is not an int is damage."""
    with keyed_app("key-a", []).app_context():
        old = _serializer().dumps([7, 12, 3, 991, 1_700_000_000_000])
        assert verify_shown_item(old, 7) == SHOWN and SHOWN.undo_count == 0
        counted = sign_shown_item(ShownItem(7, 12, 3, 991, 1_700_000_000_000, undo_count=2))
        assert verify_shown_item(counted, 7).undo_count == 2
        for bad in ("2", None, True, 1.5):
            with pytest.raises(ServiceError, match="damaged"):
                verify_shown_item(_serializer().dumps([7, 12, 3, 991, 1, bad]), 7)
