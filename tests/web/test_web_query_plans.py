"""The statements behind Stats, the study counts, the question browser and the history read
what they need from indexes: found slow on a database grown to 6,000 cards and 822,000
reviews. Each statement a page runs is explained by SQLite with its own parameters."""

from __future__ import annotations

import re

import pytest
from webtest_support import rate_current, register

pytestmark = pytest.mark.sqlite_only
TOUCHES_CARD_OR_SKILL = re.compile(r"\b(SCAN|SEARCH) (card|skill)\b")


@pytest.fixture
def studied(client, bank):
    """A signed-in user with a few ratings: learning steps, reviews, time spent."""
    register(client, "planner")
    for rating in (3, 4, 1, 3):
        assert rate_current(client, rating).status_code == 303
    return client


def test_stats_reads_no_card_or_skill_row_and_no_review_row(studied, plans):
    explained = plans(studied, "/study/stats")
    assert len(explained) >= 5, explained  # the user, stages, forecast, recent days, retention
    for statement, steps in explained:
        assert not any(TOUCHES_CARD_OR_SKILL.search(step) for step in steps), (statement, steps)
        on_review = [step for step in steps if re.search(r"\b(SCAN|SEARCH) review\b", step)]
        assert all("COVERING INDEX" in step for step in on_review), (statement, steps)
    assert any("ix_review_user_id_reviewed_at_figures" in step
               for _, steps in explained for step in steps), explained


def test_the_study_counts_count_the_offered_items_from_an_index_alone(studied, plans):
    steps = [step for _, steps in plans(studied, "/study") for step in steps]
    assert any("item USING COVERING INDEX ix_item_retired_kind_key" in step
               for step in steps), steps


@pytest.mark.parametrize("url", ["/questions", "/questions?level=junior",
                                 "/questions?concept=stride"])
def test_the_question_browser_counts_without_reading_the_cards(client, bank, plans, url):
    counts = [(statement, steps) for statement, steps in plans(client, url)
              if re.match(r"\s*SELECT count\(\*\)", statement)]
    assert len(counts) == 1, counts
    statement, steps = counts[0]
    assert not any(TOUCHES_CARD_OR_SKILL.search(step) for step in steps), (statement, steps)


def test_a_card_page_finds_its_card_by_the_kind_and_key_index(client, bank, plans):
    explained = plans(client, "/questions/alpha-stride")
    steps = [step for statement, steps in explained if "FROM item" in statement
             for step in steps]
    assert steps and not any(step.startswith("SCAN item") for step in steps), explained
    assert any("item USING INDEX sqlite_autoindex_item_1 (kind=? AND key=?)" in step
               for step in steps), explained


def test_a_history_page_skips_earlier_pages_in_the_index_not_in_the_rows(studied, plans):
    explained = plans(studied, "/study/history?page=1")
    rows = [(statement, steps) for statement, steps in explained
            if "OFFSET" in statement and "FROM review" in statement]
    assert len(rows) == 1, explained
    statement, steps = rows[0]
    # The offset walks the covering (user_id, id) index; only the page's rows are read.
    assert any("review USING COVERING INDEX ix_review_user_id_id" in step for step in steps), steps
    assert any("review USING INTEGER PRIMARY KEY" in step for step in steps), steps


def test_a_card_pages_record_reads_that_cards_reviews_by_the_user_and_item_index(studied,
                                                                                 plans):
    explained = plans(studied, "/questions/alpha-stride")
    on_review = [(statement, steps) for statement, steps in explained
                 if re.search(r"\bFROM review\s", statement)]
    assert len(on_review) == 2, explained  # the figures, the newest reviews
    # Either index led by (user_id, item_id): the one ending in id, or the one holding answers.
    by_item = re.compile(r"review USING (COVERING )?INDEX ix_review_user_id_item_id_(id|outcome) "
                         r"\(user_id=\? AND item_id=\?\)")
    for statement, steps in on_review:
        assert any(by_item.search(step) for step in steps), (statement, steps)
        assert not any(step.startswith("SCAN review") for step in steps), (statement, steps)


# An item's suspension by both key columns, or (counting suspended items) the user's own rows.
SUSPENSION_LOOKUP = re.compile(r"^SEARCH \w+ USING COVERING INDEX sqlite_autoindex_item_"
                               r"suspension_1 \(user_id=\?( AND item_id=\?)?\)( LEFT-JOIN)?$")


@pytest.mark.parametrize("url, lookups", [("/study", 5), ("/study?list=all", 2),
                                          ("/study/stats", 2), ("/questions?mine=due", 2)])
def test_suspended_items_are_looked_up_by_the_suspensions_primary_key(studied, plans, url,
                                                                      lookups):
    """Each statement leaving suspended items out probes the (user_id, item_id) key: never a
    scan of the user's suspensions, nor of everyone's."""
    page = studied.get("/questions").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert studied.post("/study/suspend", data={"csrf_token": token, "item_id": "2"}
                        ).status_code == 303
    steps = [step for _, steps in plans(studied, url) for step in steps
             if "item_suspension" in step]
    assert len(steps) >= lookups, steps
    assert all(SUSPENSION_LOOKUP.match(step) for step in steps), steps


def test_progress_reads_the_review_log_and_practice_answers_by_their_user_and_time_indexes(
        studied, plans):
    """/progress: the calendar's times from the (user, time) index alone, the puzzle answers
    of 30 days by the same index (reviews) and practice's own, never a scan of either table."""
    explained = plans(studied, "/progress")
    steps = [step for _, found in explained for step in found]
    assert not any(re.search(r"\bSCAN (review|practice_attempt)\b", step) for step in steps), steps
    on_review = [step for step in steps if re.search(r"\bSEARCH review\b", step)]
    assert len(on_review) == 2 and all("ix_review_user_id_reviewed_at_figures" in step
                                       for step in on_review), on_review
    assert any("COVERING INDEX ix_review_user_id_reviewed_at_figures" in step for step in on_review)
    assert any("COVERING INDEX ix_practice_attempt_user_id_answered_at" in step
               for step in steps), steps
