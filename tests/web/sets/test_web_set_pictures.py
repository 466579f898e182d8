"""A set's result draws each puzzle's worked solution and links every chain to the explorer."""

from __future__ import annotations

from picture_support import check_chain_pictures, explorer_links
from sets_support import shown_item
from test_web_sets import answer_current, save, start
from webtest_support import register

from quizapp import puzzles

SAMPLE = "x = torch.arange(6).view(2, 3)\ny = x.t()\nprint(y.is_contiguous())\n"


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


def test_a_card_items_sample_is_drawn_when_its_answer_is_shown(app, client, skill_bank):
    """Every junior card of the bank carries a sample with chains; the set's card item draws
    them in its answer and on the result."""
    import dataclasses
    from datetime import UTC, datetime

    from quizapp.extensions import db
    from quizapp.pictures import compute_sample_chains
    from quizapp.services.bank_import import import_cards

    with app.app_context():
        cards = [dataclasses.replace(card, code=SAMPLE) for card in skill_bank]
        import_cards(db.session, cards, datetime.now(UTC))
    register(client, "sampled")
    slug = save(client, count="1", puzzles="0", families="", time_limit="")
    attempt_url = start(client, slug)
    page = client.get(attempt_url).text
    chains = list(compute_sample_chains(SAMPLE))
    assert explorer_links(page) == chains
    for n, expr in enumerate(chains):
        check_chain_pictures(page, expr, f"sample-{n}-")
    answer_current(client, attempt_url, right=True)
    result = client.get(attempt_url).text
    for n, expr in enumerate(chains):
        check_chain_pictures(result, expr, f"item0-{n}-")
