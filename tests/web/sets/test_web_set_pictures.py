"""A set's result draws each puzzle's worked solution and links every chain to the explorer."""

from __future__ import annotations

from picture_support import check_chain_pictures, explorer_links
from sets_support import shown_item
from test_web_sets import answer_current, save, start
from webtest_support import register

from quizapp import puzzles


def test_the_result_draws_each_puzzles_chains(app, client, skill_bank):
    register(client, "drawn")
    slug = save(client, time_limit="")
    attempt_url = start(client, slug)
    keys, positions = [], {}
    for right in (False, True, True, False):
        _, _, position = shown_item(client.get(attempt_url).text)
        kind, key, _ = answer_current(client, attempt_url, right=right)
        keys.append((kind, key))
        positions[key] = position
    result = client.get(attempt_url).text
    linked = explorer_links(result)
    drawn = 0
    for kind, key in keys:
        if kind != "puzzle":
            continue
        family, level, seed = key.split("/")
        chains = list(dict.fromkeys(puzzles.deal(family, level, int(seed)).traced))
        assert chains and all(chain in linked for chain in chains)
        for n, expr in enumerate(chains):
            drawn += check_chain_pictures(result, expr, f"item{positions[key]}-{n}-")
    assert drawn > 0
    assert result.count("pictures.js") >= 1
