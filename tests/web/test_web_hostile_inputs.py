"""Every route and every field it reads, fed hostile values on both databases: never a 500."""

from __future__ import annotations

import pytest
from webtest_support import PASSWORD, csrf_token, register, study_token

HOSTILE = [
    "", " ", "\t\n", "²", "١٢٣", "０.９", "9" * 40, "-" + "9" * 25, str(2**63), "-1", "0",
    "1e309", "nan", "-inf", "0x10", "x" * 5000, "' OR 1=1 --", "<script>alert(1)</script>",
    "%00", "\x00", "\u202e\u200b", "🙂" * 300, "../../etc/passwd", "{{ 7 * 7 }}",
]
# The query parameters each GET route reads; a path parameter is marked "<path>".
GET_ROUTES = {
    "/": [], "/study": [], "/study/history": [], "/settings": [], "/register": [],
    "/healthz": [], "/assets/pygments.css": [], "/login": ["next"],
    "/questions": ["level", "concept", "importance", "q", "page"],
    "/questions/<string:key>": ["<path>"], "/static/<path:filename>": ["<path>"],
    "/explorer": ["expr"], "/api/explain": ["expr"],
}
POST_ROUTES = ("/register", "/login", "/logout", "/settings", "/settings/password",
               "/study/answer", "/study/rate", "/study/undo", "/api/explain")


def valid_forms(page: str) -> dict[str, dict[str, str]]:
    """A well-formed body for each form route, from a study page of the signed-in user."""
    token = study_token(page)
    return {
        "/register": {"username": "newcomer", "password": PASSWORD, "confirm": PASSWORD},
        "/login": {"username": "sam", "password": PASSWORD, "remember": "y"},
        "/settings": {"desired_retention": "0.9", "new_per_day": "20", "reviews_per_day": "200",
                      "utc_offset_minutes": "0"},
        "/settings/password": {"current": PASSWORD, "new": PASSWORD, "confirm": PASSWORD},
        "/study/answer": {"token": token, "answer": "(1, 2)", "hints_used": "0"},
        "/study/rate": {"token": token, "rating": "3", "answer": "", "hints_used": "0"},
        "/study/undo": {"review_id": "1"},
    }


def test_the_tables_cover_every_route(app):
    """A new route must be added here, so that its inputs are fed hostile values too."""
    rules = {(rule.rule, method) for rule in app.url_map.iter_rules()
             for method in rule.methods - {"HEAD", "OPTIONS"}}
    covered = {(route, "GET") for route in GET_ROUTES} | {(route, "POST") for route in POST_ROUTES}
    assert rules == covered


def test_hostile_query_and_path_values_never_cause_a_500(client, bank):
    register(client, "sam")
    sent = 0
    for route, params in GET_ROUTES.items():
        for param in params:
            for value in HOSTILE:
                if param == "<path>":
                    prefix = route.split("<", 1)[0]
                    response = client.get(prefix + value) if value.strip("/") else None
                else:
                    response = client.get(route, query_string={param: value})
                if response is not None:
                    sent += 1
                    assert response.status_code < 500, (route, param, value[:40])
    assert sent > 150


@pytest.mark.parametrize("route", [r for r in POST_ROUTES if r not in ("/logout", "/api/explain")])
def test_hostile_form_values_never_cause_a_500(client, bank, route):
    register(client, "sam")
    page = client.get("/study").text
    form = valid_forms(page)[route]
    for field in form:
        for value in HOSTILE:
            body = {**form, field: value, "csrf_token": csrf_token(page)}
            response = client.post(route, data=body)
            assert response.status_code < 500, (route, field, value[:40])
            page = client.get("/study").text  # a fresh token, in case that post was taken


def test_hostile_json_never_causes_a_500(client):
    bodies = [{"expr": value} for value in HOSTILE] + [
        {"expr": 7}, {"expr": None}, {"expr": ["torch.arange(3)"]}, {}, [], "text", 3]
    for body in bodies:
        response = client.post("/api/explain", json=body)
        assert response.status_code < 500, body
    assert client.post("/logout", data={}).status_code < 500
