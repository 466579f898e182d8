"""Request rates on the open routes: the explorer (page and API together) and the question
list with its search, per address or per signed-in account; RateLimit headers, 429 past it."""

from __future__ import annotations

import pytest
from webtest_support import register

from quizapp import create_app
from quizapp.config import ConfigError

STRANGER = {"REMOTE_ADDR": "192.0.2.7"}


@pytest.fixture
def limited(make_app):
    return make_app(RATE_LIMIT_QUESTIONS="3/minute", RATE_LIMIT_EXPLAIN="3/minute")


def test_the_question_list_is_limited_per_address_with_standard_headers(limited):
    client = limited.test_client()
    for remaining in (2, 1, 0):
        response = client.get("/questions?q=stride")
        assert response.status_code == 200
        assert response.headers["RateLimit-Limit"] == "3"
        assert response.headers["RateLimit-Remaining"] == str(remaining)
        assert 0 < int(response.headers["RateLimit-Reset"]) <= 61  # whole seconds, rounded up
        assert response.headers["RateLimit-Policy"] == "3;w=60"
        assert "Retry-After" not in response.headers
    refused = client.get("/questions")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 61  # whole seconds, rounded up
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert "Too many requests from your address (the limit is 3 per 1 minute)" in refused.text
    assert "Try again in" in refused.text
    # Another address is counted apart; a card's page is not limited.
    assert limited.test_client().get("/questions", environ_base=STRANGER).status_code == 200
    card_page = client.get("/questions/no-such-card")
    assert card_page.status_code == 404 and "RateLimit-Limit" not in card_page.headers


def test_the_explorer_page_and_its_api_share_one_count(limited):
    client = limited.test_client()
    assert client.get("/explorer").status_code == 200
    assert client.get("/explorer?expr=torch.arange(6).view(2, 3)").status_code == 200
    assert client.post("/api/explain", json={"expr": "torch.arange(6)"}).status_code == 200
    refused = client.get("/api/explain?expr=torch.arange(6)")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert refused.json["status"] == 429
    assert refused.json["error"].startswith("Too many requests from your address")
    assert client.get("/questions").status_code == 200  # another count


def test_signed_in_people_are_counted_per_account_not_with_their_address(limited):
    stranger = limited.test_client()
    for _ in range(3):
        stranger.get("/questions")
    assert stranger.get("/questions").status_code == 429
    member = limited.test_client()  # the same address, behind the same NAT
    register(member, "ada")
    for _ in range(3):
        assert member.get("/questions").status_code == 200
    refused = member.get("/questions")
    assert refused.status_code == 429 and "from your account" in refused.text


def test_a_rate_that_is_not_one_stops_the_app_at_start(monkeypatch, tmp_path):
    monkeypatch.setenv("QUIZAPP_RATE_LIMIT_EXPLAIN", "thirty a minute")
    with pytest.raises(ConfigError, match="QUIZAPP_RATE_LIMIT_EXPLAIN must be a rate such as"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    monkeypatch.setenv("QUIZAPP_RATE_LIMIT_EXPLAIN", "5 per second; 100/hour")
    assert create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)}).config[
        "RATE_LIMIT_EXPLAIN"] == "5 per second; 100/hour"
