"""The status bar counts learning steps that come back later today apart, as Anki's learning
figure does: an Again is not lost from sight while its step is minutes away."""

from __future__ import annotations

import re
from datetime import timedelta

from webtest_support import csrf_token, rate_current, register, shown_key

from quizapp import srs

COUNTS_RE = re.compile(r'<div class="study-status">.*?<span class="spacer">', re.S)


def status_counts(html: str) -> dict[str, int]:
    """The status bar's figures by what they count: due, new and later today (0 if absent)."""
    bar = COUNTS_RE.search(html).group(0)
    found = {name: int(value) for value, name in re.findall(
        r"<strong>(\d+)</strong> (due|new|later today)</span>", bar)}
    return {"due": found["due"], "new": found["new"], "later today": found.get("later today", 0)}


def test_again_and_the_steps_after_it_are_counted_until_they_graduate(app, client, bank, clock):
    register(client, "sam")
    first = client.get("/study").text
    assert status_counts(first) == {"due": 0, "new": len(bank), "later today": 0}
    assert "later today" not in COUNTS_RE.search(first).group(0)
    key = shown_key(first)
    rate_current(client, 1, first)  # Again: the first learning step, a minute away
    page = client.get("/study").text
    assert shown_key(page) != key
    assert status_counts(page) == {"due": 0, "new": len(bank) - 1, "later today": 1}
    clock.advance(minutes=2)  # its step has come: it is due now, no longer "later"
    page = client.get("/study").text
    assert shown_key(page) == key
    assert status_counts(page) == {"due": 1, "new": len(bank) - 1, "later today": 0}
    rate_current(client, 3, page)  # Good: the next step, ten minutes away
    assert status_counts(client.get("/study").text)["later today"] == 1
    clock.advance(minutes=11)
    rate_current(client, 3)  # Good again: it graduates to days
    assert status_counts(client.get("/study").text)["later today"] == 0


def test_a_step_past_the_day_boundary_or_suspended_is_not_counted_today(app, client, bank,
                                                                        clock):
    register(client, "sam")
    day_end = srs.next_day_start(clock(), srs.compute_zone("UTC"))
    clock.now = day_end - timedelta(minutes=5)  # 03:55: a ten-minute step ends tomorrow
    first = client.get("/study").text
    rate_current(client, 3, first)  # Good on a new item: the ten-minute step
    assert status_counts(client.get("/study").text)["later today"] == 0
    other = client.get("/study").text
    rate_current(client, 1, other)  # Again: one minute, still today
    page = client.get("/study").text
    assert status_counts(page)["later today"] == 1
    # Suspended, it comes back only once resumed: not "later today".
    item_id = re.search(r'name="item_id" type="hidden" value="(\d+)"',
                        client.get(f"/questions/{shown_key(other)}").text).group(1)
    client.post("/study/suspend", data={"csrf_token": csrf_token(page), "item_id": item_id,
                                        "back": "study"})
    assert status_counts(client.get("/study").text)["later today"] == 0

