"""Study controls for assistive technology: names that match what is shown, described intervals,
and single-key shortcuts a person can turn off (WCAG 2.5.3, 2.1.4)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from webtest_support import (
    READABLE,
    csrf_token,
    post_settings,
    reach_first_skill,
    register,
    study_token,
)

from quizapp.web.rendering.filters import format_spoken_interval

# A well-formed answer of each kind (right or wrong does not matter): it is judged, not refused.
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}


class Elements(HTMLParser):
    """Every element's attributes and its text as an accessible name reads it: the text of its
    descendants, leaving out subtrees marked aria-hidden="true"."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[dict] = []
        self.open: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        hidden_above = any(e["attrs"].get("aria-hidden") == "true" for e in self.open)
        element["hidden"] = hidden_above or element["attrs"].get("aria-hidden") == "true"
        self.found.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            if not any(e["hidden"] for e in self.open[self.open.index(element):]):
                element["text"] += data

    def by_id(self, element_id: str) -> dict:
        matches = [e for e in self.found if e["attrs"].get("id") == element_id]
        assert len(matches) == 1, (element_id, len(matches))
        return matches[0]

    def rate_buttons(self) -> list[dict]:
        return [e for e in self.found if e["tag"] == "button" and "rate" in
                e["attrs"].get("class", "").split()]


def name(element: dict) -> str:
    return " ".join(element["text"].split())


def description(page: Elements, element: dict) -> list[str]:
    ids = element["attrs"].get("aria-describedby", "").split()
    return [name(page.by_id(element_id)) for element_id in ids]


def test_rating_buttons_are_named_by_what_they_show_and_described_in_words(client, bank):
    register(client, "sam")
    page = Elements(client.get("/study").text)
    buttons = page.rate_buttons()
    assert [name(b).split()[0] for b in buttons] == ["Again", "Hard", "Good", "Easy"]
    for rating, button in enumerate(buttons, start=1):
        assert "aria-label" not in button["attrs"]  # the name is the visible text
        label, shown = name(button).split()
        assert re.fullmatch(r"[0-9.]+(s|m|h|d|mo|y)", shown), name(button)
        assert description(page, button) == [f"due again in {format_spoken_interval(shown)}"]
        # study.js makes it aria-keyshortcuts: without JavaScript no key works, none is named.
        assert button["attrs"]["data-keyshortcuts"] == str(rating)
        assert "aria-keyshortcuts" not in button["attrs"]
        assert button["attrs"]["data-key"] == str(rating)


def test_the_suggested_rating_is_described_by_the_verdict(client, skill_bank):
    register(client, "sam")
    puzzle = reach_first_skill(client)
    kind = re.search(r'data-answer-kind="(\w+)"', puzzle).group(1)
    answered = client.post("/study/answer", data={
        "csrf_token": csrf_token(puzzle), "token": study_token(puzzle), "answer": READABLE[kind],
        "hints_used": "0"})
    assert answered.status_code == 200, kind  # judged, right or wrong
    page = Elements(answered.text)
    suggested = [b for b in page.rate_buttons() if "suggested" in b["attrs"]["class"]]
    assert len(suggested) == 1
    verdict, when = description(page, suggested[0])
    assert verdict.startswith(("Correct You answered", "Not quite You answered")), verdict
    assert when.startswith("due again in ")
    others = [b for b in page.rate_buttons() if "suggested" not in b["attrs"]["class"]]
    assert all(len(description(page, b)) == 1 for b in others)


def test_the_undo_button_is_named_undo_and_its_arrow_is_not_read(client, bank):
    register(client, "sam")
    first = client.get("/study").text
    client.post("/study/rate", data={"csrf_token": csrf_token(first),
                                     "token": study_token(first), "rating": "3"})
    page = Elements(client.get("/study").text)
    undo = [e for e in page.found if e["tag"] == "button" and "Undo" in e["text"]]
    assert [name(b) for b in undo] == ["Undo"]
    assert undo[0]["attrs"]["data-keyshortcuts"] == "u"


def shortcut_marks(html: str) -> dict[str, int]:
    return {"body": len(re.findall(r"<body[^>]*\bdata-shortcuts\b", html)),
            "keyshortcuts": html.count("data-keyshortcuts="),
            "kbd": len(re.findall(r"<kbd[^>]*>[1-4u]</kbd>|<kbd[^>]*>Space</kbd>", html))}


def shortcut_box(html: str) -> str:
    return re.search(r'<input[^>]*\bid="keyboard_shortcuts"[^>]*>', html).group(0)


def test_a_new_account_has_the_shortcuts_on(client, bank):
    register(client, "sam")
    assert shortcut_marks(client.get("/study").text) == {"body": 1, "keyshortcuts": 5, "kbd": 5}
    assert "checked" in shortcut_box(client.get("/settings").text)


def test_the_shortcuts_box_says_the_keys_need_javascript(client, bank):
    """The box is shown without JavaScript too, where no key works: its description must not
    promise that Space, 1-4 and u do something there (the <kbd> marks are js-only likewise)."""
    register(client, "sam")
    page = Elements(client.get("/settings").text)
    (help_text,) = description(page, page.by_id("keyboard_shortcuts"))
    assert "JavaScript" in help_text, help_text
    assert "the buttons still work" in help_text


def test_the_home_page_says_the_keys_need_javascript(client, bank):
    """Read without JavaScript, "everything also works without JavaScript" after the keys
    read as if the keys did too."""
    text = " ".join(re.sub(r"<[^>]+>", "", client.get("/").text).split())
    keys = text[text.index("Keyboard first"):]
    assert "need JavaScript" in keys[:600], keys[:600]


@pytest.mark.parametrize("path", ["/study", "/study/history"])
def test_turned_off_no_page_offers_or_answers_the_keys(client, bank, path):
    register(client, "sam")
    response = client.post("/settings", data={
        "csrf_token": csrf_token(client.get("/settings").text), "desired_retention": "0.9",
        "new_per_day": "20", "reviews_per_day": "200", "time_zone": "UTC",
        "keyboard_shortcuts_shown": "1"})
    assert response.status_code == 303  # an unticked box is not posted at all
    assert shortcut_marks(client.get(path).text) == {"body": 0, "keyshortcuts": 0, "kbd": 0}
    assert "checked" not in shortcut_box(client.get("/settings").text)


def test_a_settings_form_without_the_box_leaves_the_shortcuts_as_they_were(client, bank):
    """A Settings page opened before the setting existed (or a script) posts no box and no
    marker: saving it changes the other settings and leaves the shortcuts alone, on or off."""
    register(client, "sam")
    page = client.get("/settings").text
    assert 'name="keyboard_shortcuts_shown" type="hidden" value="1"' in page
    old_form = {"csrf_token": csrf_token(page), "desired_retention": "0.9", "new_per_day": "5",
                "reviews_per_day": "200", "time_zone": "UTC"}
    assert client.post("/settings", data=old_form).status_code == 303
    assert shortcut_marks(client.get("/study").text)["body"] == 1
    assert post_settings(client, keyboard_shortcuts="").status_code == 303  # turned off
    assert client.post("/settings", data={**old_form, "new_per_day": "6"}).status_code == 303
    assert shortcut_marks(client.get("/study").text)["body"] == 0
    assert re.search(r'<input[^>]*id="new_per_day"[^>]*value="6"', client.get("/settings").text)


def test_turning_the_shortcuts_back_on_keeps_the_other_settings(client, bank):
    register(client, "sam")
    post_settings(client, keyboard_shortcuts="", new_per_day="7")  # "" is WTForms' false
    assert shortcut_marks(client.get("/study").text)["body"] == 0
    assert post_settings(client, new_per_day="7").status_code == 303
    assert shortcut_marks(client.get("/study").text)["body"] == 1
    assert re.search(r'<input[^>]*id="new_per_day"[^>]*value="7"', client.get("/settings").text)


def test_pages_shown_again_with_an_error_say_so_in_their_title(client, bank):
    register(client, "sam")
    assert "<title>Settings · quizapp</title>" in client.get("/settings").text
    refused = post_settings(client, new_per_day="-1")
    assert refused.status_code == 400
    assert "<title>Error: Settings · quizapp</title>" in refused.text
    for expr, status in (("torch.zeros(2, 3).view(", 422), ("", 400)):
        explorer = client.get("/explorer", query_string={"expr": expr})
        assert explorer.status_code == status
        assert "<title>Error: Explorer · quizapp</title>" in explorer.text
        field = re.search(r'<textarea id="expr"[^>]*>', explorer.text).group(0)
        assert 'aria-invalid="true"' in field and 'aria-describedby="expr-problem"' in field
        assert explorer.text.count('id="expr-problem"') == 1
    # A view torch refuses is the explorer's answer, not a mistake in the field.
    for expr in ("torch.zeros(2, 3).view(6)", "torch.zeros(2, 3).t().view(6)"):
        fine = client.get("/explorer", query_string={"expr": expr}).text
        assert "<title>Explorer · quizapp</title>" in fine and "aria-invalid" not in fine
    missing = client.get("/questions/no-such-card")
    assert missing.status_code == 404
    assert "<title>Error 404: Not found · quizapp</title>" in missing.text
