"""canonicalize_params and its parts: canonical values, and every message a person may see."""

from __future__ import annotations

import random

import pytest

from quizapp.practice_sets import (
    SetParams,
    SetParamsError,
    canonicalize_params,
    draw_seed,
    validate_params,
)

KNOWN = {"stride", "view", "contiguity"}


def make(**raw):
    raw.setdefault("count", 10)
    raw.setdefault("seed", 1)
    return canonicalize_params(known_concepts=KNOWN, **raw)


def test_filters_come_back_in_catalogue_order_each_once():
    p = make(levels=["senior", "junior", "senior", " "], concepts=["view", "stride", "view"],
             families=["view_possible", "fresh_strides"])
    assert p.levels == ("junior", "senior")
    assert p.concepts == ("stride", "view")
    assert p.families == ("fresh_strides", "view_possible")


def test_names_may_come_with_capitals():
    p = make(levels=["Senior"], concepts=["VIEW"], families=["Fresh_Strides"])
    assert (p.levels, p.concepts, p.families) == (("senior",), ("view",), ("fresh_strides",))


def test_numbers_may_come_as_text_and_blank_optional_ones_mean_none():
    p = make(count=" 12 ", seed="-5", puzzles="3", time_limit="30", title="  My   set \n")
    assert p == SetParams(count=12, seed=-5, puzzles=3, time_limit=30, title="My set")
    assert make(puzzles="", time_limit=" ", title="   ") == SetParams(count=10, seed=1)


def test_bounds_are_accepted():
    assert make(count=1, puzzles=0).count == 1
    assert make(count=100, puzzles=100, time_limit=240).puzzles == 100
    assert make(seed=-(2**63)).seed == -(2**63)
    assert make(seed=str(2**63 - 1)).seed == 2**63 - 1
    assert make(time_limit=1).time_limit == 1
    assert make(title="x" * 200).title == "x" * 200


@pytest.mark.parametrize(("raw", "field", "message"), [
    (dict(levels=["expert"]), "levels",
     "unknown level 'expert'; the levels are junior, middle, senior, principal"),
    (dict(levels=[3]), "levels", "a level must be text"),
    (dict(levels=["junior"] * 201), "levels", "at most 200 level filters may be given"),
    (dict(concepts=["nope"]), "concepts",
     "unknown concept 'nope'; the concepts are listed in content/concepts.yaml"),
    (dict(concepts=["x" * 500]), "concepts", "unknown concept '" + "x" * 40 + "...'"),
    (dict(families=["nope"]), "families",
     "unknown puzzle family 'nope'; see quizapp puzzle --list for the families"),
    (dict(count=0), "count", "the number of items must be between 1 and 100, not 0"),
    (dict(count=101), "count", "the number of items must be between 1 and 100, not 101"),
    (dict(count="ten"), "count", "the number of items must be a whole number, not 'ten'"),
    (dict(count="1.5"), "count", "the number of items must be a whole number, not '1.5'"),
    (dict(count=True), "count", "the number of items must be a whole number, not True"),
    (dict(count=None), "count", "the number of items must be a whole number"),
    (dict(count=5, puzzles=6), "puzzles",
     "the number of puzzles must be between 0 and the number of items (5), not 6"),
    (dict(puzzles=-1), "puzzles", "between 0 and the number of items (10), not -1"),
    (dict(puzzles="some"), "puzzles", "the number of puzzles must be a whole number"),
    (dict(seed="abc"), "seed", "the seed must be a whole number, not 'abc'"),
    (dict(seed="1_000"), "seed", "the seed must be a whole number, not '1_000'"),
    (dict(seed="٣"), "seed", "the seed must be a whole number"),  # an Arabic-Indic digit
    (dict(seed=2**63), "seed",
     "the seed must be between -9223372036854775808 and 9223372036854775807"),
    (dict(seed=-(2**63) - 1), "seed", "the seed must be between"),
    (dict(seed="9" * 40), "seed", "the seed must be between"),
    (dict(seed="9" * 1001), "seed", "the seed must be a whole number, not '" + "9" * 40 + "...'"),
    (dict(seed=1.0), "seed", "the seed must be a whole number"),
    (dict(time_limit=0), "time_limit", "the time limit must be between 1 and 240 minutes, "
                                       "not 0"),
    (dict(time_limit=241), "time_limit", "between 1 and 240 minutes, not 241"),
    (dict(time_limit="soon"), "time_limit", "the time limit must be a whole number"),
    (dict(title="x" * 201), "title", "the title must be at most 200 characters, not 201"),
    (dict(title="bell\x07"), "title", "the title may not contain control or unassigned"),
    (dict(title="\ud800"), "title", "the title may not contain control or unassigned"),
    (dict(title=5), "title", "the title must be text"),
])
def test_every_wrong_parameter_is_named_and_explained(raw, field, message):
    with pytest.raises(SetParamsError) as caught:
        make(**raw)
    assert caught.value.field == field
    assert message in str(caught.value)


def test_validate_params_takes_canonical_params_and_refuses_others():
    validate_params(make(levels=["junior"], title="T"), KNOWN)
    with pytest.raises(SetParamsError, match="not in canonical form"):
        validate_params(SetParams(count=10, seed=1, title=" T "), KNOWN)
    with pytest.raises(SetParamsError, match="between 1 and 100"):
        validate_params(SetParams(count=0, seed=1), KNOWN)


def test_a_drawn_seed_comes_from_the_generator_given():
    assert draw_seed(random.Random(5)) == draw_seed(random.Random(5))
    seeds = {draw_seed(random.Random(n)) for n in range(50)}
    assert len(seeds) == 50 and all(0 <= s < 10**9 for s in seeds)
