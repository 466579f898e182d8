"""The dashboard's statements read every table through an index, in a bounded number of
statements whatever the team's size: each SELECT of the page explained by SQLite with its
own parameters."""

from __future__ import annotations

import re

import pytest
from dashboard_support import build_team, review_cards, take_set

pytestmark = pytest.mark.sqlite_only
FULL_SCAN = re.compile(r"^SCAN ([a-z_]+)\b(?! USING)")  # not "SCAN 5 CONSTANT ROWS" (a VALUES list)
ROLES = (("olive", "owner"), ("leah", "lead"), ("mia", "member"), ("max", "member"))


@pytest.mark.parametrize("suffix", ["dashboard", "dashboard.csv"])
def test_the_dashboard_reads_through_indexes_in_few_statements(app, bank, clock, plans,
                                                               suffix):
    built = build_team(app, clock, ROLES)
    for name in ("mia", "max"):
        take_set(app, clock, built, name, ["knew", "didnt", "knew", "knew"])
        review_cards(app, clock, built.clients[name], name, {"alpha-stride": 3, "beta-view": 1})
    explained = plans(built.clients["leah"], f"/teams/{built.team_id}/dashboard"
                      .replace("dashboard", suffix))
    # The login and session reads, then the dashboard's own; the count does not grow with
    # the members, steps or reviews (each reads all it needs at once).
    assert len(explained) <= 20, [statement for statement, _ in explained]
    scans = [(statement, step) for statement, steps in explained for step in steps
             if FULL_SCAN.match(step)]
    assert not scans, scans
    steps = [step for _, steps in explained for step in steps]
    # Reviews since the assignment began counted from an index holding their answers alone;
    # attempts a range of each member's, by time; forgetting curves from the index on member
    # and item that holds the last review and stability.
    assert any("COVERING INDEX ix_review_user_id_item_id_outcome" in step for step in steps), steps
    for index in ( "ix_set_attempt_user_id_started_at",
                  "ix_review_state_user_id_item_id_curve", "ix_track_step_track_id_position"):
        assert any(index in step for step in steps), (index, steps)
