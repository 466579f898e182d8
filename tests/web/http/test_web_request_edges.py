"""Requests at the edges: addresses behind a proxy, items retired while their page was open,
the 500 page, and a schema with no alembic revision."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy import func, select
from webtest_support import (
    MIGRATIONS,
    csrf_token,
    rate_current,
    reach_first_skill,
    register,
    shown_key,
    study_token,
)

from quizapp import create_app
from quizapp.extensions import db
from quizapp.models import Item, LoginAttempt, Review, ReviewState

GONE = "That item is not in the study queue any more."
BROKE = "Something broke on our side. Your saved progress is safe; try again in a moment."


def login_forwarded_for(client, forwarded: str, username: str):
    """A wrong-password login whose request says it was forwarded for ``forwarded``."""
    headers = {"X-Forwarded-For": forwarded}
    page = client.get("/login", headers=headers)
    return client.post("/login", headers=headers, data={
        "csrf_token": csrf_token(page.text), "username": username, "password": "a guess"})


def stored_addresses(app) -> list[str]:
    with app.app_context():
        return db.session.scalars(select(LoginAttempt.address).order_by(LoginAttempt.id)).all()


# 1. Which address the login limiter counts (QUIZAPP_PROXY_FIX_HOPS) ---------------------------


def test_with_one_proxy_hop_logins_are_throttled_by_the_right_most_forwarded_address(make_app):
    app = make_app(PROXY_FIX_HOPS=1, LOGIN_LIMIT_PER_ADDRESS=2)
    client = app.test_client()
    for name in ("u1", "u2"):
        assert login_forwarded_for(client, "9.9.9.9, 2.2.2.2", name).status_code == 401
    blocked = login_forwarded_for(client, "9.9.9.9, 2.2.2.2", "u3")
    assert blocked.status_code == 429 and "from your address" in blocked.text
    # The hop the client wrote itself (left of the proxy's) does not make a new address ...
    assert login_forwarded_for(client, "1.1.1.1, 2.2.2.2", "u4").status_code == 429
    # ... the one the proxy appended does.
    assert login_forwarded_for(client, "9.9.9.9, 3.3.3.3", "u5").status_code == 401
    assert stored_addresses(app) == ["2.2.2.2", "2.2.2.2", "3.3.3.3"]


def test_without_proxy_hops_the_forwarded_header_is_ignored(app, client):
    assert app.config["PROXY_FIX_HOPS"] == 0  # the default
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 2
    assert login_forwarded_for(client, "2.2.2.2", "u1").status_code == 401
    assert login_forwarded_for(client, "3.3.3.3", "u2").status_code == 401
    blocked = login_forwarded_for(client, "4.4.4.4", "u3")  # all of them are 127.0.0.1
    assert blocked.status_code == 429 and "from your address" in blocked.text
    assert stored_addresses(app) == ["127.0.0.1", "127.0.0.1"]


# 2. Rating or answering an item retired after its page was shown ------------------------------


def retire(app, key: str) -> int:
    """Retire the item ``key`` (as `content load` does when its card or family is gone)."""
    with app.app_context():
        item = db.session.scalar(select(Item).where(Item.key == key))
        item.retired = True
        db.session.commit()
        return item.id


def count_rows(app, model, item_id: int | None = None) -> int:
    with app.app_context():
        query = select(func.count()).select_from(model)
        if item_id is not None:
            query = query.where(model.item_id == item_id)
        return db.session.scalar(query)


def test_rating_a_card_retired_since_its_page_was_shown_is_a_404_and_saves_nothing(
        app, client, bank):
    register(client, "pat")
    page = client.get("/study").text
    retire(app, shown_key(page))
    response = rate_current(client, 3, page)
    assert response.status_code == 404
    assert GONE in response.text
    assert count_rows(app, Review) == count_rows(app, ReviewState) == 0


def test_answering_or_rating_a_skill_retired_since_its_page_was_shown_is_a_404(
        app, client, skill_bank):
    register(client, "pat")
    page = reach_first_skill(client)  # the cards before it were rated
    reviews, states = count_rows(app, Review), count_rows(app, ReviewState)
    item_id = retire(app, shown_key(page))
    answered = client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": "(2, 3)",
        "hints_used": "0"})
    assert answered.status_code == 404
    assert GONE in answered.text
    rated = rate_current(client, 3, page, answer="(2, 3)")
    assert rated.status_code == 404
    assert GONE in rated.text
    assert (count_rows(app, Review), count_rows(app, ReviewState)) == (reviews, states)
    assert count_rows(app, Review, item_id) == count_rows(app, ReviewState, item_id) == 0


# 3. The 500 page ------------------------------------------------------------------------------


@pytest.fixture
def failing_app(tmp_path):
    """An app that turns unhandled exceptions into its 500 page (TESTING would propagate
    them), with a page and an API path that fail."""
    application = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                              "PROPAGATE_EXCEPTIONS": False})

    def fail():
        raise RuntimeError("secret internals")

    application.add_url_rule("/fails", "fails", fail)
    application.add_url_rule("/api/fails", "api_fails", fail)
    return application


def test_an_unhandled_exception_gives_the_500_page(failing_app):
    response = failing_app.test_client().get("/fails")
    assert response.status_code == 500
    assert response.mimetype == "text/html"
    assert BROKE in response.text
    assert "secret internals" not in response.text and "Traceback" not in response.text


def test_the_500_page_of_a_signed_in_user_is_built_without_the_database(failing_app):
    # The database has no tables here, so loading the signed-in user fails, as it does when
    # the database is down or the pool is exhausted: the page used to need it for its header,
    # and the second failure left the server's bare "Internal Server Error".
    client = failing_app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = "1.1.1." + "n" * 32  # a well-formed login identity
    response = client.get("/fails")
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert BROKE in response.text and "Log in" in response.text


def test_an_unhandled_exception_under_api_gives_json(failing_app):
    response = failing_app.test_client().get("/api/fails")
    assert response.status_code == 500
    assert response.get_json() == {"error": BROKE, "status": 500}


# 4. /healthz with an empty alembic_version table ----------------------------------------------


def test_healthz_is_unavailable_when_the_schema_has_no_alembic_revision(app, client):
    """As after `quizapp db stamp base` on a migrated database."""
    head = ScriptDirectory(MIGRATIONS).get_current_head()
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM alembic_version"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {
        "status": "unavailable",
        "database": f"schema has no alembic revision, migrations at {head}: "
                    "run quizapp db upgrade"}
