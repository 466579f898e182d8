"""A person studies in chromium: register, five items with the keyboard (one a puzzle), undo,
reload, log out and in again — and every rating is still there."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from webtest_support import register_in_browser

from quizapp import puzzles, srs
from quizapp.extensions import db
from quizapp.models import Review, ReviewState, User
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"


def shown_item(page) -> tuple[str, str]:
    article = page.locator("article[data-item-kind]")
    return article.get_attribute("data-item-kind"), article.get_attribute("data-item-key")


def rate_card_with_keyboard(page, rating: str) -> str:
    kind, key = shown_item(page)
    assert kind == "card"
    assert not page.locator(".rate-bar").is_visible()
    page.keyboard.press("Space")
    page.locator(".rate-bar").wait_for(state="visible")
    with page.expect_navigation():
        page.keyboard.press(rating)
    return key


def answer_puzzle_with_keyboard(page, seeds) -> tuple[str, dict]:
    kind, key = shown_item(page)
    assert kind == "skill"
    family, level = key.split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    typed = format_answer(puzzle["answer"], puzzle["answer_kind"])
    assert puzzles.check(puzzle, typed)["correct"], typed
    page.locator("#answer").wait_for()
    page.keyboard.type(typed)  # the answer box has the focus
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    with page.expect_navigation():
        page.keyboard.press("3")
    return key, puzzle


def test_rating_keys_do_nothing_until_the_answer_is_shown(page, live_server):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, "eager", PASSWORD)
    first = shown_item(page)
    assert first[0] == "card" and not page.locator(".rate-bar").is_visible()
    # Count every way a form could leave the page: a submit event (a button's click, or
    # requestSubmit) and form.submit(), which fires none. Key handlers run while the key is
    # dispatched, so once press() returns the count is final; no waiting on a clock.
    page.evaluate("""() => {
        window.submits = 0;
        document.addEventListener("submit", () => { window.submits += 1; }, true);
        const submit = HTMLFormElement.prototype.submit;
        HTMLFormElement.prototype.submit = function () { window.submits += 1; submit.call(this); };
    }""")
    for key in "1234":
        page.keyboard.press(key)
    assert page.evaluate("window.submits") == 0 and shown_item(page) == first
    with app.app_context():
        assert db.session.scalars(select(Review)).all() == []
        db.session.remove()
    # Revealed, the same key does rate.
    page.keyboard.press("Space")
    page.locator(".rate-bar").wait_for(state="visible")
    with page.expect_navigation():
        page.keyboard.press("2")
    with app.app_context():
        assert [(r.item.key, r.rating) for r in db.session.scalars(select(Review))] == [
            (first[1], 2)]
        db.session.remove()


@pytest.mark.parametrize("key", ["Space", "Enter"])
def test_a_second_press_rates_good_as_the_home_page_says(page, live_server, key):
    """Space or Enter shows the answer and a second press rates Good, as in Anki."""
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, f"presser{key}", PASSWORD)
    first = shown_item(page)
    page.keyboard.press(key)
    page.locator(".rate-bar").wait_for(state="visible")
    assert page.evaluate("document.activeElement.value") == "3"  # Good has the focus
    with page.expect_navigation():
        page.keyboard.press(key)
    with app.app_context():
        assert [(r.item.key, r.rating) for r in db.session.scalars(select(Review))] == [
            (first[1], 3)]
        db.session.remove()
    page.goto(f"{base}/")
    assert "a second Space (or Enter) rates it Good" in page.locator("main").inner_text()


@pytest.mark.parametrize("key", ["Space", "Enter"])
def test_a_held_key_shows_the_answer_but_does_not_rate_it(page, live_server, key):
    """Held down, the key repeats; the repeats land on Good, which the first press focused, and
    must not rate an answer the person has not seen (nor, for Space, its release)."""
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, f"holder{key}", PASSWORD)
    first = shown_item(page)
    page.keyboard.down(key)
    page.locator(".rate-bar").wait_for(state="visible")
    page.keyboard.down(key)  # the key's auto-repeat (KeyboardEvent.repeat)
    page.keyboard.down(key)
    page.keyboard.up(key)
    page.wait_for_timeout(300)  # a submission would have left the page by now
    assert shown_item(page) == first and page.evaluate("document.activeElement.value") == "3"
    with app.app_context():
        assert db.session.scalars(select(Review)).all() == []
        db.session.remove()


def test_enter_held_through_a_puzzle_check_does_not_rate_the_verdict(page, live_server):
    base, app, seeds = live_server["url"], live_server["app"], live_server["seeds"]
    register_in_browser(page, base, "checker", PASSWORD)
    for _ in range(10):  # the bank's cards rated Good until a puzzle is shown
        if shown_item(page)[0] == "skill":
            break
        rate_card_with_keyboard(page, "3")
    kind, key = shown_item(page)
    assert kind == "skill"
    family, level = key.split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    page.locator("#answer").fill(format_answer(puzzle["answer"], puzzle["answer_kind"]))
    page.locator("#answer").focus()
    with page.expect_navigation():
        page.keyboard.down("Enter")
    page.locator("[data-verdict]").wait_for()
    page.keyboard.down("Enter")  # still held: its repeat reaches the suggested rating button
    page.keyboard.up("Enter")
    page.wait_for_timeout(300)
    assert page.locator("[data-verdict]").count() == 1
    with app.app_context():
        assert [r.item.key for r in db.session.scalars(select(Review))][-1:] != [key]
        db.session.remove()


def test_enter_on_a_link_follows_it_and_shows_no_answer(page, live_server):
    register_in_browser(page, live_server["url"], "linker", PASSWORD)
    page.locator("a", has_text="Questions").first.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/questions")


def test_register_study_undo_reload_relogin(page, live_server):
    base, app, seeds = live_server["url"], live_server["app"], live_server["seeds"]
    page.goto(f"{base}/register")
    page.fill("#username", "walker")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == f"{base}/study"

    rated = [rate_card_with_keyboard(page, "3"), rate_card_with_keyboard(page, "4"),
             rate_card_with_keyboard(page, "2")]
    puzzle_key, puzzle = answer_puzzle_with_keyboard(page, seeds)
    rated.append(puzzle_key)
    # Back from the next item: the puzzle's result page came from a GET, so there is no "Confirm
    # Form Resubmission" page; it has been rated since, so Study says so and shows the next one.
    next_item = shown_item(page)
    page.go_back()
    assert page.url == f"{base}/study"
    assert "it was rated or undone since" in page.locator(".flashes").inner_text()
    assert shown_item(page) == next_item
    rated.append(rate_card_with_keyboard(page, "4"))
    assert len(set(rated)) == 5

    # u undoes the fifth rating: that card is shown again.
    with page.expect_navigation():
        page.keyboard.press("u")
    assert "Undone" in page.locator(".flashes").inner_text()
    assert shown_item(page) == ("card", rated[4])
    page.reload()
    assert shown_item(page) == ("card", rated[4])

    page.click("text=Log out")
    page.goto(f"{base}/login")
    page.fill("#username", "walker")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert shown_item(page) == ("card", rated[4])
    page.goto(f"{base}/study/history")
    rows = page.locator("tr[data-review-id]")
    assert rows.count() == 4
    history = page.locator("table.history").inner_text()
    assert "✓ right" in history and re.search(r"Easy|Good|Hard", history)

    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "walker"))
        reviews = db.session.scalars(select(Review).where(Review.user_id == user.id)
                                     .order_by(Review.id)).all()
        assert [r.item.key for r in reviews] == rated[:4]
        assert [r.rating for r in reviews] == [3, 4, 2, 3]
        skill_review = reviews[3]
        assert skill_review.correct is True and skill_review.puzzle_seed == puzzle["seed"]
        assert skill_review.answer == format_answer(puzzle["answer"], puzzle["answer_kind"])
        states = db.session.scalars(select(ReviewState).where(ReviewState.user_id == user.id))
        assert sorted(s.item.key for s in states) == sorted(rated[:4])
        db.session.remove()


def test_pages_work_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    base = live_server["url"]
    page.goto(f"{base}/register")
    page.fill("#username", "nojs")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("button[type=submit]")
    page.click("summary.reveal-button")  # <details> opens without script
    page.click("button.rate-3")
    assert "comes back in" in page.locator(".last-rating").inner_text()
    context.close()


def test_registration_takes_the_browsers_time_zone(browser, live_server):
    base, app = live_server["url"], live_server["app"]
    context = browser.new_context(timezone_id="Asia/Kolkata")  # UTC+05:30, no daylight saving
    try:
        page = context.new_page()
        register_in_browser(page, base, "kolkata", PASSWORD)
        reported = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
        welcome = page.locator("main").inner_text()
    finally:
        context.close()
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "kolkata"))
        zone = user.time_zone
        db.session.remove()
    assert reported in ("Asia/Kolkata", "Asia/Calcutta")  # ICU may say either
    assert zone == "Asia/Kolkata"  # a link is stored as the zone it names
    assert "Your study day turns over at 04:00 in Asia/Kolkata (UTC+05:30 now)" in welcome
    july = datetime(2025, 7, 1, tzinfo=UTC).astimezone(srs.compute_zone(zone))
    assert july.utcoffset() == timedelta(hours=5, minutes=30)
