"""The question browser: filters, pages, safe Markdown, highlighted code, recorded output."""

from __future__ import annotations

import hashlib
import re

from webtest_support import make_card

from quizapp.extensions import db
from quizapp.services.bank_import import import_cards

LINK_RE = re.compile(r'class="card-link" href="/questions/([^"]+)"')


def listed(html: str) -> list[str]:
    return LINK_RE.findall(html)


def test_visitors_can_browse_without_an_account(client, bank):
    page = client.get("/questions")
    assert page.status_code == 200
    assert set(listed(page.text)) == {card.id for card in bank}
    assert "6 questions" in page.text


def test_filters_by_level_concept_importance_and_text(client, bank):
    assert set(listed(client.get("/questions?level=middle").text)) == {
        "delta-reshape", "epsilon-expand"}
    assert set(listed(client.get("/questions?concept=view").text)) == {
        "beta-view", "delta-reshape"}
    assert set(listed(client.get("/questions?importance=nice-to-know").text)) == {
        "epsilon-expand"}
    assert listed(client.get("/questions?level=middle&concept=view").text) == ["delta-reshape"]
    assert listed(client.get("/questions?q=ZETA").text) == ["zeta-channels"]
    assert listed(client.get("/questions?q=100%25").text) == []  # % is literal, not a wildcard
    assert "No question matches" in client.get("/questions?level=senior&concept=view").text


def test_unknown_filter_values_get_400_with_a_message(client, bank):
    for query, words in (("level=wizard", "Unknown level"), ("concept=nope", "Unknown concept"),
                         ("importance=vital", "Unknown importance"), ("q=" + "x" * 101, "at most"),
                         ("page=0", "from 1 to 100000"), ("page=999999", "from 1 to 100000")):
        response = client.get(f"/questions?{query}")
        assert response.status_code == 400, query
        assert words in response.text


def test_pages_split_long_lists(app, client, bank, clock):
    extra = [make_card(f"card-{n:03d}") for n in range(30)]
    with app.app_context():
        import_cards(db.session, [*bank, *extra], clock())
    first = client.get("/questions")
    second = client.get("/questions?page=2")
    assert len(listed(first.text)) == 25 and len(listed(second.text)) == 11
    assert not set(listed(first.text)) & set(listed(second.text))
    assert "Page 2 of 2" in second.text


def test_card_page_renders_markdown_safely_with_code_and_output(app, client, bank, clock):
    hostile = make_card(
        "hostile-card", question='Look: <script>alert("x")</script> and '
        '[click](javascript:alert(1)) and <img src=x onerror=alert(1)>\n\n```python\nx = 1\n```')
    with app.app_context():
        import_cards(db.session, [*bank, hostile], clock())
    page = client.get("/questions/hostile-card")
    assert page.status_code == 200
    assert "<script>" not in page.text.split("</head>")[1]
    assert "&lt;script&gt;" in page.text
    assert "javascript:" not in page.text.replace("[click](javascript:alert(1))", "")
    assert "<img" not in page.text
    assert '<pre class="highlight"><code><span class="n">x</span>' in page.text
    assert '<span class="kn">import</span>' in page.text  # the code sample is highlighted
    assert '<pre class="output">(3, 1)\n</pre>' in page.text
    assert "Saying views copy." in page.text and "Because." in page.text


def test_unknown_card_ids_get_404(client, bank):
    response = client.get("/questions/no-such-card")
    assert response.status_code == 404
    assert "There is no question with that id" in response.text
    assert client.get("/questions/" + "x" * 300).status_code == 404


def test_pygments_stylesheet_is_served_locally_under_a_url_naming_its_content(client):
    response = client.get("/assets/pygments.css")
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert ".highlight .k" in response.text and "prefers-color-scheme: dark" in response.text
    # It is cached for a day, so pages name the version: a changed theme is a new URL.
    digest = hashlib.sha256(response.data).hexdigest()[:12]
    page = client.get("/explorer").text
    assert f'href="/assets/pygments.css?v={digest}"' in page


def test_pages_use_no_third_party_resources(client, bank):
    for path in ("/", "/questions", "/questions/alpha-stride", "/explorer", "/login",
                 "/register"):
        html = client.get(path).text
        assert not re.search(r'(src|href)="(https?:)?//', html), path
    response = client.get("/questions")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_static_files_exist(client):
    for name in ("app.css", "study.js", "favicon.svg"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.data, name
        response.close()


def test_unknown_pages_and_wrong_methods_get_human_messages(client):
    missing = client.get("/nothing-here")
    assert missing.status_code == 404 and "There is nothing here" in missing.text
    wrong = client.delete("/questions")
    assert wrong.status_code == 405 and "does not accept" in wrong.text
