"""Every route and every field it reads, fed hostile values on both databases: never a 500."""

from __future__ import annotations

import pytest
from webtest_support import (
    PASSWORD,
    csrf_token,
    post_settings,
    rate_current,
    reach_first_skill,
    register,
    study_token,
)

HOSTILE = [
    "", " ", "\t\n", "²", "١٢٣", "０.９", "123456", "9" * 40, "-" + "9" * 25, str(2**63), "-1", "0",
    "1e309", "nan", "sNaN", "-snan", "-inf", "0x10", "x" * 5000, "' OR 1=1 --", "<script>alert(1)</script>",
    "%00", "\x00", "\u202e\u200b", "🙂" * 300, "../../etc/passwd", "{{ 7 * 7 }}",
    "1" * 400,  # int() reads it, float() cannot: NumberRange raised OverflowError (a 500)
]
# The query parameters each GET route reads; a path parameter is marked "<path>".
GET_ROUTES = {
    "/": [], "/study": ["card", "skill", "list", "seen", "from", "undone"], "/study/history": ["page", "result"], "/study/stats": [], "/settings": [], "/register": [],
    "/settings/reviews.csv": [], "/settings/schedule.csv": [],
    "/settings/practice.csv": [], "/settings/teams.csv": [],
    "/healthz": [], "/assets/pygments.css": [], "/login": ["next"],
    "/questions": ["level", "concept", "importance", "mine", "q", "sort", "page"],
    "/questions/<string:key>": ["<path>"], "/static/<path:filename>": ["<path>"],
    "/puzzles": [], "/puzzles/<string:family>/<string:level>": ["<path>"],
    "/explorer": ["expr"], "/api/explain": ["expr"],
    "/study/answer": ["answer", "hints_used", "hint", "token"], "/study/suspended": [],
    "/study/history/<int(max=2147483647):review_id>": ["<path>"],
    # Practice sets: their forms are fed hostile values in test_web_sets_hostile.py.
    "/sets": [], "/sets/new": ["levels", "concepts", "families", "count", "puzzles", "seed",
                               "title", "time_limit"],
    "/sets/<slug>": ["<path>"], "/sets/<slug>/print": ["<path>"], "/sets/<slug>/take": ["<path>"],
    "/sets/<slug>/attempts/<int:attempt_id>": ["<path>"],
    "/sets/<slug>/download.<format_name>": ["<path>"],
    # Teams: their forms are fed hostile values in teams/test_web_teams_hostile.py.
    "/teams": [], "/teams/<int(max=2147483647):team_id>": ["<path>"], "/join": [],
    "/join/<code>": ["<path>"],
    # Tracks: their forms are fed hostile values in teams/test_web_tracks_hostile.py.
    "/teams/<int(max=2147483647):team_id>/tracks/new": ["<path>"],
    "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>": ["<path>"],
    "/progress": [], "/practice": ["level", "family"],
    "/practice/puzzle": ["level", "family", "mistakes"],
    "/practice/answers/<int(max=2147483647):attempt_id>": ["<path>"],
    # The lead's dashboard: its figures are tested in teams/test_dashboard_web.py.
    "/teams/<int(max=2147483647):team_id>/dashboard": ["<path>", "track", "sort", "page"],
    "/teams/<int(max=2147483647):team_id>/dashboard.csv": ["<path>", "track", "sort"],
}
POST_ROUTES = ("/register", "/login", "/logout", "/settings", "/settings/password",
               "/practice/answer",
               "/settings/delete-account", "/study/answer", "/study/rate", "/study/undo",
               "/study/suspend", "/study/resume",
               "/api/explain", "/sets/new", "/sets/<slug>/rename", "/sets/<slug>/delete",
               "/sets/<slug>/take", "/sets/<slug>/attempts/<int:attempt_id>/answer",
               "/sets/<slug>/attempts/<int:attempt_id>/finish", "/sets/<slug>/reviews",
               # Settings' sessions: no fields; an id not the account's gets 404.
               "/settings/sessions/<int:login_id>/end", "/settings/sessions/end-others",
               "/teams", "/teams/<int(max=2147483647):team_id>/edit",
               "/teams/<int(max=2147483647):team_id>/delete",
               "/teams/<int(max=2147483647):team_id>/code",
               "/teams/<int(max=2147483647):team_id>/code/revoke",
               "/teams/<int(max=2147483647):team_id>/members/<int(max=2147483647):member_id>/role",
               "/teams/<int(max=2147483647):team_id>/members/<int(max=2147483647):member_id>/remove",
               "/teams/<int(max=2147483647):team_id>/hand-over",
               "/teams/<int(max=2147483647):team_id>/leave", "/join", "/join/<code>",
               "/teams/<int(max=2147483647):team_id>/tracks", "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/edit", "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/delete",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/steps", "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/steps/<int(max=2147483647):step_id>/edit",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/steps/<int(max=2147483647):step_id>/move", "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/steps/<int(max=2147483647):step_id>/delete",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/steps/<int(max=2147483647):step_id>/reviews", "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/assignments",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/assignments/<int(max=2147483647):assignment_id>/edit",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/assignments/<int(max=2147483647):assignment_id>/delete",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/assignments/<int(max=2147483647):assignment_id>/people/<int(max=2147483647):user_id>/due",
               "/teams/<int(max=2147483647):team_id>/tracks/<int(max=2147483647):track_id>/assignments/<int(max=2147483647):assignment_id>/people/<int(max=2147483647):user_id>/delete")


# Per form route: the fields varied together (a password and its repeat), the well-formed body
# the hostile values go into, and the statuses that show a body got past form validation to the
# use case (so the test fails if every hostile body is stopped at the form).
ANONYMOUS_FORMS = {
    "/register": ([("username",), ("password", "confirm"), ("time_zone",),
                   ("utc_offset",)],
                  {"username": "newcomer", "password": PASSWORD, "confirm": PASSWORD,
                   "time_zone": "Europe/Berlin", "utc_offset": "60"}, {302}),
    "/login": ([("username",), ("password",)],
               {"username": "sam", "password": PASSWORD, "remember": "y"}, {302, 401, 429}),
}
ACCOUNT_FORMS = {
    "/settings": ([("desired_retention",), ("new_per_day",), ("reviews_per_day",),
                   ("maximum_interval_days",), ("new_from_level",), ("time_zone",)],
                  {"desired_retention": "0.9", "new_per_day": "20", "reviews_per_day": "200",
                   "maximum_interval_days": "36500", "new_from_level": "junior",
                   "time_zone": "UTC"}, {303}),
    "/settings/password": ([("current",), ("new", "confirm")],
                           {"current": PASSWORD, "new": PASSWORD, "confirm": PASSWORD}, {303}),
    # No hostile value is sam's password or name, so the account outlives the test; 400 is
    # the service's refusal too (a wrong password, another name).
    "/settings/delete-account": ([("password",), ("confirm_username",)],
                                 {"password": PASSWORD, "confirm_username": "sam"}, {400}),
    "/study/answer": ([("answer",), ("hints_used",), ("token",)],
                      {"answer": "(1, 2)", "hints_used": "0"}, {200, 422}),
    "/study/rate": ([("rating",), ("answer",), ("hints_used",), ("token",), ("then_list",)],
                    {"rating": "3", "answer": "", "hints_used": "0"}, {303}),
    "/study/undo": ([("review_id",), ("then_list",)], {"review_id": "1"}, {303, 404}),
    "/study/suspend": ([("item_id",), ("back",), ("then_list",)], {"item_id": "1"}, {303, 404}),
    "/study/resume": ([("item_id",), ("back",), ("then_list",)], {"item_id": "1"}, {303, 404}),
    "/practice/answer": ([("answer",), ("hints_used",), ("hint",), ("token",), ("level",),
                          ("family",), ("mistakes",)], {"answer": "(1, 2)", "hints_used": "0"},
                         {303, 422}),
}


def test_the_tables_cover_every_route(app):
    """A new route must be added here, so that its inputs are fed hostile values too."""
    rules = {(rule.rule, method) for rule in app.url_map.iter_rules()
             for method in rule.methods - {"HEAD", "OPTIONS"}}
    covered = {(route, "GET") for route in GET_ROUTES} | {(route, "POST") for route in POST_ROUTES}
    assert rules == covered


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "signed-in"])
def test_hostile_query_and_path_values_never_cause_a_500(client, bank, signed_in):
    """Signed in and not: /login and /register only read their query as a visitor."""
    if signed_in:
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


def post_hostile_values(route: str, fields: list[tuple[str, ...]], form: dict,
                        open_page) -> set[int]:
    """Each field group in turn set to each hostile value, posted from a page ``open_page()``
    returns as (client, html); every answer must be below 500. Returns the statuses seen."""
    statuses = set()
    for group in fields:
        for value in HOSTILE:
            client, page = open_page()
            body = {**form, "csrf_token": csrf_token(page)}
            if route.startswith(("/study/", "/practice/")) and route != "/study/undo":
                body["token"] = study_token(page)
            body.update({name: value for name in group})
            response = client.post(route, data=body)
            assert response.status_code < 500, (route, group, value[:40])
            statuses.add(response.status_code)
    return statuses


@pytest.mark.parametrize("route", list(ANONYMOUS_FORMS))
def test_hostile_values_in_the_anonymous_forms_never_cause_a_500(app, skill_bank, route):
    fields, form, through = ANONYMOUS_FORMS[route]
    register(app.test_client(), "sam")  # /login then has an account to try

    def open_page():  # a new visitor each time: a registration signs its client in
        visitor = app.test_client()
        return visitor, visitor.get(route).text

    statuses = post_hostile_values(route, fields, form, open_page)
    assert statuses & through, statuses  # some hostile bodies reached the use case


@pytest.mark.parametrize("route", list(ACCOUNT_FORMS))
def test_hostile_values_in_the_account_forms_never_cause_a_500(app, client, skill_bank, route):
    fields, form, through = ACCOUNT_FORMS[route]
    # A wrong current password counts as a failed login: let every hostile value reach the check.
    app.config.update(LOGIN_LIMIT_PER_ACCOUNT=1000, LOGIN_LIMIT_PER_ADDRESS=1000)
    register(client, "sam")
    if route == "/study/undo":
        rate_current(client, 3)
    if route == "/study/rate":  # every then_list value is a rating that goes through
        post_settings(client, new_per_day="100")

    def open_page():  # a puzzle for /study/answer, so answers reach the checker
        if route == "/practice/answer":
            return client, client.get("/practice/puzzle?family=fresh_strides").text
        page = reach_first_skill(client) if route == "/study/answer" else client.get("/study").text
        return client, page

    statuses = post_hostile_values(route, fields, form, open_page)
    assert statuses & through, statuses


def test_hostile_json_never_causes_a_500(client):
    bodies = [{"expr": value} for value in HOSTILE] + [
        {"expr": 7}, {"expr": None}, {"expr": ["torch.arange(3)"]}, {}, [], "text", 3]
    for body in bodies:
        response = client.post("/api/explain", json=body)
        assert response.status_code < 500, body
    assert client.post("/logout", data={}).status_code < 500


@pytest.mark.parametrize("depth", [50, 2_000, 30_000])
def test_deeply_nested_json_is_a_400_not_a_500(client, depth):
    # 2,000 nested arrays are 4 KB, far under the body cap, and deeper than Python's recursion
    # limit lets the json module read.
    response = client.post("/api/explain", data="[" * depth + "]" * depth,
                           content_type="application/json")
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]
