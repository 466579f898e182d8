"""Practice sets' forms and addresses fed hostile values on both databases: never a 500, and
the well-formed rest of the body still reaches the use case."""

from __future__ import annotations

from test_web_hostile_inputs import HOSTILE
from webtest_support import csrf_token, register

SET = {"levels": "junior", "concepts": "", "families": "fresh_strides", "count": "4",
       "puzzles": "2", "seed": "77", "title": "Hostile", "time_limit": "5"}


def save(client) -> str:
    page = client.get("/sets/new", query_string=SET)
    response = client.post("/sets/new", data={"csrf_token": csrf_token(page.text), **SET})
    assert response.status_code == 303
    return response.location.rsplit("/", 1)[1]


def test_hostile_values_in_the_set_forms_never_cause_a_500(app, client, skill_bank):
    register(client, "sam")
    slug = save(client)
    token = csrf_token(client.get(f"/sets/{slug}").text)
    attempt = client.post(f"/sets/{slug}/take", data={"csrf_token": token}).location
    seen: dict[str, set[int]] = {}
    for value in HOSTILE:
        for field in SET:
            preview = client.get("/sets/new", query_string={**SET, field: value})
            assert preview.status_code < 500, (field, value[:40])
            saved = client.post("/sets/new", data={"csrf_token": token, **SET, field: value})
            assert saved.status_code < 500, (field, value[:40])
            seen.setdefault("new", set()).add(saved.status_code)
        renamed = client.post(f"/sets/{slug}/rename", data={"csrf_token": token, "title": value})
        assert renamed.status_code < 500, value[:40]
        seen.setdefault("rename", set()).add(renamed.status_code)
        for field, form in (("position", {"answer": "(1, 2)"}), ("answer", {"position": "0"}),
                            ("pick", {"position": "0", "answer": ""}),
                            ("grade", {"position": "1", "answer": ""})):
            answered = client.post(f"{attempt}/answer",
                                   data={"csrf_token": token, **form, field: value})
            assert answered.status_code < 500, (field, value[:40])
            seen.setdefault("answer", set()).add(answered.status_code)
        for path in (f"/sets/{value}", f"/sets/{slug}/attempts/{value}",
                     f"/sets/{slug}/download.{value}"):
            if value.strip("/"):
                assert client.get(path).status_code < 500, (path[:60],)
    # Some hostile bodies went past the forms to the use cases.
    assert 303 in seen["new"] and 303 in seen["rename"] and seen["answer"] & {303, 422}
    assert client.post(f"/sets/{slug}/reviews", data={"csrf_token": token}).status_code == 303
    assert client.post(f"{attempt}/finish", data={"csrf_token": token}).status_code == 303
