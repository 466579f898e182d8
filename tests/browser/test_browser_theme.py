"""The theme in chromium: the colours a page is drawn in follow the account's setting (light,
dark, or the system's preference), without JavaScript too, so no script repaints a page."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"
LIGHT = {"background": "rgb(246, 247, 249)", "text": "rgb(27, 31, 36)"}  # app.css :root
DARK = {"background": "rgb(17, 20, 24)", "text": "rgb(230, 233, 237)"}  # its dark values
EXPECTED = {("light", "light"): LIGHT, ("light", "dark"): LIGHT,
            ("dark", "light"): DARK, ("dark", "dark"): DARK,
            ("system", "light"): LIGHT, ("system", "dark"): DARK}


def drawn_colours(page) -> dict[str, str]:
    return page.evaluate("""() => {
        const body = getComputedStyle(document.body);
        return {background: body.backgroundColor, text: body.color,
                scheme: getComputedStyle(document.documentElement).colorScheme};
    }""")


def choose_theme(page, base: str, label: str) -> None:
    page.goto(f"{base}/settings")
    page.get_by_label(label, exact=True).check()
    with page.expect_navigation():
        page.click("text=Save settings")
    assert "Settings saved." in page.locator("main").inner_text()


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize(("theme", "label"), [("light", "Light"), ("dark", "Dark"),
                                              ("system", "Follow the system")])
def test_each_theme_draws_its_colours_under_either_system_preference(
        browser, live_server, theme, label, javascript):
    base = live_server["url"]
    context = browser.new_context(java_script_enabled=javascript)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        register_in_browser(page, base, f"{theme}{int(javascript)}", PASSWORD)
        if theme == "system":  # away and back: the setting is saved, not only the default
            choose_theme(page, base, "Dark")
        choose_theme(page, base, label)
        for preference in ("light", "dark"):
            page.emulate_media(color_scheme=preference)
            for path in ("/study", "/questions", "/settings"):
                page.goto(f"{base}{path}")
                colours = drawn_colours(page)
                wanted = EXPECTED[(theme, preference)]
                assert {k: colours[k] for k in wanted} == wanted, (theme, preference, path)
                # The browser's own parts (controls, scroll bars) are drawn to match.
                followed = "dark" if preference == "dark" else "light dark"
                assert colours["scheme"] == (followed if theme == "system" else theme)
    finally:
        context.close()
