"""The question browser: filters, pages, safe Markdown, highlighted code, recorded output."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

from webtest_support import concepts_for, make_card, register

from quizapp.content.model import FollowUp
from quizapp.extensions import db
from quizapp.services.bank_import import import_cards, import_concepts

LINK_RE = re.compile(r'class="card-link" href="/questions/([^"?]+)')


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


SEARCH_BANK = [
    make_card("layout-channels", title="What is `channels_last`?",
              question="How does a channels_last tensor store NCHW data?",
              concepts=("channels-last",)),
    make_card("reshape-copy", title="Does reshape() return a view or a copy?",
              question="When does reshape copy?", concepts=("reshape",)),
    make_card("transpose-memory", title="What does transposing a matrix do to its memory?",
              question="Take `x.t()`: what changes?", concepts=("stride",)),
    make_card("unrelated", title="Storage offsets of a slice", question="Where does it start?",
              concepts=("storage-offset",)),
    make_card("window", title="Windows with `as_strided`",
              question="Which `as_strided` call allocates no new memory for its consumers?",
              concepts=("stride",)),
]


def search(client, query: str, **filters: str) -> list[str]:
    response = client.get("/questions", query_string={"q": query, **filters})
    assert response.status_code == 200, (query, response.status_code)
    return listed(response.text)


def load_search_bank(app, clock) -> None:
    movedim = FollowUp("When is `movedim` clearer than `permute`?", "When dims move far.")
    cards = [replace(card, follow_ups=(movedim,)) if card.id == "transpose-memory" else card
             for card in SEARCH_BANK]
    with app.app_context():
        import_cards(db.session, cards, clock())
        import_concepts(db.session, concepts_for(cards))


def test_search_takes_words_in_any_order_and_their_other_forms(app, client, clock):
    """One literal phrase in title and question found nothing for
    "channels last", "view vs reshape", "stride of a transpose" or "movedim"."""
    load_search_bank(app, clock)
    assert search(client, "channels last") == ["layout-channels"]  # "_" is a space
    assert search(client, "CHANNELS-LAST") == ["layout-channels"]
    assert search(client, "view vs reshape") == ["reshape-copy"]  # "vs" says nothing
    assert search(client, "reshape view") == ["reshape-copy"]  # any order
    assert search(client, "transpose") == ["transpose-memory"]  # "transposing"
    assert search(client, "movedim") == ["transpose-memory"]  # a follow-up's question
    assert search(client, "storage offset") == ["unrelated"]
    assert search(client, "channels reshape") == []  # every word, not any
    assert search(client, "100%") == []
    # Punctuation alone is looked for as typed, in titles and questions.
    assert search(client, "()") == ["reshape-copy", "transpose-memory"]


def test_names_are_one_term_and_words_match_from_their_start(app, client, clock):
    """Found on a retest: "as_strided" lost its "as" (a small word) and found every
    "strided"; "cat" matched inside "allocates", "sum" inside "consumers", and t() every t;
    "copy" and "copies" gave different lists."""
    load_search_bank(app, clock)
    assert search(client, "as_strided") == ["window"]
    assert search(client, "strided")[0] == "window"  # and every "stride", title hits first
    assert search(client, "torch.cat") == search(client, "cat") == []  # not in "allocates"
    assert search(client, "sum") == []  # not in "consumers"
    assert search(client, "t()") == search(client, ".T") == ["transpose-memory"]  # x.t() only
    assert search(client, "copy") == search(client, "copies") == search(client, "copying")
    assert "reshape-copy" in search(client, "copies")


def test_cards_with_every_word_in_the_title_come_first(app, client, clock):
    load_search_bank(app, clock)
    # "slice" is in the last card's title, and in an earlier card only inside its text.
    assert search(client, "slice") == ["unrelated"]
    changed = [replace(card, basics="A slice of a contiguous tensor may not be contiguous.")
               if card.id == "reshape-copy" else card for card in SEARCH_BANK]
    with app.app_context():
        import_cards(db.session, changed, clock())  # content load: the search text follows
    assert listed(client.get("/questions").text).index("reshape-copy") < listed(
        client.get("/questions").text).index("unrelated")  # the bank's own order
    assert search(client, "slice") == ["unrelated", "reshape-copy"]


def test_an_empty_search_offers_the_spelling_the_bank_uses_and_a_wider_search(app, client,
                                                                                clock):
    load_search_bank(app, clock)
    page = client.get("/questions", query_string={"q": "chanels", "level": "senior"}).text
    assert "No question matches" in page
    assert re.search(r"Did you mean <a href=\"[^\"]*q=channels[^\"]*\">“channels”</a>", page)
    assert "in every level, concept and importance</a>" not in page  # it finds nothing either
    wider = client.get("/questions", query_string={"q": "channels", "level": "senior"}).text
    assert "in every level, concept and importance</a> (1 question)" in wider
    # A word some card has (in an answer) is not "corrected"; nothing close, no suggestion.
    assert "Did you mean" not in client.get("/questions?q=movedim+slice").text
    assert "Did you mean" not in client.get("/questions?q=qwertyuiop").text
    # Nearly the same word, not another one.
    for query in ("noncontiguous", "tensorflow", "fancy", "viewss2"):
        assert "Did you mean" not in client.get("/questions", query_string={"q": query}).text


def test_the_page_title_names_the_filters_and_levels_may_be_capitalised(client, bank):
    page = client.get("/questions?level=Senior&importance=Should+know&q=view").text
    assert "<title>Questions: senior, should know · “view”" in page
    assert 'value="senior" selected' in page
    shown = client.get("/questions?concept=Storage+offset")  # as the list shows the tag
    assert shown.status_code == 200 and listed(shown.text) == ["gamma-offset"]


def test_the_filter_form_is_not_restored_from_history(client, bank):
    """After Back the browser showed the filters of the page left above this list's results:
    the form is autocomplete=off and reset when shown from cache."""
    form = re.search(r'<form [^>]*class="filters"[^>]*>', client.get("/questions").text).group(0)
    assert 'autocomplete="off"' in form and "data-reset-on-show" in form


def test_the_migration_fills_the_search_text_as_content_load_writes_it(app, bank, clock):
    """2d9c7f4b6e81 fills card.search_text for cards stored before it with a frozen copy of
    compute_search_text: on the real bank, down and up again gives what content load wrote."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import select
    from webtest_support import MIGRATIONS

    from quizapp.content import load_cards
    from quizapp.models import Card

    real = load_cards(Path(__file__).resolve().parents[3] / "content")
    with app.app_context():
        import_cards(db.session, real, clock())
        import_concepts(db.session, concepts_for(real))
        columns = select(Card.key, Card.search_text, Card.search_title)
        written = {key: (text, title) for key, text, title in db.session.execute(columns)}
        assert len(written) == len(real) + len(bank)
        assert all(text.strip() and title.strip() for text, title in written.values())
        assert " channels last " in written["channels-last-nchw-strides"][0]
        db.session.remove()  # PostgreSQL: the ALTER TABLEs wait for no open transaction
        downgrade(directory=MIGRATIONS, revision="8b2f4d6e1a37")
        upgrade(directory=MIGRATIONS)
        db.session.expire_all()
        assert {key: (text, title) for key, text, title in db.session.execute(columns)} == written


def test_a_card_opened_from_a_filtered_list_leads_back_to_that_list(client, bank):
    """Found browsing: "← All questions" dropped the filters the card was found with."""
    page = client.get("/questions?level=middle&q=reshape&page=1").text
    link = re.search(r'class="card-link" href="(/questions/delta-reshape[^"]*)"', page).group(1)
    card = client.get(link.replace("&amp;", "&")).text
    back = re.search(r'<p class="crumbs"><a href="([^"]+)">([^<]+)</a>', card)
    assert back.group(2) == "← Back to the list"
    assert back.group(1).replace("&amp;", "&") == "/questions?level=middle&q=reshape&page=1"
    plain = client.get("/questions/delta-reshape").text
    assert '<p class="crumbs"><a href="/questions">← All questions</a>' in plain
    # A crafted "from" leads only to a question list: other names and huge values are dropped.
    crafted = client.get("/questions/delta-reshape", query_string={
        "from": "next=https://evil.example&level=junior&q=" + "x" * 300}).text
    assert '<p class="crumbs"><a href="/questions?level=junior">' in crafted


def test_an_unknown_question_offers_the_question_list(client, bank):
    page = client.get("/questions/no-such-card")
    assert page.status_code == 404
    assert '<a class="button ghost" href="/questions">Browse the questions</a>' in page.text
    assert "Browse the questions" not in client.get("/no-such-page").text


def test_a_query_is_at_most_twelve_terms_of_six_words(client, bank):
    """Each unknown word of an empty search is looked up once for a suggestion: a long query
    is cut, so its cost is bounded whatever is typed."""
    from quizapp.services.store.search_text import compute_search_terms

    terms = compute_search_terms("_".join("abcdefghij") + " " + " ".join(f"w{n}" for n in range(30)))
    assert len(terms) == 12 and terms[0] == tuple("abcdef")
    assert all(len(term) <= 6 for term in terms)
    response = client.get("/questions", query_string={"q": "zq_" * 33})
    assert response.status_code == 200 and "No question matches" in response.text


def test_a_concept_tag_is_searched_with_the_cards_text(app, client, clock):
    """The tags are part of the stored search text: a card found by its tag alone."""
    card = make_card("tagged", title="Writing through a slice", question="What changes?",
                     concepts=("in-place-aliasing",))
    with app.app_context():
        import_cards(db.session, [card], clock())
        import_concepts(db.session, concepts_for([card]))
    assert search(client, "aliasing") == ["tagged"]
    assert search(client, "in place aliasing") == ["tagged"]


def test_a_card_page_outline_nests_its_parts_and_every_part_can_be_linked(client, bank):
    page = client.get("/questions/beta-view").text
    headings = re.findall(r'<h([1-6])[^>]*>(.*?)</h\1>', page.split('<main', 1)[1], re.S)
    outline = [(int(level), re.sub(r"<[^>]+>", "", text).strip()) for level, text in headings]
    assert outline == [
        (1, "Question beta-view"), (2, "Question"), (2, "In 20 seconds"), (2, "In 50 seconds"),
        (2, "Code"), (2, "Go deeper by level"), (3, "Junior"), (3, "Middle"), (3, "Senior"),
        (3, "Principal"), (2, "Follow-up questions (2)"), (2, "Red flags (2)")]
    for part in ("in-20-seconds", "in-50-seconds", "code", "go-deeper", "go-deeper-junior",
                 "go-deeper-principal", "follow-ups", "red-flags"):
        assert len(re.findall(rf'\sid="{part}"', page)) == 1, part
    # A study page's answer has no ids: a URL naming a part would make the browser open it.
    register(client, "sam")
    study = client.get("/study?card=beta-view").text
    assert "Red flags (2)" in study and 'id="red-flags"' not in study and 'id="code"' not in study
