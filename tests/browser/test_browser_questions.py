"""The question browser in chromium: after Back, the filter form shows the filters of the list
under it, with and without JavaScript (notes/s11/browse.md #1)."""

from __future__ import annotations

import pytest

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
