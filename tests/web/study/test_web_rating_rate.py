"""A rate of ratings no person can exceed, per account: past it a rating is refused with a
clear message and Retry-After, nothing is stored, and the review log's growth is bounded."""

from __future__ import annotations

from webtest_support import rate_current, register, stored_ratings


def test_ratings_past_the_accounts_rate_are_refused_and_not_stored(app, client, bank, clock):
    app.config.update(RATING_LIMIT_PER_MINUTE=3, RATING_LIMIT_PER_HOUR=4)
    register(client, "quick")
    for _ in range(3):
        assert rate_current(client, 3).status_code == 303
    refused = rate_current(client, 3)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert ("Not saved: that is more than 3 ratings in a minute, faster than anyone reads and "
            "answers. Wait 60 seconds, then rate again.") in refused.text
    assert len(stored_ratings(app)) == 3
    other = app.test_client()  # another account is counted apart
    register(other, "slow")
    assert rate_current(other, 3).status_code == 303
    clock.advance(seconds=61)
    assert rate_current(client, 3).status_code == 303  # the minute has passed
    refused = rate_current(client, 3)
    assert refused.status_code == 429
    assert "more than 4 ratings in an hour" in refused.text
    assert int(refused.headers["Retry-After"]) == 3600 - 61
    assert len(stored_ratings(app)) == 4 + 1
