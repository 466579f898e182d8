"""What the study loop caches or skips stays correct: edited cards, prefixes, query plans."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite
from webtest_support import (
    counted_statements,
    csrf_token,
    rate_current,
    register,
    shown_key,
    study_token,
)

from quizapp.extensions import db
from quizapp.services import reviews
from quizapp.services.bank_import import import_cards
from quizapp.services.store import queue_statements, study_items


def test_an_edited_card_shows_its_new_answer_on_the_study_and_card_pages(app, client, bank,
                                                                        clock):
    register(client, "editor")
    first = client.get("/study").text  # renders (and caches) alpha-stride's answer
    assert "Basics of alpha-stride." in first
    assert "Basics of alpha-stride." in client.get("/questions/alpha-stride").text
    edited = [dataclasses.replace(bank[0], basics="Freshly **reworded** basics."), *bank[1:]]
    with app.app_context():
        assert import_cards(db.session, edited, clock()).updated == ["alpha-stride"]
    for path in ("/study", "/questions/alpha-stride"):
        html = client.get(path).text
        assert "Freshly <strong>reworded</strong> basics." in html, path
        assert "Basics of alpha-stride." not in html, path


def test_two_cards_with_the_same_text_elsewhere_keep_their_own_answers(client, bank):
    alpha = client.get("/questions/alpha-stride").text
    beta = client.get("/questions/beta-view").text
    assert "Basics of alpha-stride." in alpha and "Basics of beta-view." not in alpha
    assert "Basics of beta-view." in beta and "Basics of alpha-stride." not in beta


def test_links_follow_the_script_root_of_each_request(client, bank):
    plain = client.get("/login").text
    assert 'href="/static/app.css"' in plain and 'href="/questions"' in plain
    mounted = client.get("/login", environ_overrides={"SCRIPT_NAME": "/quiz"}).text
    assert 'href="/quiz/static/app.css"' in mounted and 'href="/quiz/questions"' in mounted
    assert 'href="/static/app.css"' in client.get("/login").text


def test_hidden_fields_written_by_the_templates_round_trip(app, client, bank):
    register(client, "roundtrip")
    page = client.get("/study").text
    assert csrf_token(page) and study_token(page)
    assert rate_current(client, 3, page).status_code == 303
    page = client.get("/study").text
    review_id = page.split('id="review_id" name="review_id" type="hidden" value="')[1]
    review_id = review_id.split('"')[0]
    undone = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                              "review_id": review_id})
    assert undone.status_code == 303
    assert "Basics of alpha-stride." in client.get("/study").text  # back to the first card


def test_a_study_page_is_three_statements_for_new_and_for_due_items(app, client, bank, clock):
    """User, queue counts (with the undo target), the head item: no per-item or lazy loads."""
    register(client, "counter")
    client.get("/study")  # renders alpha-stride's answer once (its columns load lazily here)
    with counted_statements(app) as statements:
        page = client.get("/study").text
    assert shown_key(page) == "alpha-stride" and len(statements) == 3, statements
    assert rate_current(client, 1, page).status_code == 303  # Again: due in a minute
    assert rate_current(client, 3).status_code == 303  # beta-view
    clock.advance(minutes=30)
    client.get("/study")
    with counted_statements(app) as statements:
        page = client.get("/study").text
    assert shown_key(page) == "alpha-stride" and "Basics of alpha-stride." in page
    assert len(statements) == 3, statements


def test_a_rating_is_four_reads_and_two_writes_after_the_user(app, client, bank):
    """The item with its state; the per-account rating rate, one indexed read per window (the
    time of the Nth newest review: a minute's and an hour's limit); then, in the write
    transaction, the settings again (a Settings save may have lowered the maximum interval since
    the user was read: rating_writes)."""
    register(client, "writer")
    page = client.get("/study").text
    with counted_statements(app) as statements:
        assert rate_current(client, 3, page).status_code == 303
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    writes = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    assert len(reads) == 5 and len(writes) == 2, statements
    assert all("reviewed_at" in read and "OFFSET" in read.upper() for read in reads[2:4]), reads
    assert "maximum_interval_days" in reads[4] and "review_state" not in reads[4]


@pytest.fixture
def plan_db(app) -> sqlite3.Connection:
    path = Path(app.instance_path) / "quizapp.db"
    with app.app_context():
        db.engine.dispose()
    connection = sqlite3.connect(path)
    yield connection
    connection.close()


def compile_with_values(statement, dialect, values: dict):
    """``statement``'s text and parameters for ``values``, the new-item levels (an expanding
    list) rendered as one parameter per level, as at execution."""
    return statement.compile(dialect=dialect).construct_expanded_state(values)


def query_plan(connection: sqlite3.Connection, statement) -> list[str]:
    values = {"user_id": 1, "item_id": 1, "now": "2025-01-01 00:00:00.000000",
              "until": "2025-01-01 00:00:00.000000", "day_start": "2025-01-01 00:00:00.000000",
              "next_day": "2025-01-02 04:00:00.000000", "new_levels": ["senior", "principal"]}
    expanded = compile_with_values(statement, sqlite.dialect(), values)
    rows = connection.execute("EXPLAIN QUERY PLAN " + expanded.statement,
                              expanded.positional_parameters).fetchall()
    return [row[3] for row in rows]


@pytest.mark.parametrize("name", ["COUNTS", "COUNTS_FROM_LEVEL", "FIRST_DUE", "FIRST_NEW",
                                  "LOAD_ITEM_AND_STATE", "LOAD_STATE"])
@pytest.mark.sqlite_only
def test_per_user_lookups_use_indexes_and_never_sort_the_users_history(plan_db, name):
    """These run on every study request; their cost must not grow with the review history."""
    modules = (queue_statements, study_items, reviews)
    statement = next(getattr(m, name) for m in modules if hasattr(m, name))
    plan = query_plan(plan_db, statement)
    assert plan
    for step in plan:
        assert not step.startswith(("SCAN review", "SCAN review_state")), (name, plan)
        assert "TEMP B-TREE" not in step and "MATERIALIZE" not in step, (name, plan)


@pytest.mark.sqlite_only
def test_the_latest_review_comes_from_the_user_and_id_index(plan_db):
    plan = query_plan(plan_db, queue_statements.COUNTS)
    assert any("review USING COVERING INDEX ix_review_user_id_id" in step for step in plan), plan


@pytest.mark.parametrize("name", ["COUNTS", "COUNTS_FROM_LEVEL", "FIRST_DUE", "FIRST_NEW",
                                  "LOAD_ITEM_AND_STATE", "LOAD_STATE"])
@pytest.mark.postgresql_only
def test_postgresql_serves_the_per_user_lookups_from_indexes(app, name):
    """PostgreSQL's side of the check above. Its planner scans small tables whole, so sequential
    scans are priced out first: a table left with one means no index can serve the lookup."""
    modules = (queue_statements, study_items, reviews)
    statement = next(getattr(m, name) for m in modules if hasattr(m, name))
    moment = datetime(2025, 1, 1, tzinfo=UTC)
    with app.app_context(), db.engine.connect() as conn:
        expanded = compile_with_values(statement, conn.dialect, {
            "user_id": 1, "item_id": 1, "now": moment, "until": moment, "day_start": moment,
            "next_day": moment, "new_levels": ["senior", "principal"]})
        conn.exec_driver_sql("SET enable_seqscan = off")
        plan = [row[0] for row in conn.exec_driver_sql("EXPLAIN " + expanded.statement,
                                                       expanded.parameters)]
    assert plan
    for step in plan:
        assert not re.search(r"Seq Scan on (review|review_state)\b", step), (name, plan)
        assert "Sort" not in step, (name, plan)
