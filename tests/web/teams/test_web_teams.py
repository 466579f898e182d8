"""Teams on the web, on both databases: every route for the owner, a lead, a member, an
outsider (404) and a visitor signed out (login); join links through login and registration;
each refused code's own message; throttled wrong codes; account deletion by an owner."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select
from webtest_support import PASSWORD, csrf_token, register

from quizapp.extensions import db
from quizapp.models import Team, TeamJoinCode, TeamMember, User
from quizapp.services import teams

CODE_RE = re.compile(r'class="join-code">([A-Z0-9]{4}-[A-Z0-9]{4})<')


@dataclass
class Crew:
    team: int
    code: str  # as stored, without the dash
    clients: dict  # role -> test client ("owner", "lead", "member", "outsider", "visitor")
    ids: dict  # role -> user id


def token(client) -> str:
    """The CSRF token of the client's session, from a page that shows it signed in or out."""
    page = client.get("/login")
    if page.status_code == 302:  # signed in
        page = client.get("/teams")
    return csrf_token(page.text)


def post(client, path: str, **data):
    return client.post(path, data={"csrf_token": token(client), **data})


def make_team(client, name: str = "Kernels") -> int:
    response = post(client, "/teams", name=name, description="Strides first")
    assert response.status_code == 303, response.text
    return int(response.location.rsplit("/", 1)[1])


def make_code(client, team: int, **fields) -> str:
    response = post(client, f"/teams/{team}/code", **{"days": "14", **fields})
    assert response.status_code == 303, response.text
    shown = CODE_RE.search(client.get(f"/teams/{team}").text)
    assert shown, "the team page shows no code"
    return shown.group(1).replace("-", "")


def user_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == name))


@pytest.fixture
def crew(app) -> Crew:
    clients = {role: app.test_client() for role in ("owner", "lead", "member", "outsider",
                                                    "visitor")}
    for role, client in clients.items():
        if role != "visitor":
            assert register(client, role + "x").status_code == 302
    team = make_team(clients["owner"])
    code = make_code(clients["owner"], team)
    for role in ("lead", "member"):
        assert post(clients[role], f"/join/{code}").status_code == 303
    ids = {role: user_id(app, role + "x") for role in ("owner", "lead", "member", "outsider")}
    assert post(clients["owner"], f"/teams/{team}/members/{ids['lead']}/role",
                role="lead").status_code == 303
    return Crew(team=team, code=code, clients=clients, ids=ids)


def snapshot(app):
    """Everything a team route may change."""
    with app.app_context():
        return (db.session.execute(select(Team.id, Team.name, Team.description)).all(),
                sorted(db.session.execute(select(TeamMember.team_id, TeamMember.user_id,
                                                 TeamMember.role)).all()),
                db.session.execute(select(TeamJoinCode.code, TeamJoinCode.revoked_at,
                                          TeamJoinCode.uses).order_by(TeamJoinCode.id)).all())


# (method, path, form fields, {role: status} in the order tried): refusals come first, so
# each is tried on the team as it was; the first role allowed changes it.
ROUTES = [
    ("GET", "/teams", {}, {"owner": 200, "lead": 200, "member": 200, "outsider": 200}),
    ("POST", "/teams", {"name": "Another"}, {"owner": 303, "outsider": 303}),
    ("GET", "/teams/{team}", {}, {"outsider": 404, "owner": 200, "lead": 200, "member": 200}),
    ("POST", "/teams/{team}/edit", {"name": "Renamed", "description": ""},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 303}),
    ("POST", "/teams/{team}/delete", {"confirm_name": "Kernels"},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 303}),
    ("POST", "/teams/{team}/code", {"days": "7", "max_uses": "3"},
     {"outsider": 404, "member": 403, "lead": 303, "owner": 303}),
    ("POST", "/teams/{team}/code/revoke", {},
     {"outsider": 404, "member": 403, "lead": 303, "owner": 303}),
    ("POST", "/teams/{team}/members/{member}/role", {"role": "lead"},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 303}),
    ("POST", "/teams/{team}/members/{lead}/role", {"role": "member"},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 303}),
    ("POST", "/teams/{team}/members/{member}/remove", {},
     {"outsider": 404, "member": 403, "lead": 303}),
    ("POST", "/teams/{team}/members/{lead}/remove", {},
     {"outsider": 404, "member": 403, "owner": 303}),
    ("POST", "/teams/{team}/members/{owner}/remove", {},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 400}),
    ("POST", "/teams/{team}/hand-over", {"member_id": "{member}"},
     {"outsider": 404, "member": 403, "lead": 403, "owner": 303}),
    ("POST", "/teams/{team}/leave", {},
     {"outsider": 404, "owner": 409, "member": 303, "lead": 303}),
    ("GET", "/join", {}, {"owner": 200, "outsider": 200}),
    ("POST", "/join", {"code": "{code}"}, {"member": 303, "outsider": 303}),
    ("GET", "/join/{code}", {}, {"owner": 200, "member": 200, "outsider": 200}),
    ("POST", "/join/{code}", {}, {"member": 303, "outsider": 303}),
]


def fill(text: str, crew: Crew) -> str:
    return text.format(team=crew.team, code=crew.code, **crew.ids)


@pytest.mark.parametrize("method, path, fields, expected", ROUTES,
                         ids=[f"{m} {p} {sorted(f)}" for m, p, f, _e in ROUTES])
def test_each_route_for_each_role(app, crew, method, path, fields, expected):
    url = fill(path, crew)
    data = {name: fill(value, crew) for name, value in fields.items()}
    visitor = crew.clients["visitor"]
    before = snapshot(app)
    if method == "GET":
        response = visitor.get(url)
    else:
        response = post(visitor, url, **data)
    assert response.status_code == 302 and response.location.startswith("/login"), url
    if method == "GET":  # and back here after logging in
        assert parse_qs(urlsplit(response.location).query)["next"] == [url]
    assert snapshot(app) == before
    changed = False
    for role, status in expected.items():
        client = crew.clients[role]
        if method == "GET":
            response = client.get(url)
        else:
            response = post(client, url, **data)
        assert response.status_code == status, (role, url, response.text[:2000])
        if status == 403:
            assert "Only the team&#39;s owner" in response.text or \
                "Nobody can remove the team&#39;s owner" in response.text, response.text
        if status == 404 and "/teams/" in url:
            assert "no such team, or you are not a member of it" in response.text
        if status >= 400 or method == "GET" or changed:
            continue
        changed = True
        assert snapshot(app) != before or url.endswith(("/teams", "/join", f"/{crew.code}"))
        before = snapshot(app)


def test_refusals_change_nothing_and_outsiders_never_learn_the_team(app, crew):
    before = snapshot(app)
    outsider, member, lead = (crew.clients[r] for r in ("outsider", "member", "lead"))
    for client in (outsider, member, lead):
        post(client, f"/teams/{crew.team}/delete", confirm_name="Kernels")
        post(client, f"/teams/{crew.team}/hand-over", member_id=str(crew.ids["outsider"]))
        post(client, f"/teams/{crew.team}/members/{crew.ids['owner']}/remove")
    assert snapshot(app) == before
    for path in (f"/teams/{crew.team}", f"/teams/{crew.team + 999}", "/teams/2147483648"):
        page = outsider.get(path)
        assert page.status_code == 404 and "Kernels" not in page.text


def test_the_team_page_shows_each_role_what_it_may_do(crew):
    owner, lead, member = (crew.clients[r].get(f"/teams/{crew.team}").text
                           for r in ("owner", "lead", "member"))
    shown = f"{crew.code[:4]}-{crew.code[4:]}"
    assert shown in owner and shown in lead and shown not in member
    assert f"/join/{crew.code}" in lead and crew.code not in member
    for page in (owner, lead, member):
        assert "ownerx" in page and "leadx" in page and "memberx" in page
    assert "Make memberx a lead" in owner and "Make memberx a lead" not in lead
    assert "Remove memberx from the team" in lead and "Remove leadx" not in lead
    assert "Remove leadx from the team" in owner and "Remove ownerx" not in owner
    assert "Hand over" in owner and "Delete the team" in owner
    assert "Hand over" not in lead and "Delete the team" not in lead
    assert "Leave “Kernels”" in member and "Leave “Kernels”" not in owner
    listing = crew.clients["member"].get("/teams").text
    assert 'aria-current="page">Teams</a>' in listing
    assert f'href="/teams/{crew.team}">Kernels</a>' in listing


def test_a_join_link_leads_through_registration_and_back(app, crew):
    visitor = crew.clients["visitor"]
    response = visitor.get(f"/join/{crew.code}")
    assert response.status_code == 302
    login_page = visitor.get(response.location)
    assert "Log in to join the team, or create an account" in login_page.text
    # The login page hands the invitation on to registration.
    link = re.search(r'href="(/register\?next=[^"]+)"', login_page.text)
    assert link and parse_qs(urlsplit(link.group(1).replace("&amp;", "&")).query)["next"] == [
        f"/join/{crew.code}"]
    page = visitor.get(link.group(1).replace("&amp;", "&"))
    registered = visitor.post(link.group(1).replace("&amp;", "&"), data={
        "csrf_token": csrf_token(page.text), "username": "newbie", "password": PASSWORD,
        "confirm": PASSWORD})
    assert registered.status_code == 302 and registered.location == f"/join/{crew.code}"
    invitation = visitor.get(registered.location)
    assert invitation.status_code == 200 and "Join “Kernels”" in invitation.text
    joined = post(visitor, f"/join/{crew.code}")
    assert joined.status_code == 303 and joined.location == f"/teams/{crew.team}"
    assert "Welcome to “Kernels”" in visitor.get(joined.location).text


def test_a_join_link_leads_through_login_and_back(app, crew):
    visitor = app.test_client()
    response = visitor.get(f"/join/{crew.code}")
    logged_in = visitor.post(response.location, data={
        "csrf_token": csrf_token(visitor.get(response.location).text),
        "username": "outsiderx", "password": PASSWORD})
    assert logged_in.status_code == 302 and logged_in.location == f"/join/{crew.code}"
    assert "Join the team" in visitor.get(logged_in.location).text


def test_a_code_typed_while_signed_out_leads_through_login_to_its_invitation(app, crew):
    visitor = crew.clients["visitor"]
    typed = f" {crew.code[:4].lower()}-{crew.code[4:]} "
    response = post(visitor, "/join", code=typed)
    assert response.status_code == 302 and response.location.startswith("/login")
    assert parse_qs(urlsplit(response.location).query)["next"] == [f"/join/{crew.code}"]
    login_page = visitor.get(response.location)
    assert "Log in to join the team, or create an account" in login_page.text
    logged_in = visitor.post(response.location, data={
        "csrf_token": csrf_token(login_page.text), "username": "outsiderx",
        "password": PASSWORD})
    assert logged_in.status_code == 302 and logged_in.location == f"/join/{crew.code}"
    assert "Join “Kernels”" in visitor.get(logged_in.location).text


def test_an_invitation_posted_while_signed_out_comes_back_to_it(app, crew):
    """The invitation page was opened signed in, and the login ended before the button."""
    visitor, before = crew.clients["visitor"], snapshot(app)
    response = post(visitor, f"/join/{crew.code.lower()}")
    assert response.status_code == 302 and response.location.startswith("/login")
    assert parse_qs(urlsplit(response.location).query)["next"] == [f"/join/{crew.code}"]
    junk = post(visitor, "/join/%3Cscript%3E")
    assert parse_qs(urlsplit(junk.location).query)["next"] == ["/teams"]
    assert snapshot(app) == before  # no code was used up


@pytest.mark.parametrize("typed", ["", "ZZZZ", "/evil.example/x", "//evil.example",
                                   "ABCD\r\nEFGH", "A" * 200])
def test_junk_typed_while_signed_out_goes_nowhere_but_back(app, crew, typed):
    visitor = crew.clients["visitor"]
    response = post(visitor, "/join", code=typed)
    assert response.status_code == 302 and response.location.startswith("/login")
    assert parse_qs(urlsplit(response.location).query)["next"] == ["/teams"]


def test_a_typed_code_joins_in_any_case_with_or_without_the_dash(app, crew):
    outsider = crew.clients["outsider"]
    typed = f" {crew.code[:4].lower()}-{crew.code[4:]} "
    response = post(outsider, "/join", code=typed)
    assert response.status_code == 303 and response.location == f"/teams/{crew.team}"
    again = post(outsider, "/join", code=crew.code)
    assert again.status_code == 303
    assert "You are already a member of “Kernels”" in outsider.get(again.location).text


def test_each_refused_code_has_its_own_message(app, crew, clock):
    owner, outsider = crew.clients["owner"], crew.clients["outsider"]
    wrong = post(outsider, "/join", code="ZZZZ-2222")
    assert wrong.status_code == 404 and "No team has the join code ZZZZ-2222" in wrong.text
    malformed = outsider.get("/join/hello")
    assert malformed.status_code == 404 and "A join code is 8 letters and digits" in malformed.text
    once = make_code(owner, crew.team, max_uses="1")  # replaces crew.code
    revoked = outsider.get(f"/join/{crew.code}")
    assert revoked.status_code == 410 and "This join code was revoked" in revoked.text
    newbie = app.test_client()
    register(newbie, "newbie")
    assert post(newbie, f"/join/{once}").status_code == 303
    used_up = post(outsider, f"/join/{once}")
    assert used_up.status_code == 410 and "has been used up: it could be used once" in used_up.text
    fresh = make_code(owner, crew.team, days="2")
    clock.advance(days=2)
    expired = post(outsider, "/join", code=fresh)
    assert expired.status_code == 410 and "This join code expired on" in expired.text
    assert "Ask the team" in expired.text
    panel = owner.get(f"/teams/{crew.team}").text
    assert "no longer works: This join code expired" in panel


@pytest.fixture
def strict_app(make_app):
    return make_app(JOIN_CODE_LIMIT_PER_ADDRESS=2)


def test_wrong_codes_are_throttled_per_address_on_the_web(strict_app):
    owner, guesser = strict_app.test_client(), strict_app.test_client()
    register(owner, "ownerx")
    register(guesser, "guesser")
    code = make_code(owner, make_team(owner))
    for guess in ("ZZZZ2222", "ZZZZ3333"):
        assert post(guesser, "/join", code=guess).status_code == 404
    throttled = post(guesser, "/join", code=code)
    assert throttled.status_code == 429
    assert "Too many wrong join codes were tried from your address" in throttled.text
    assert 0 < int(throttled.headers["Retry-After"]) <= 15 * 60
    assert guesser.get(f"/join/{code}").status_code == 429  # looking a code up counts too
    other = strict_app.test_client()
    register(other, "elsewhere")
    joined = other.post("/join", data={"csrf_token": csrf_token(other.get("/join").text),
                                       "code": code},
                        environ_overrides={"REMOTE_ADDR": "198.51.100.9"})
    assert joined.status_code == 303


@pytest.mark.parametrize("fields, status, message", [
    ({"name": " "}, 400, "Give the team a name."),
    ({"name": "x" * 81}, 400, "at most 80 characters; this one has 81"),
    ({"name": "Fine", "description": "d" * 2001}, 400, "at most 2,000 characters"),
])
def test_a_team_with_bad_fields_is_refused_with_the_form_kept(crew, fields, status, message):
    owner = crew.clients["owner"]
    response = post(owner, "/teams", **fields)
    assert response.status_code == status and message in response.text
    assert [len(owner.get("/teams").text.split('href="/teams/')) - 1] == [1]


@pytest.mark.parametrize("fields, message", [
    ({"days": "0"}, "A code can last from 1 to 365 days."),
    ({"days": "ten"}, "Use a whole number"),
    ({"days": "14", "max_uses": "0"}, "A code can be used from 1 to 1,000 times."),
])
def test_bad_code_settings_keep_the_old_code(app, crew, fields, message):
    owner = crew.clients["owner"]
    response = post(owner, f"/teams/{crew.team}/code", **fields)
    assert response.status_code == 400 and message in response.text
    assert CODE_RE.search(response.text).group(1).replace("-", "") == crew.code


def test_the_owner_is_told_to_hand_over_before_deleting_the_account(app, crew):
    owner = crew.clients["owner"]
    settings = owner.get("/settings").text
    assert "You own the team “Kernels”. Hand it over to another member or delete it" in settings
    assert "You own the team" not in crew.clients["lead"].get("/settings").text
    refused = post(owner, "/settings/delete-account", password=PASSWORD,
                   confirm_username="ownerx")
    assert refused.status_code == 409
    assert "You own the team “Kernels”. Hand each over to another member or delete" in \
        refused.text
    assert user_id(app, "ownerx") is not None
    assert post(owner, f"/teams/{crew.team}/hand-over",
                member_id=str(crew.ids["lead"])).status_code == 303
    deleted = post(owner, "/settings/delete-account", password=PASSWORD,
                   confirm_username="ownerx")
    assert deleted.status_code == 303 and user_id(app, "ownerx") is None
    roles = {(row[1], row[2]) for row in snapshot(app)[1]}
    assert roles == {(crew.ids["lead"], "owner"), (crew.ids["member"], "member")}


def join_at_once(app, code: str, names: list[str]) -> list[int]:
    """Each named new account posts the join link at the same moment; the statuses."""
    clients = []
    for name in names:
        client = app.test_client()
        register(client, name)
        clients.append((client, token(client)))
    barrier = threading.Barrier(len(clients))
    statuses: list[int] = []

    def worker(client, csrf: str) -> None:
        barrier.wait()
        statuses.append(client.post(f"/join/{code}", data={"csrf_token": csrf}).status_code)

    threads = [threading.Thread(target=worker, args=pair) for pair in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == len(names), "a request did not finish"
    return sorted(statuses)


def test_people_joining_at_once_cannot_pass_the_codes_last_use(app, crew):
    once = make_code(crew.clients["owner"], crew.team, max_uses="2")
    assert join_at_once(app, once, ["racer1", "racer2", "racer3", "racer4"]) == [303, 303, 410, 410]
    with app.app_context():
        assert db.session.scalar(select(TeamJoinCode.uses).where(
            TeamJoinCode.code == once)) == 2
    assert len(snapshot(app)[1]) == 5


def test_people_joining_at_once_cannot_pass_the_team_size(app, crew, monkeypatch):
    monkeypatch.setattr(teams, "TEAM_SIZE_MAX", 4)  # three members: one place left
    assert join_at_once(app, crew.code, ["joiner1", "joiner2", "joiner3"]) == [303, 409, 409]
    assert len(snapshot(app)[1]) == 4
