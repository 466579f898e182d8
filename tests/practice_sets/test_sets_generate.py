"""generate(), plan() and rebuild_items(): determinism, filters, the mix, freezing, errors."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from set_bank_support import make_card, params, real_bank, small_bank

from quizapp.practice_sets import (
    CARD,
    PUZZLE,
    ItemRef,
    NotEnoughItems,
    SetParamsError,
    UnknownItem,
    build_bank,
    generate,
    parse_puzzle_key,
    plan,
    rebuild_items,
)
from quizapp.practice_sets.exports.text import compute_front
from quizapp.puzzles import LEVELS, compute_pick_options, families
from quizapp.puzzles import generate as generate_puzzle


def test_the_same_parameters_seed_and_bank_give_the_same_items_in_the_same_order():
    first = generate(params(count=20, seed=42), small_bank())
    again = generate(params(count=20, seed=42), small_bank())
    assert first == again
    assert len(first) == 20 and len({item.ref for item in first}) == 20


def test_another_seed_gives_another_set():
    sets = {tuple(item.key for item in generate(params(count=12, seed=seed), small_bank()))
            for seed in range(10)}
    assert len(sets) == 10


def test_negative_and_huge_seeds_work():
    assert generate(params(seed=-(2**63)), small_bank()) != generate(
        params(seed=2**63 - 1), small_bank())


def test_unspecified_puzzles_make_half_the_set():
    kinds = Counter(item.kind for item in generate(params(count=11), small_bank()))
    assert kinds == {CARD: 6, PUZZLE: 5}


def test_the_number_of_puzzles_given_is_kept():
    for puzzles in (0, 3, 10):
        kinds = Counter(i.kind for i in generate(params(count=10, puzzles=puzzles), small_bank()))
        assert kinds[PUZZLE] == puzzles and kinds[CARD] == 10 - puzzles


def test_naming_puzzle_families_makes_a_set_of_puzzles_of_those_families():
    items = generate(params(count=9, families=("fresh_strides", "view_possible")), small_bank())
    assert {item.kind for item in items} == {PUZZLE}
    assert {parse_puzzle_key(item.key).family for item in items} == {
        "fresh_strides", "view_possible"}


def test_level_and_concept_filters_hold_for_cards_and_puzzles():
    items = generate(params(count=12, levels=("junior", "principal"), concepts=("stride",)),
                     small_bank())
    assert {item.level for item in items} == {"junior", "principal"}
    for item in items:
        assert "stride" in item.concepts, item
    assert {item.kind for item in items} == {CARD, PUZZLE}


def test_puzzles_take_every_skill_in_turn_and_none_repeats():
    skills = [(f["id"], level) for f in families() for level in f["levels"]]
    items = generate(params(count=len(skills), puzzles=len(skills)), small_bank())
    seen = Counter((parse_puzzle_key(i.key).family, i.level) for i in items)
    assert sorted(seen) == sorted(skills) and set(seen.values()) == {1}
    shown = {(i.prompt, i.code) for i in items}
    assert len(shown) == len(items)


def test_items_go_from_junior_to_principal():
    levels = [item.level for item in generate(params(count=40, puzzles=20), real_bank())]
    assert levels == sorted(levels, key=LEVELS.index)
    assert len(set(levels)) == 4


def test_puzzle_items_are_the_puzzles_their_keys_name():
    for item in generate(params(count=20, puzzles=20, seed=3), small_bank()):
        key = parse_puzzle_key(item.key)
        puzzle = generate_puzzle(key.family, key.level, key.seed)
        assert (item.prompt, item.code, item.explanation) == (
            puzzle["prompt"], puzzle["code"], puzzle["explanation"])
        assert item.concepts == tuple(puzzle["concepts"]) and item.level == puzzle["level"]
        assert item.answer_kind == puzzle["answer_kind"]
        assert item.choices == tuple(puzzle["choices"] or ())


def test_puzzle_answers_name_the_option_letters_and_texts():
    items = generate(params(count=24, puzzles=24, families=("storage_index",), seed=5),
                     small_bank())
    choice = next(i for i in items if i.answer_kind == "choice")
    key = parse_puzzle_key(choice.key)
    puzzle = generate_puzzle(key.family, key.level, key.seed)
    marks = {value: (mark, label) for value, mark, label in compute_pick_options(puzzle)}
    mark, text = marks[puzzle["answer"].upper()]  # lettered as the puzzle's pages letter it
    assert choice.answer == f"({mark}) `{text}`"
    lines = compute_front(choice).splitlines()
    assert [f"- ({m}) `{label}`" for m, label in marks.values()] == [
        line for line in lines if line.startswith("- (")]


def test_card_items_carry_the_cards_text():
    bank = small_bank()
    for item in generate(params(count=10, puzzles=0), bank):
        card = bank.card(item.key)
        assert (item.title, item.prompt, item.answer, item.explanation, item.code,
                item.code_output, item.level, item.concepts) == (
            card.title, card.question, card.answer, card.explanation, card.code,
            card.code_output, card.level, card.concepts)


def test_retired_cards_are_not_drawn():
    cards = [make_card(i, retired=i % 2 == 0) for i in range(20)]
    items = generate(params(count=10, puzzles=0), build_bank(cards, set()))
    assert all(int(item.key.split("-")[1]) % 2 == 1 for item in items)


def test_a_card_added_to_the_bank_moves_no_other_card():
    before = [i.key for i in generate(params(count=30, puzzles=0, seed=9), small_bank(40))]
    bigger = [i.key for i in generate(params(count=30, puzzles=0, seed=9), small_bank(41))]
    assert len(set(before) - set(bigger)) <= 1


def test_frozen_keys_rebuild_the_same_items_after_the_bank_is_edited():
    bank = small_bank()
    items = generate(params(count=10, puzzles=4), bank)
    frozen = [item.ref for item in items]
    edited = build_bank([make_card(i, retired=True) for i in range(24)] + [make_card(99)], set())
    rebuilt = rebuild_items(frozen, edited)
    assert [item.ref for item in rebuilt] == frozen
    for old, new in zip(items, rebuilt, strict=True):
        if old.kind == CARD:
            assert new.retired and dataclasses.replace(new, retired=False) == old
        else:
            assert new == old


def test_rebuild_refuses_keys_it_cannot_resolve():
    bank = small_bank()
    for ref, message in [
        (ItemRef(CARD, "no-such-card"), "no card 'no-such-card'"),
        (ItemRef(CARD, "Bad Id"), "not a card id"),
        (ItemRef(PUZZLE, "fresh_strides/junior"), "not a puzzle key"),
        (ItemRef(PUZZLE, "fresh_strides/junior/99999999999999999999"), "not a puzzle key"),
        (ItemRef(PUZZLE, "nope/junior/1"), "unknown puzzle family 'nope'"),
        (ItemRef(PUZZLE, "fresh_strides/principal/1"), "has no principal puzzles"),
        (ItemRef("quiz", "x"), "unknown item kind 'quiz'"),
    ]:
        with pytest.raises(UnknownItem, match=message):
            rebuild_items([ref], bank)


def test_plan_is_what_generate_shows():
    bank = small_bank()
    assert tuple(item.ref for item in generate(params(count=15), bank)) == plan(
        params(count=15), bank)


@pytest.mark.parametrize(("fields", "available", "message"), [
    (dict(count=30, puzzles=0), 24, "only 24 cards match these filters: with 0 puzzles the "
                                    "set can have at most 24 items"),
    (dict(count=30, puzzles=5), 29, "with 5 puzzles the set can have at most 29 items"),
    (dict(count=5, puzzles=2, concepts=("zero-dim",)), 0,
     "no puzzle matches these filters, so the set can have no puzzles; 0 cards match them"),
    (dict(count=5, concepts=("zero-dim",)), 0, "nothing in the bank matches these filters"),
])
def test_a_set_the_bank_cannot_fill_says_how_many_it_can(fields, available, message):
    bank = build_bank([make_card(i) for i in range(24)], {"zero-dim"})
    with pytest.raises(NotEnoughItems) as caught:
        generate(params(**fields), bank)
    assert message in str(caught.value)
    assert caught.value.available == available


def test_unspecified_puzzles_fill_what_cards_cannot():
    kinds = Counter(item.kind for item in generate(params(count=20), small_bank(4)))
    assert kinds == {CARD: 4, PUZZLE: 16}


def test_only_cards_when_no_puzzle_matches():
    bank = build_bank([make_card(i, concepts=("zero-dim",)) for i in range(8)], set())
    kinds = Counter(i.kind for i in generate(params(count=5, concepts=("zero-dim",)), bank))
    assert kinds == {CARD: 5}
    with pytest.raises(NotEnoughItems, match="only 8 cards match these filters and no puzzle"):
        generate(params(count=9, concepts=("zero-dim",)), bank)


def test_parameters_built_by_hand_are_checked():
    with pytest.raises(SetParamsError, match="unknown concept 'nope'"):
        generate(params(concepts=("nope",)), small_bank())
    with pytest.raises(SetParamsError, match="not in canonical form"):
        generate(params(levels=("senior", "junior")), small_bank())


def test_a_concept_filter_holds_for_each_puzzle_not_only_its_family():
    # strides_after's principal puzzles carry "unfold" about one time in eight.
    items = generate(params(count=6, families=("strides_after",), levels=("principal",),
                            concepts=("unfold",), seed=2), small_bank())
    assert len(items) == 6 and all("unfold" in item.concepts for item in items)


def test_named_families_whose_puzzles_never_carry_the_concept_fill_nothing():
    # shape_after's junior puzzles never slice, though the family's tags include slicing.
    bank = build_bank([make_card(i, concepts=("slicing",), level="junior") for i in range(3)],
                      set())
    with pytest.raises(NotEnoughItems, match="no puzzle matches these filters") as caught:
        generate(params(count=4, families=("shape_after",), levels=("junior",),
                        concepts=("slicing",)), bank)
    assert caught.value.available == 3
    items = generate(params(count=3, levels=("junior",), concepts=("slicing",)), bank)
    assert len(items) == 3 and all("slicing" in item.concepts for item in items)


def test_a_skill_with_few_variants_never_asks_the_same_puzzle_twice():
    # tolist's junior puzzles come in about 70 variants: 40 draws would repeat one by chance.
    for seed in range(3):
        items = generate(params(count=40, families=("tolist",), levels=("junior",), seed=seed),
                         small_bank())
        assert len({(item.prompt, item.code) for item in items}) == 40


def test_an_answer_with_several_options_names_each_or_none():
    items = generate(params(count=30, families=("viewable_shapes",), seed=4), small_bank())
    seen_some = False
    for item in items:
        key = parse_puzzle_key(item.key)
        puzzle = generate_puzzle(key.family, key.level, key.seed)
        assert puzzle["answer_kind"] == "choices"
        marks = {value: (mark, label) for value, mark, label in compute_pick_options(puzzle)}
        if not puzzle["answer"]:
            assert item.answer == "none of the options"
            continue
        seen_some = True
        assert item.answer == "; ".join(f"({marks[v.upper()][0]}) `{marks[v.upper()][1]}`"
                                        for v in puzzle["answer"])
    assert seen_some, "no puzzle with options picked"
