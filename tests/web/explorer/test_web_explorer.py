"""The explorer page and its JSON API show the engine's explain() document, and bad input is 4xx."""

from __future__ import annotations

import ast
import html

import pytest
from markupsafe import escape

from quizapp.engine import explain
from quizapp.web.explorer.routes import format_values

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
    for empty in ("", "   "):  # the form's one field: the page does not name the URL parameter
        page = client.get("/explorer", query_string={"expr": empty})
        assert page.status_code == 400
        assert "Type a chain to explain, such as torch.arange(6).view(2, 3)." in page.text
        assert "&#39;expr&#39;" not in page.text and "'expr'" not in page.text
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


def test_the_steps_have_a_heading_that_names_the_table(client):
    page = client.get("/explorer", query_string={"expr": CHAIN}).text
    assert '<h2 id="steps-heading" class="explorer-heading">Steps</h2>' in page
    assert '<table class="table explain" aria-labelledby="steps-heading">' in page
    assert page.index("Steps</h2>") < page.index("<table") < page.index("Values of the last step</h2>")
    # Each value names its column, for the card a step becomes on a narrow screen (explorer.css).
    for label in ("Shape", "Stride", "Offset", "Contiguous", "Storage", "dtype"):
        assert page.count(f'data-label="{label}"') == 3


def test_the_explorer_stylesheet_is_linked_and_served(client):
    page = client.get("/explorer").text
    assert '<link rel="stylesheet" href="/static/explorer.css">' in page
    response = client.get("/static/explorer.css")
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert "@media (max-width: 1023.98px)" in response.text
    response.close()


def test_values_print_one_row_per_line_on_the_page(client):
    expr = "torch.arange(24.).view(2, 3, 4).transpose(0, 2).reshape(4, 6)"
    page = client.get("/explorer", query_string={"expr": expr}).text
    assert ('<pre class="output values">[[ 0.0, 12.0,  4.0, 16.0,  8.0, 20.0],\n'
            " [ 1.0, 13.0,  5.0, 17.0,  9.0, 21.0],\n"
            " [ 2.0, 14.0,  6.0, 18.0, 10.0, 22.0],\n"
            " [ 3.0, 15.0,  7.0, 19.0, 11.0, 23.0]]</pre>") in page
    refused = client.get("/explorer", query_string={"expr": REFUSED}).text
    assert "Values of the last step" not in refused and "<pre" not in refused


@pytest.mark.parametrize(("values", "text"), [
    (3.0, "3.0"),
    (True, "True"),
    ([], "[]"),
    ([0.5, -1.0, 10.0], "[0.5, -1.0, 10.0]"),  # 1-d: one line, as tolist() prints it
    ([True, False], "[True, False]"),
    ([[], []], "[[],\n []]"),
    ([[1, -20], [300, 4]], "[[  1, -20],\n [300,   4]]"),
    ([[[0, 1], [2, 3]], [[4, 5], [6, 7]]],
     "[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]"),
    ([[[[1.5]], [[2.0]]]], "[[[[1.5]],\n\n  [[2.0]]]]"),  # one blank line between blocks, at most
])
def test_format_values_prints_one_innermost_list_per_line(values, text):
    assert format_values(values) == text


def test_format_values_follows_the_engine_at_any_depth():
    doc = explain("torch.arange(4.).view(" + "1, " * 23 + "2, 2)")
    assert doc["error"] is None and len(doc["steps"][-1]["shape"]) == 25  # the engine's most
    lines = format_values(doc["values"]).split("\n")
    assert lines == ["[" * 25 + "0.0, 1.0],", " " * 24 + "[2.0, 3.0" + "]" * 25]
    for expr in (CHAIN, "torch.arange(6).view(1, 2, 1, 3)", "torch.zeros(2, 0, 3)",
                 "torch.ones(3, 1, dtype=torch.bool)", "torch.tensor(7)"):
        values = explain(expr)["values"]
        printed = format_values(values)
        assert ast.literal_eval(printed) == values, expr  # the text is a Python literal
        rows = [line for line in printed.split("\n") if line]
        assert len(rows) == max(1, count_rows(values)), expr


def count_rows(values: object) -> int:
    """How many innermost lists ``values`` holds (a 1-d list is one, a scalar none)."""
    if not isinstance(values, list):
        return 0
    if not any(isinstance(item, list) for item in values):
        return 1
    return sum(count_rows(item) for item in values)
