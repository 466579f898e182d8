"""The explorer page and its JSON API show the engine's explain() document, and bad input is 4xx."""

from __future__ import annotations

import html

import pytest
from markupsafe import escape

from quizapp.engine import explain

CHAIN = "torch.arange(24.).view(2, 3, 4).transpose(0, 1)"
REFUSED = "torch.arange(24).view(2, 3, 4).transpose(0, 1).view(24)"


def tuple_text(values: list[int]) -> str:
    inner = ", ".join(str(v) for v in values)
    return f"({inner},)" if len(values) == 1 else f"({inner})"


def test_explorer_form_is_open_to_visitors(client):
    page = client.get("/explorer")
    assert page.status_code == 200
    assert 'name="expr"' in page.text and "Try one" in page.text


def test_explorer_shows_every_step_with_its_layout_and_why(client):
    doc = explain(CHAIN)
    assert doc["error"] is None and len(doc["steps"]) == 3
    page = client.get("/explorer", query_string={"expr": CHAIN})
    assert page.status_code == 200
    text = html.unescape(page.text)
    for step in doc["steps"]:
        assert step["code"] in text
        assert tuple_text(step["shape"]) in text and tuple_text(step["stride"]) in text
        assert step["why"] in text


def test_explorer_shows_why_a_view_was_refused(client):
    doc = explain(REFUSED)
    assert doc["error"]["type"] == "RuntimeError"
    text = html.unescape(client.get("/explorer", query_string={"expr": REFUSED}).text)
    assert doc["error"]["message"] in text
    assert doc["steps"][-1]["why"] in text
    if doc["error"].get("why"):
        assert doc["error"]["why"] in text


def test_input_outside_the_language_is_answered_not_run(client):
    hostile = "__import__('os').system('echo hacked')"
    doc = explain(hostile)
    assert doc["error"]["type"] == "ExpressionError"
    page = client.get("/explorer", query_string={"expr": hostile})
    assert page.status_code == 422
    assert "ExpressionError" in page.text
    api = client.get("/api/explain", query_string={"expr": hostile})
    assert api.status_code == 422 and api.get_json() == doc


@pytest.mark.parametrize("expr", ["torch.arange(6).view(2.5)", "torch.arange(6).view(2, 3",
                                  "torch.arange(10**30)", "torch.arange(6)" + ".t()" * 70])
def test_a_language_error_mid_chain_is_422_and_keeps_the_steps_before_it(client, expr):
    doc = explain(expr)
    assert doc["error"]["type"] == "ExpressionError", doc["error"]
    response = client.post("/api/explain", json={"expr": expr})
    assert response.status_code == 422 and response.get_json() == doc
    page = client.get("/explorer", query_string={"expr": expr})
    assert page.status_code == 422 and escape(doc["error"]["message"]) in page.text


def test_a_chain_torch_refuses_is_an_answer_not_an_error(client):
    doc = explain(REFUSED)
    assert doc["error"]["type"] == "RuntimeError"
    assert client.get("/explorer", query_string={"expr": REFUSED}).status_code == 200
    assert client.get("/api/explain", query_string={"expr": REFUSED}).status_code == 200


def test_explorer_bad_input_gets_400(client):
    assert client.get("/explorer?expr=").status_code == 400
    long = client.get("/explorer", query_string={"expr": "x" * 2001})
    assert long.status_code == 400 and "at most 2000 characters" in long.text


def test_api_returns_the_explain_document(client):
    assert client.get("/api/explain", query_string={"expr": CHAIN}).get_json() == explain(CHAIN)
    posted = client.post("/api/explain", json={"expr": REFUSED})
    assert posted.status_code == 200 and posted.get_json() == explain(REFUSED)


def test_api_bad_input_gets_json_4xx(client):
    missing = client.get("/api/explain")
    assert missing.status_code == 400 and "expr" in missing.get_json()["error"]
    not_json = client.post("/api/explain", data="expr=1", content_type="text/plain")
    assert not_json.status_code == 400 and "JSON object" in not_json.get_json()["error"]
    wrong_type = client.post("/api/explain", json={"expr": ["torch.arange(3)"]})
    assert wrong_type.status_code == 400
    too_long = client.post("/api/explain", json={"expr": "x" * 3000})
    assert too_long.status_code == 400 and "at most" in too_long.get_json()["error"]
    huge = client.post("/api/explain", data=b'{"expr": "' + b"a" * 100_000 + b'"}',
                       content_type="application/json")
    assert huge.status_code == 413 and huge.get_json()["status"] == 413
    unknown = client.get("/api/nothing")
    assert unknown.status_code == 404 and unknown.is_json
