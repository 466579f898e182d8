"""The team forms and addresses fed hostile values on both databases: never a 500, and the
well-formed rest of the body still reaches the use case."""

from __future__ import annotations

from test_web_hostile_inputs import HOSTILE
from webtest_support import csrf_token, register


def test_hostile_values_in_the_team_forms_never_cause_a_500(app, client):
    app.config.update(JOIN_CODE_LIMIT_PER_ADDRESS=100_000)  # every guess reaches the look-up
    register(client, "sam")
    token = csrf_token(client.get("/teams").text)
    made = client.post("/teams", data={"csrf_token": token, "name": "Hostile"})
    assert made.status_code == 303
    team = made.location
    seen: dict[str, set[int]] = {}

    def send(kind: str, path: str, **data) -> None:
        response = client.post(path, data={"csrf_token": token, **data})
        assert response.status_code < 500, (path[:60], data)
        seen.setdefault(kind, set()).add(response.status_code)

    for value in HOSTILE:
        send("edit", f"{team}/edit", name=value, description="fine")
        send("edit", f"{team}/edit", name="Hostile", description=value)
        send("code", f"{team}/code", days=value)
        send("code", f"{team}/code", days="3", max_uses=value)
        send("role", f"{team}/members/1/role", role=value)
        send("hand-over", f"{team}/hand-over", member_id=value)
        send("delete", f"{team}/delete", confirm_name=value)
        send("join", "/join", code=value)
        if value.strip("/"):
            send("join", f"/join/{value}")
            for path in (f"/teams/{value}", f"/join/{value}", f"{team}/members/{value}/remove"):
                assert client.get(path).status_code < 500, path[:60]
        send("create", "/teams", name=value, description=value)
    # Some hostile bodies went past the forms to the use cases.
    assert 303 in seen["edit"] and 303 in seen["code"] and 404 in seen["join"]
    assert seen["role"] == {400} and seen["hand-over"] == {400, 404}  # 404: no such member
    assert seen["delete"] == {400}  # no hostile value is the team's name
