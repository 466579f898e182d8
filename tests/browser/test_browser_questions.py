"""The question browser in chromium: after Back, the filter form shows the filters of the list
under it, with and without JavaScript; a card studied from its page."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("javascript", [True, False])
def test_back_shows_the_filters_of_the_list_it_returns_to(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    base = live_server["url"]
    page.goto(f"{base}/questions?level=junior")
    page.select_option("select[name=level]", "senior")
    page.fill("input[name=q]", "stride")
    with page.expect_navigation():
        page.click(".filters button[type=submit]")
    assert "level=senior" in page.url and "q=stride" in page.url
    page.go_back()
    page.wait_for_load_state("load")
    assert page.url.endswith("/questions?level=junior")
    assert page.input_value("select[name=level]") == "junior"
    assert page.input_value("input[name=q]") == ""
    page.go_forward()
    page.wait_for_load_state("load")
    assert page.input_value("select[name=level]") == "senior"
    assert page.input_value("input[name=q]") == "stride"
    context.close()


def test_a_card_chosen_on_its_page_is_studied_with_the_keyboard_and_the_queue_carries_on(
        page, live_server):
    base = live_server["url"]
    register_in_browser(page, base, "chooser")  # lands on /study: the queue's head
    head = page.locator("article[data-item-kind]").get_attribute("data-item-key")
    chosen, title = (("browser-four", "Reshape or copy") if head != "browser-four"
                     else ("browser-two", "Offsets of a slice"))
    page.goto(f"{base}/questions/{chosen}")
    with page.expect_navigation():
        page.get_by_role("link", name="Study it now").click()
    assert page.locator("article[data-item-kind]").get_attribute("data-item-key") == chosen
    assert "ahead of your queue" in page.locator(".chosen-note").inner_text()
    page.keyboard.press("Space")
    page.locator(".rate-bar").wait_for(state="visible")
    assert not page.locator(".chosen-note").is_visible()  # the answer gets the screen
    with page.expect_navigation():
        page.keyboard.press("3")
    assert page.url == f"{base}/study"
    status = page.locator(".last-rating").inner_text()
    assert status.startswith(f"Good: “{title}”"), status
    # The queue is where it was: its first new card, and no note.
    assert page.locator("article[data-item-kind]").get_attribute("data-item-key") == head
    assert page.locator(".chosen-note").count() == 0
    # Undo takes the out-of-turn rating back, as any other, and shows that card again.
    with page.expect_navigation():
        page.keyboard.press("u")
    assert page.locator(".last-rating").count() == 0
    assert page.locator("article[data-item-kind]").get_attribute("data-item-key") == chosen
    # Rated again, Back does not offer it a third time: the queue, with a word why.
    page.keyboard.press("Space")
    page.locator(".rate-bar").wait_for(state="visible")
    with page.expect_navigation():
        page.keyboard.press("3")
    page.go_back()
    page.wait_for_load_state("load")
    assert page.url == f"{base}/study"
    assert page.locator("article[data-item-kind]").get_attribute("data-item-key") == head
    assert "was rated or undone since you chose it" in page.locator(".flashes").inner_text()
    page.goto(f"{base}/questions/{chosen}")
    assert "You have reviewed this 1 time;" in page.content()  # once: the undone one is gone


def test_a_link_to_a_closed_part_of_a_card_opens_it_but_never_a_study_pages_answer(
        page, live_server):
    base = live_server["url"]
    page.goto(f"{base}/questions/browser-two#red-flags")
    assert page.locator("details:has(#red-flags)").get_attribute("open") is not None
    assert page.locator("details:has(#go-deeper)").get_attribute("open") is None
    # A heading inside a closed part: the part opens and the heading is brought into view.
    page.set_viewport_size({"width": 390, "height": 500})
    page.goto(f"{base}/questions/browser-two#go-deeper-principal")
    assert page.locator("details:has(#go-deeper)").get_attribute("open") is not None
    assert page.locator("#go-deeper-principal").is_visible()
    top = page.evaluate("document.getElementById('go-deeper-principal').getBoundingClientRect().top")
    assert 0 <= top < 500, top
    # Changing the fragment on the page opens the new part too.
    page.evaluate("location.hash = '#follow-ups'")
    page.wait_for_function("document.getElementById('follow-ups').closest('details').open")
    # On a study page the card's answer stays hidden whatever the URL says.
    register_in_browser(page, base, "linker")
    page.goto(f"{base}/study?card=browser-two#red-flags")
    assert not page.locator(".rate-bar").is_visible()
    assert page.locator("#reveal").get_attribute("open") is None


def test_study_these_goes_through_a_filtered_list_with_the_keyboard(page, live_server):
    base = live_server["url"]
    register_in_browser(page, base, "lister")
    page.goto(f"{base}/questions?sort=title")
    assert page.locator(".card-row").count() == 5
    expected = [key.split("/")[-1].split("?")[0] for key in
                page.locator(".card-link").evaluate_all("(links) => links.map((a) => a.href)")]
    with page.expect_navigation():
        page.get_by_role("link", name="Study these").click()
    studied = []
    while page.locator("article[data-item-kind]").count():
        studied.append(page.locator("article[data-item-kind]").get_attribute("data-item-key"))
        assert "Studying the whole question bank: " in page.locator(".chosen-note").inner_text()
        page.keyboard.press("Space")
        page.locator(".rate-bar").wait_for(state="visible")
        with page.expect_navigation():
            page.keyboard.press("4")
    assert studied == expected
    assert page.locator("h1").inner_text() == "Nothing left in this list"
    with page.expect_navigation():
        page.get_by_role("link", name="Back to the list").click()
    assert page.url == f"{base}/questions?sort=title"
    progress = page.locator(".card-progress").all_inner_texts()
    assert len(progress) == 5 and all(text.startswith("Next review in") for text in progress)



@pytest.mark.parametrize("part", ["red-flags", "follow-ups", "go-deeper", "go-deeper-senior"])
def test_without_javascript_a_link_to_a_part_opens_it_too(browser, live_server, part):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390,
                                                                       "height": 700})
    page = context.new_page()
    page.goto(f"{live_server['url']}/questions/browser-three#{part}")
    details = page.locator(f"details:has(#{part})")
    details.locator("summary").wait_for()
    page.wait_for_function(f"document.getElementById('{part}').closest('details').open")
    # The part's summary line is in view above what the link names.
    top = details.locator("summary").evaluate("(el) => el.getBoundingClientRect().top")
    assert 0 <= top < 700, top
    context.close()


def test_a_long_search_in_a_studied_lists_name_wraps_on_a_phone(browser, live_server):
    """A search is at most 100 characters and may be one word: it wraps in the list's name
    instead of widening the page (it did, to 998 px at 390)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    register_in_browser(page, live_server["url"], "longsearch")
    page.goto(f"{live_server['url']}/study?list=q%3D{'x' * 100}")
    assert "No question in this list" in page.locator("h1").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
