"""Puzzle skills in the study queue: a fresh seed per review, judged answers, suggested ratings."""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import UTC, datetime

import pytest
from markupsafe import escape
from sqlalchemy import func, select, update
from webtest_support import (
    csrf_token,
    login,
    rate_current,
    reach_first_skill,
    register,
    study_token,
)

from quizapp import puzzles, srs
from quizapp.extensions import db
from quizapp.models import Item, Review, Skill, User
from quizapp.puzzles.parsing import MAX_RESPONSE_CHARS
from quizapp.puzzles.picking import PICKABLE_KINDS
from quizapp.services import skill_reviews
from quizapp.services.items import ItemState, StudyItem
from quizapp.services.store.study_items import compute_sql_literal
from quizapp.services.study_queue import count_queue
from quizapp.web.http.runtime import derive_puzzle_seed
from quizapp.web.rendering.filters import format_answer
from quizapp.web.study import routes as study_view
from quizapp.web.study.tokens import DAMAGED

ITEM_RE = re.compile(r'data-item-kind="(\w+)" data-item-key="([^"]+)"')


def shown(html: str) -> tuple[str, str]:
    match = ITEM_RE.search(html)
    assert match, "no item on the page"
    return match.group(1), match.group(2)


def post_answer(client, page: str, answer: str, hints: int = 0):
    return client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer,
        "hints_used": str(hints)})


def test_skills_are_in_the_queue_and_show_a_generated_puzzle(client, skill_bank, seeds):
    register(client, "pat")
    page = reach_first_skill(client)
    family, level = shown(page)[1].split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    assert puzzle["id"] == f"{family}/{level}/{seeds.given[-1]}"
    assert 'name="answer"' in page and 'id="answer"' in page
    assert "Hint 1" in page and "Hint 2" in page


def test_a_skill_this_code_cannot_make_is_left_out_of_the_queue_and_counts(
        app, client, skill_bank, clock):
    """A rolling deploy: newer code loaded a family this instance lacks, first in the new-item
    order. The study page goes on to the next item, and no figure counts the unknown skill."""
    with app.app_context():
        offered = db.session.scalar(select(func.count()).select_from(Item)
                                    .where(Item.retired.is_(False)))
        db.session.add(Skill(key="newer_family/junior", family="newer_family", level="junior",
                             title="From newer code (junior)", new_order=-1, created_at=clock(),
                             updated_at=clock()))
        db.session.commit()
    register(client, "pat")
    page = client.get("/study")
    assert page.status_code == 200
    assert shown(page.text)[1] != "newer_family/junior" and "newer_family" not in page.text
    stats = client.get("/study/stats").text
    assert re.search(rf'stat-number">{offered}</span><span class="stat-label">new, never rated',
                     stats), offered
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "pat"))
        assert count_queue(db.session, user, clock()).new == offered


def test_skill_keys_are_written_into_the_sql_only_when_they_cannot_break_out():
    assert str(compute_sql_literal("view_possible/middle")) == "'view_possible/middle'"
    for key in ("x'/junior", "x/junior' OR 1=1 --", "X/junior", "x/junior\n"):
        with pytest.raises(ValueError, match="unexpected characters"):
            compute_sql_literal(key)


def test_a_right_answer_suggests_a_rating_and_the_log_keeps_answer_and_seed(
        app, client, skill_bank, seeds, clock):
    register(client, "pat")
    page = reach_first_skill(client)
    family, level = shown(page)[1].split("/")
    seed = seeds.given[-1]
    puzzle = puzzles.generate(family, level, seed)
    typed = format_answer(puzzle["answer"], puzzle["answer_kind"])
    assert puzzles.check(puzzle, typed)["correct"]
    clock.advance(seconds=8)
    result = post_answer(client, page, typed)
    assert result.status_code == 200
    assert 'data-verdict="correct"' in result.text
    assert f"<dt>Answer</dt><dd><code>{escape(typed)}</code></dd>" in result.text
    # The title says "Correct"; the checker's "Correct." is not said again under it.
    verdict = re.search(r'<div class="verdict[^"]*".*?</div>', result.text, re.S).group(0)
    assert re.findall(r"Correct\b", verdict) == ["Correct"]
    # The status bar stays on the result page: the same counts, last rating and Undo.
    def status_bar(html: str) -> str:  # without the CSRF token, whose signature is timed
        bar = re.search(r'<div class="study-status">.*?</div>', html, re.S)
        assert bar, "no status bar"
        return re.sub(r'(name="csrf_token" type="hidden" value=)"[^"]+"', r"\1", bar.group())

    assert status_bar(result.text) == status_bar(page)
    assert "last-rating" in status_bar(result.text) and "data-undo-form" in status_bar(page)
    suggested = srs.GOOD  # fast and right, but seen for the first time: no Easy (no steps)
    assert re.search(rf'value="{suggested}" data-key="{suggested}"\s+class="rate rate-{suggested} '
                     r'suggested"', result.text)
    rated = rate_current(client, 3, result.text, answer=typed, hints_used="0")
    assert rated.status_code == 303
    with app.app_context():
        review = db.session.scalars(select(Review).order_by(Review.id.desc())).first()
        assert isinstance(review.item, Skill) and review.item.key == f"{family}/{level}"
        assert (review.rating, review.answer, review.correct, review.puzzle_seed) == (
            3, typed, True, seed)
        assert review.duration_ms == 8000


def test_easy_is_suggested_only_in_review_and_for_answers_no_guess_gives():
    """A quick right answer suggests Easy for a skill in review whose answer is typed; a first
    sight, a learning step or a yes/no or choice answer (a guess can be right) gets Good."""
    def skill(family: str, level: str) -> StudyItem:
        return StudyItem(id=1, kind="skill", key=f"{family}/{level}", title="t", level=level,
                         retired=False, family=family)

    def state(learning: bool) -> ItemState:
        return ItemState(id=1, version=2, state={}, due=datetime(2026, 1, 1, tzinfo=UTC),
                         last_reviewed_at=None, learning=learning)

    # One skill of every answer kind: typed ones (tuple, int, nested list) can be Easy; a
    # choice, several choices or yes/no cannot (only choice was tried).
    kinds = {"tuple": skill("fresh_strides", "junior"), "int": skill("value_at", "middle"),
             "text": skill("tolist", "junior"), "choice": skill("storage_index", "junior"),
             "choices": skill("viewable_shapes", "principal"),
             "bool": skill("contiguous_after", "junior")}
    for kind, item in kinds.items():
        puzzle = skill_reviews.generate_skill_puzzle(item, 5)
        assert puzzle.answer_kind == kind
        right = format_answer(puzzle.answer, puzzle.answer_kind)
        typed = kind not in ("choice", "choices", "bool")
        for item_state, expected in ((None, srs.GOOD), (state(True), srs.GOOD),
                                     (state(False), srs.EASY if typed else srs.GOOD)):
            checked = skill_reviews.check_skill_answer(item, 5, right, seconds=4.0, hints_used=0,
                                                       state=item_state)
            assert checked.correct and checked.suggested_rating == expected, (item.key, item_state)
        assert skill_reviews.check_skill_answer(
            item, 5, right, seconds=4.0, hints_used=1, state=state(False)).suggested_rating == srs.HARD


def test_a_wrong_answer_suggests_again_with_feedback(app, client, skill_bank, seeds):
    register(client, "pat")
    page = reach_first_skill(client)
    family, level = shown(page)[1].split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    wrong = next(candidate for candidate in ("(999, 998)", "12345", "no", "yes", "Z", "A", "B")
                 if puzzles.check(puzzle, candidate)["error"] is None
                 and not puzzles.check(puzzle, candidate)["correct"])
    result = post_answer(client, page, wrong, hints=1)
    assert 'data-verdict="wrong"' in result.text
    assert srs.suggest_rating(False, hints_used=1) == srs.AGAIN
    assert 'class="rate rate-1 suggested"' in result.text
    rate = rate_current(client, 1, result.text, answer=wrong, hints_used="1")
    assert rate.status_code == 303
    with app.app_context():
        review = db.session.scalars(select(Review).order_by(Review.id.desc())).first()
        assert review.correct is False and review.answer == wrong


def test_an_unreadable_answer_is_not_judged_and_nothing_is_lost(app, client, skill_bank, seeds):
    register(client, "pat")
    page = reach_first_skill(client)
    family, level = shown(page)[1].split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    garbage = "¿¿ what ??"
    verdict = puzzles.check(puzzle, garbage)
    assert verdict["error"], "the puzzle accepted garbage"
    before = len(seeds.given)
    response = post_answer(client, page, garbage)
    assert response.status_code == 422
    assert verdict["error"] in response.text.replace("&#39;", "'").replace("&#34;", '"')
    assert 'value="¿¿ what ??"' in response.text  # the typed answer is kept
    assert len(seeds.given) == before  # the same puzzle is shown again
    empty = post_answer(client, page, "")
    # A page with options to pick asks for a pick or a typed answer; others for a typed one.
    asked = ("Pick an option, or type the answer, first" if puzzle["answer_kind"] in PICKABLE_KINDS
             else "Type an answer first")
    assert empty.status_code == 400 and asked in empty.text
    with app.app_context():
        assert db.session.scalar(select(Review).where(Review.item.has(kind="skill"))) is None


def test_the_answer_is_checked_by_get_so_back_and_reload_work(app, client, skill_bank, seeds):
    """Checking writes nothing: the form sends it by GET, with no CSRF token in the URL; the
    same URL shows the same verdict again, and once the puzzle is rated it leads on to Study
    (the browser's "Confirm Form Resubmission" page came up on Back before)."""
    register(client, "pat")
    page = reach_first_skill(client)
    form = re.search(r'<form method="get" action="/study/answer"[^>]*>(.*?)</form>', page, re.S)
    assert form and "csrf_token" not in form.group(1)
    family, level = shown(page)[1].split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    typed = format_answer(puzzle["answer"], puzzle["answer_kind"])
    query = {"token": study_token(page), "answer": typed, "hints_used": "0"}
    first, again = client.get("/study/answer", query_string=query), client.get(
        "/study/answer", query_string=query)
    assert first.status_code == again.status_code == 200
    assert client.head("/study/answer", query_string=query).status_code == 200  # as GET
    assert 'data-verdict="correct"' in first.text and 'data-verdict="correct"' in again.text
    assert rate_current(client, 3, first.text, answer=typed, hints_used="0").status_code == 303
    back = client.get("/study/answer", query_string=query)
    assert back.status_code == 302 and back.headers["Location"].endswith("/study")
    assert "That puzzle's page is out of date: it was rated or undone since" in client.get(
        "/study").text.replace("&#39;", "'")
    assert client.get("/study/answer").headers["Location"].endswith("/study")  # no query at all
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Review)
                                 .where(Review.item.has(kind="skill"))) == 1


def test_damaged_hidden_fields_are_not_blamed_on_the_typed_answer(app, client, skill_bank):
    """The token and the hint count are written by the page: when they are broken the page is,
    as /study/rate says, not the answer (which was "between 1 and 1000 characters" before)."""
    register(client, "pat")
    page = reach_first_skill(client)  # rates the cards before it
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(Review))
    for field, value in (("token", ""), ("token", "x" * 1001), ("hints_used", "lots"),
                         ("hints_used", "7")):
        response = client.post("/study/answer", data={
            "csrf_token": csrf_token(page), "token": study_token(page), "answer": "(1, 2)",
            "hints_used": "0", field: value})
        assert response.status_code == 400, (field, value)
        assert str(escape(DAMAGED)) in response.text, (field, value)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Review)) == before


def test_hints_open_before_a_refused_answer_are_open_after_it(client, skill_bank):
    register(client, "pat")
    page = reach_first_skill(client)
    hints = page.count("<details class=\"hint\" data-hint")
    assert hints >= 1 and 'data-hint open' not in page
    refused = post_answer(client, page, "¿¿ what ??", hints=1)
    assert refused.status_code == 422
    assert refused.text.count('data-hint open data-seen="1"') == 1
    assert 'name="hints_used" value="1"' in refused.text  # and still counted


def test_a_hint_asked_for_without_javascript_is_counted_and_keeps_the_answer(client,
                                                                            skill_bank):
    register(client, "pat")
    page = reach_first_skill(client)
    assert page.count('name="hint" value="1"') == 1 and 'name="hint" value="2"' not in page
    query = {"token": study_token(page), "hints_used": "0", "answer": "half typed", "hint": "1"}
    hinted = client.get("/study/answer", query_string=query)
    assert hinted.status_code == 200 and 'data-verdict' not in hinted.text  # nothing judged
    assert study_token(hinted.text) == study_token(page)  # the same puzzle
    assert hinted.text.count('data-hint open data-seen="1"') == 1
    assert 'name="hints_used" value="1"' in hinted.text and 'value="half typed"' in hinted.text
    assert 'name="hint" value="2"' in hinted.text  # the next one is offered
    for damaged in ("3", "0", "x"):
        response = client.get("/study/answer", query_string={**query, "hint": damaged})
        assert response.status_code == 400 and str(escape(DAMAGED)) in response.text, damaged


def test_every_review_of_a_skill_uses_a_new_seed(app, client, skill_bank, clock):
    app.config["PUZZLE_SEED_SOURCE"] = None  # the app's own seeds, not the test sequence
    register(client, "pat")
    page = reach_first_skill(client)
    skill_key = shown(page)[1]
    rate_current(client, 1, page)  # Again: due in a minute
    clock.advance(minutes=2)
    page = client.get("/study").text
    assert shown(page) == ("skill", skill_key)
    rate_current(client, 1, page)
    with app.app_context():
        seeds = db.session.scalars(select(Review.puzzle_seed).join(Skill)
                                   .where(Skill.key == skill_key)).all()
    assert len(seeds) == 2 and seeds[0] != seeds[1]


def test_answering_with_a_card_token_is_refused(client, skill_bank):
    register(client, "pat")
    page = client.get("/study").text
    assert shown(page)[0] == "card"
    response = post_answer(client, page, "(1, 2)")
    assert response.status_code == 404 and "not a puzzle skill" in response.text


def test_oversized_answers_are_refused_at_the_checkers_own_limit(client, skill_bank):
    """The form, the input box and the puzzle checker agree on one length limit."""
    register(client, "pat")
    page = reach_first_skill(client)
    assert f'maxlength="{MAX_RESPONSE_CHARS}"' in page
    response = post_answer(client, page, "1" * (MAX_RESPONSE_CHARS + 1))
    assert response.status_code == 400
    assert f"An answer is at most {MAX_RESPONSE_CHARS} characters long." in response.text
    at_limit = post_answer(client, page, "(" + "1, " * ((MAX_RESPONSE_CHARS - 2) // 3) + ")")
    assert at_limit.status_code in (200, 422)  # read by the checker, whatever its verdict
    assert "at most" not in at_limit.text


def shown_puzzle(page: str) -> str:
    """The puzzle as shown, without its page token (signed with the time it was shown)."""
    article = re.search(r"<article.*?</article>", page, re.S).group(0)
    return re.sub(r'(name="token" type="hidden" value=)"[^"]*"', r"\1", article)


def test_reloading_shows_the_same_puzzle_until_it_is_rated(app, client, skill_bank):
    """With the app's own seeds (derived from the key, the user, the skill and its version),
    a reload does not deal a new puzzle: no reloading until an easy one comes up."""
    app.config["PUZZLE_SEED_SOURCE"] = None
    register(client, "sam")
    first = reach_first_skill(client)
    assert shown_puzzle(client.get("/study").text) == shown_puzzle(first)
    other = app.test_client()
    register(other, "tess")  # another person gets another puzzle for the same skill
    assert shown_puzzle(reach_first_skill(other)) != shown_puzzle(first)


def test_undoing_a_first_rating_deals_a_fresh_puzzle_that_stays_on_reload(
        app, client, skill_bank):
    """Undo of a new skill's first rating deletes its state (version 0 again): the same seed,
    so the puzzle whose answer had just been shown, came back."""
    app.config["PUZZLE_SEED_SOURCE"] = None
    register(client, "sam")
    first = reach_first_skill(client)
    rated = rate_current(client, 1, first)  # Again: the skill's first rating
    assert rated.status_code == 303
    after = client.get("/study").text
    review_id = re.search(r'name="review_id" type="hidden" value="(\d+)"', after).group(1)
    undone = client.post("/study/undo", data={"csrf_token": csrf_token(after),
                                               "review_id": review_id})
    assert undone.status_code == 303
    again = client.get("/study").text
    assert shown(again) == shown(first) and shown_puzzle(again) != shown_puzzle(first)
    assert shown_puzzle(client.get("/study").text) == shown_puzzle(again)  # reload: the same
    with app.app_context():
        assert db.session.scalar(select(User.undo_count).where(User.username == "sam")) == 1
        reviews_before = db.session.scalar(select(func.count()).select_from(Review))
    # Back to the undone puzzle's pages: its version is 0 again, but it is not the puzzle dealt.
    old = study_token(first)
    checked = client.get("/study/answer", query_string={"token": old, "answer": "1",
                                                        "hints_used": "0"})
    assert checked.status_code == 302 and checked.headers["Location"].endswith("/study")
    rerated = client.post("/study/rate", data={"csrf_token": csrf_token(again), "token": old,
                                                "rating": "3", "answer": "", "hints_used": "0"})
    assert rerated.status_code == 302
    assert "Not saved. That puzzle" in client.get("/study").text.replace("&#39;", "'")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Review)) == reviews_before


def test_seeds_without_undos_are_the_ones_dealt_before_undos_were_counted():
    key = b"k" * 32
    before = hmac.new(key, b"puzzle-seed.1.5.0", hashlib.sha256).digest()
    assert derive_puzzle_seed(key, 1, 5, 0) == int.from_bytes(before[:8], "big") >> 1
    assert derive_puzzle_seed(key, 1, 5, 0, 1) != derive_puzzle_seed(key, 1, 5, 0)


def test_derived_seeds_change_with_each_part_and_stay_in_range():
    seeds = {derive_puzzle_seed(key, user, item, version)
             for key in (b"k" * 32, b"j" * 32) for user in (1, 2) for item in (5, 6)
             for version in (0, 1, 2)}
    assert len(seeds) == 24 and all(0 <= seed < 2**63 for seed in seeds)
    assert derive_puzzle_seed(b"k" * 32, 1, 5, 0) == derive_puzzle_seed(b"k" * 32, 1, 5, 0)


def undo_latest(client) -> None:
    page = client.get("/study").text
    review_id = re.search(r'name="review_id" type="hidden" value="(\d+)"', page).group(1)
    response = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                                "review_id": review_id})
    assert response.status_code == 303


def skill_reviews_of(app, key: str) -> list[tuple[int, int]]:
    with app.app_context():
        return [tuple(row) for row in db.session.execute(
            select(Review.rating, Review.puzzle_seed).join(Item, Review.item_id == Item.id)
            .where(Item.key == key))]


def test_an_undo_of_another_item_leaves_an_open_puzzle_page_current(app, client, skill_bank,
                                                                     seeds):
    """Tab 1 has checked a new skill's puzzle; tab 2 undoes the card rated before it. Tab 1's
    rating is saved with its puzzle (it was thrown away)."""
    register(client, "sam")
    page = reach_first_skill(client)  # the cards before it were rated Easy
    key = shown(page)[1]
    seed = seeds.given[-1]
    result = client.get("/study/answer", query_string={
        "token": study_token(page), "answer": "1", "hints_used": "0"})
    assert result.status_code in (200, 422)
    other_tab = app.test_client()
    login(other_tab, "sam")
    undo_latest(other_tab)  # a card's rating, not the skill's
    checked = client.get("/study/answer", query_string={
        "token": study_token(page), "answer": "yes", "hints_used": "0"})
    assert checked.status_code != 302  # still the puzzle on the page, not "out of date"
    rated = rate_current(client, 3, page, answer="yes", hints_used="0")
    assert rated.status_code == 303
    assert skill_reviews_of(app, key) == [(3, seed)]
    assert "out of date" not in client.get("/study").text


def test_a_new_skills_page_from_before_two_undos_is_refused(app, client, skill_bank):
    """After two undos it is not known which items they took back (only the latest is stored),
    so a page of a new skill shown before them is refused, as it was before the item of the
    latest undo was stored."""
    register(client, "sam")
    page = reach_first_skill(client)
    key = shown(page)[1]
    other_tab = app.test_client()
    login(other_tab, "sam")
    undo_latest(other_tab)
    undo_latest(other_tab)  # two cards' ratings
    stale = rate_current(client, 3, page, answer="", hints_used="0")
    assert stale.status_code == 302
    assert "Not saved. That puzzle" in client.get("/study").text.replace("&#39;", "'")
    assert skill_reviews_of(app, key) == []


def test_an_undo_committed_after_the_pages_check_still_refuses_its_rating(app, client,
                                                                         skill_bank, monkeypatch):
    """The rating view checks the page against the user's undos, then the service writes: an
    undo of the skill's first rating landing in between set the version back to 0, and the
    rating of the puzzle whose answer was shown was saved. The
    service checks again inside its write transaction."""
    register(client, "sam")
    page = reach_first_skill(client)
    key = shown(page)[1]
    other_tab = app.test_client()
    login(other_tab, "sam")
    assert rate_current(other_tab, 1).status_code == 303  # the skill's first rating, its own page
    real = study_view.compute_duration_ms

    def undo_meanwhile(shown_item, now):  # runs between the view's check and the write
        monkeypatch.setattr(study_view, "compute_duration_ms", real)
        undo_latest(other_tab)
        return real(shown_item, now)

    monkeypatch.setattr(study_view, "compute_duration_ms", undo_meanwhile)
    stale = rate_current(client, 3, page, answer="", hints_used="0")
    assert stale.status_code == 303
    assert "Not saved. That puzzle" in client.get("/study").text.replace("&#39;", "'")
    assert skill_reviews_of(app, key) == []
    with app.app_context():
        assert db.session.scalar(select(User.undo_count).where(User.username == "sam")) == 1


def set_new_per_day(app, username: str, new: int) -> None:
    with app.app_context():
        db.session.execute(update(User).where(User.username == username).values(new_per_day=new))
        db.session.commit()


def test_a_result_page_from_before_its_first_rating_was_undone_stays_out_of_date(
        app, client, skill_bank, clock):
    """A skill rated Again, its step checked (page R1, version 1), that first rating undone,
    the skill rated anew (version 1 again): Back to R1 looked current and rated the old puzzle
    a second time. Undoing a first rating restarts the versions, so
    any page of the item from before it is out of date."""
    register(client, "sam")
    page = reach_first_skill(client)
    key = shown(page)[1]
    rate_current(client, 1, page, answer="", hints_used="0")  # Again: version 1
    set_new_per_day(app, "sam", 0)  # nothing new comes between: the step is next
    clock.advance(minutes=2)
    step = client.get("/study").text
    assert shown(step)[1] == key
    r1 = {"token": study_token(step), "answer": "1", "hints_used": "0"}
    assert client.get("/study/answer", query_string=r1).status_code in (200, 422)
    undo_latest(client)  # the skill's first rating: it is new again
    set_new_per_day(app, "sam", 20)
    fresh = client.get("/study").text
    assert shown(fresh)[1] == key
    rate_current(client, 4, fresh, answer="", hints_used="0")  # version 1 again
    back = client.get("/study/answer", query_string=r1)
    assert back.status_code == 302  # out of date, not a live page for the old puzzle
    stale = client.post("/study/rate", data={"csrf_token": csrf_token(fresh), "token": r1["token"],
                                             "rating": "1", "answer": "", "hints_used": "0"})
    assert stale.status_code == 302
    assert [rating for rating, _ in skill_reviews_of(app, key)] == [4]


def test_pages_from_before_undos_were_stored_are_out_of_date(app, client, skill_bank):
    """An undo made before migration 8b2f4d6e1a37 left no item stored (None): which item it took
    back is not known, so a puzzle page from before it is refused."""
    register(client, "sam")
    page = reach_first_skill(client)
    with app.app_context():
        db.session.execute(update(User).where(User.username == "sam").values(undo_count=1))
        db.session.commit()
    stale = rate_current(client, 3, page, answer="", hints_used="0")
    assert stale.status_code == 302
    assert "Not saved. That puzzle" in client.get("/study").text.replace("&#39;", "'")
