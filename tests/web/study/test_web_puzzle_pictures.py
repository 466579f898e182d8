"""A puzzle's worked solution draws the chains it walks, on the result page and in History, with a
link to the explorer for each; every number checked against the engine."""

from __future__ import annotations

import html
import re

import pytest
from picture_support import check_chain_pictures, explorer_links
from test_web_study_picks import answer, load_one_skill
from webtest_support import csrf_token, rate_current, reach_first_skill, register, study_token

from quizapp import puzzles


def answer_first_puzzle(client, seeds, wrong: bool = True):
    page = reach_first_skill(client)
    family, level = re.search(r'data-item-key="([^"]+)"', page).group(1).split("/")
    puzzle = puzzles.deal(family, level, seeds.given[-1])
    answer = next(candidate for candidate in ("(999, 998)", "12345", "no", "yes", "Z", "A", "B")
                  if puzzles.check(puzzle, candidate)["error"] is None
                  and puzzles.check(puzzle, candidate)["correct"] != wrong)
    result = client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer,
        "hints_used": "0"})
    return puzzle, answer, page, result.text


def test_the_result_draws_every_chain_the_solution_walks(client, skill_bank, seeds):
    register(client, "pia")
    puzzle, _, question, result = answer_first_puzzle(client, seeds)
    assert puzzle.traced
    assert "Pictures of memory" in result
    assert explorer_links(result) == list(dict.fromkeys(puzzle.traced))
    cells = sum(check_chain_pictures(result, expr, f"solution-{n}-")
                for n, expr in enumerate(dict.fromkeys(puzzle.traced)))
    assert cells > 0
    # Not before the answer: the question page draws nothing that would give it away.
    assert 'class="pic"' not in question and "Open in the explorer" not in question


def test_a_puzzle_reopened_from_history_draws_the_same_pictures(client, skill_bank, seeds):
    register(client, "pim")
    puzzle, answer, _, result = answer_first_puzzle(client, seeds)
    assert rate_current(client, 1, result, answer=answer).status_code == 303
    history = client.get("/study/history").text
    link = re.search(r'<a href="(/study/history/\d+)" title="See this puzzle again', history)
    shown = client.get(link.group(1)).text
    assert explorer_links(shown) == list(dict.fromkeys(puzzle.traced))
    for n, expr in enumerate(dict.fromkeys(puzzle.traced)):
        check_chain_pictures(shown, expr, f"solution-{n}-")


def test_every_family_draws_its_traced_chains():
    """Each family's puzzles carry the chains their solution is about, and the engine reads
    them all (a torch error is a step the pictures end at, never a refusal of the input)."""
    from quizapp.engine import explain

    for family in puzzles.families():
        for level in family["levels"]:
            puzzle = puzzles.deal(family["id"], level, 3)
            assert puzzle.traced, puzzle.id
            for expr in puzzle.traced:
                doc = explain(expr)
                assert doc["steps"], (puzzle.id, expr)
                assert (doc["error"] or {}).get("type") != "ExpressionError", (puzzle.id, expr)


@pytest.mark.parametrize("family,level", [("view_possible", "middle"), ("reshape_alias", "middle"),
                                          ("error_raised", "senior")])
def test_a_wrong_answer_says_each_paragraph_once(app, client, clock, seeds, family, level):
    """The verdict says wrong, the worked steps say why, the answer line says the answer: no
    sentence of one is printed again in another (the refusal's reason came three times)."""
    load_one_skill(app, clock, family, level)
    register(client, "once")
    page = reach_first_skill(client)
    puzzle = puzzles.deal(family, level, seeds.given[-1])
    wrong = next(c for c in ("no", "yes", "A", "B", "C", "D")
                 if puzzles.check(puzzle, c)["error"] is None and not puzzles.check(puzzle, c)[
                     "correct"])
    result = answer(client, page, wrong).text
    assert 'data-verdict="wrong"' in result
    verdict = re.search(r'<div class="verdict.*?</dl>(.*?)</div>', result, re.S).group(1)
    why = re.search(r"<summary>Why</summary>\s*<div class=\"prose\">(.*?)</div>", result,
                    re.S).group(1)
    said = [sentence.strip().removeprefix("Answer. ") for part in (verdict, why)
            for sentence in re.split(r"(?<=[.!?])\s+|<li>|<p>", html.unescape(
                re.sub(r"<(?!li>|p>)[^>]+>", "", part))) if len(sentence.strip()) >= 30]
    assert said and len(said) == len(set(said)), [s for s in said if said.count(s) > 1]


def test_a_skill_page_folds_its_examples_solution_with_pictures(client, skill_bank):
    from quizapp.services.skill_browser import EXAMPLE_SEED

    page = client.get("/puzzles/view_possible/middle").text
    example = puzzles.deal("view_possible", "middle", EXAMPLE_SEED)
    folded = page.split('<details class="more example-solution">')[1].split("</article>")[0]
    assert explorer_links(folded) == list(dict.fromkeys(example.traced))
    for n, expr in enumerate(dict.fromkeys(example.traced)):
        check_chain_pictures(folded, expr, f"example-{n}-")
