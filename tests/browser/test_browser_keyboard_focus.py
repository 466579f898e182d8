"""Keyboard and focus in chromium: Space belongs to the focused control, the focus is never
left on a hidden control or under the rating bar, and focus rings can be seen."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser, stored_ratings

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"


def reveal_and_rate(page, key: str) -> None:
    page.keyboard.press("Space")
    page.locator(".rate-bar").wait_for(state="visible")
    with page.expect_navigation():
        page.keyboard.press(key)


def test_space_on_the_focused_undo_button_undoes_and_reveals_nothing(page, live_server):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, "undoer", PASSWORD)
    reveal_and_rate(page, "3")
    assert stored_ratings(app) == [3]
    page.focus("[data-undo-form] button")
    with page.expect_navigation():
        page.keyboard.press("Space")  # presses Undo, as Space does on any button
    assert "Undone:" in page.locator("main").inner_text()
    assert stored_ratings(app) == []
    assert not page.locator(".rate-bar").is_visible()  # the answer was not opened instead


@pytest.mark.parametrize("how", ["enter", "click"])
def test_the_answer_opened_without_space_hands_the_focus_to_good(page, live_server, how):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, f"opener-{how}", PASSWORD)
    if how == "enter":
        page.focus("summary.reveal-button")
        page.keyboard.press("Enter")
    else:
        page.click("summary.reveal-button")
    page.locator(".rate-bar").wait_for(state="visible")
    # The summary hides once open; the focus must not fall back to the page body.
    page.wait_for_function("document.activeElement.matches('.rate-3')")
    with page.expect_navigation():
        page.keyboard.press("Space")
    assert stored_ratings(app) == [3]


def test_a_control_reached_by_tab_is_not_under_the_rating_bar(browser, live_server):
    context = browser.new_context(viewport={"width": 375, "height": 560})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        register_in_browser(page, live_server["url"], "tabber", PASSWORD)
        page.click("summary.reveal-button")
        page.locator(".rate-bar").wait_for(state="visible")
        page.focus("main")  # start the Tab walk from the top of the answer
        page.evaluate("document.querySelector('.answer').scrollIntoView()")
        checked = 0
        for _ in range(40):
            page.keyboard.press("Tab")
            place = page.evaluate("""() => {
                const el = document.activeElement, bar = document.querySelector('.rate-bar');
                if (!el.closest('.answer')) return null;
                const box = el.getBoundingClientRect(), barBox = bar.getBoundingClientRect();
                return {bottom: box.bottom, top: box.top, barTop: barBox.top,
                        name: el.tagName + ' ' + el.textContent.trim().slice(0, 30)};
            }""")
            if place is None:
                if checked:
                    break
                continue
            checked += 1
            assert place["bottom"] <= place["barTop"] + 1, place
            assert place["top"] >= 0, place
        assert checked >= 3  # the answer's summaries and code output were reached
    finally:
        context.close()


def test_fields_and_checkboxes_show_the_accent_focus_ring(page, live_server):
    page.goto(f"{live_server['url']}/login")
    for selector in ("#username", "#remember"):
        page.focus(selector)
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # reached by keyboard, so :focus-visible applies
        ring = page.evaluate(f"""() => {{
            const style = getComputedStyle(document.querySelector('{selector}'));
            return [style.outlineStyle, style.outlineWidth, style.outlineColor];
        }}""")
        accent = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()")
        assert ring[0] == "solid" and ring[1] == "3px", (selector, ring)
        page.evaluate(f"document.body.style.setProperty('--probe', '{accent}')")
        probe = page.evaluate("""() => {
            const el = document.createElement('span');
            el.style.color = 'var(--probe)'; document.body.append(el);
            return getComputedStyle(el).color;
        }""")
        assert ring[2] == probe, (selector, ring, accent)


def test_text_follows_the_browsers_default_font_size(page, live_server):
    page.goto(f"{live_server['url']}/login")
    sizes = page.evaluate("""() => {
        document.documentElement.style.fontSize = '32px';  // a reader who wants larger text
        const size = (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
        return [size('body'), size('label[for=username]'), size('#username'),
                size('button[type=submit]')];
    }""")
    assert sizes[0] == 32 and all(size >= 28 for size in sizes), sizes
