"""generate(): a set's items from its parameters, seed and bank; rebuild_items() from frozen keys.

Every draw is a ranking by SHA-256 of the seed and the thing drawn (a card's id, a puzzle
skill, an item's position), so a set depends only on its parameters, its seed and the bank, the
same on every machine and Python version, and a card added to the bank moves no other card.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from quizapp.practice_sets.bank import Bank, BankCard
from quizapp.practice_sets.formatting import CHOICE_LETTERS, code_span
from quizapp.practice_sets.items import (
    CARD,
    PUZZLE,
    PUZZLE_SEED_MAX,
    ItemRef,
    PuzzleKey,
    SetItem,
    UnknownItem,
    parse_puzzle_key,
    validate_ref,
)
from quizapp.practice_sets.params import SetParams, validate_params
from quizapp.puzzles import LEVELS, Puzzle, deal, families, fmt_answer

# A family with few variants may deal the same puzzle under two seeds; a set draws again
# (this many times at most) rather than ask the same thing twice.
REDRAWS = 8
# Draws of a skill looking for a puzzle with a concept asked for (the rarest tag a skill deals
# comes about one draw in eight) before the skill is left out.
TRIES = 40


class NotEnoughItems(ValueError):
    """The bank cannot fill the set: ``available`` is the most items it can give with these
    filters (with the number of puzzles asked for; with none when no puzzle matches);
    ``cards_available`` how many cards match."""

    def __init__(self, message: str, *, available: int, cards_available: int) -> None:
        super().__init__(message)
        self.message = message
        self.available = available
        self.cards_available = cards_available


@dataclass(frozen=True, slots=True)
class Skill:
    """A puzzle family at one level, as a set draws it."""

    family: str
    level: str
    title: str
    concepts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pools:
    """What the filters let a set draw from: active cards and puzzle skills."""

    cards: tuple[BankCard, ...]
    skills: tuple[Skill, ...]


def _rank(seed: int, *parts: str) -> bytes:
    return hashlib.sha256("/".join(("quizapp-set", str(seed), *parts)).encode()).digest()


def select_pools(params: SetParams, bank: Bank) -> Pools:
    """Cards (not retired) and skills passing every filter given: a level among ``levels``,
    a concept among ``concepts``; ``families`` narrows the puzzles only."""
    levels, concepts = set(params.levels), set(params.concepts)
    cards = tuple(
        card for card in bank.cards
        if not card.retired and (not levels or card.level in levels)
        and (not concepts or concepts.intersection(card.concepts)))
    skills = tuple(
        Skill(f["id"], level, f["title"], tuple(f["concepts"]))
        for f in families()
        if (not params.families or f["id"] in params.families)
        and (not concepts or concepts.intersection(f["concepts"]))
        for level in f["levels"] if not levels or level in levels)
    return Pools(cards, skills)


def compute_puzzle_count(params: SetParams, pools: Pools) -> int:
    """How many puzzles: as asked; else all when puzzle families were named or no card
    matches, none when no puzzle matches, and otherwise half (rounded down), more when too
    few cards match to fill the rest."""
    if params.puzzles is not None:
        return params.puzzles
    if params.families:
        return params.count
    if not pools.skills:
        return 0
    if not pools.cards:
        return params.count
    return max(params.count // 2, params.count - len(pools.cards))


def validate_fillable(params: SetParams, pools: Pools, puzzles: int) -> None:
    """NotEnoughItems, saying how many items the bank can give, when it cannot fill the set."""
    cards = len(pools.cards)
    noun = "card matches" if cards == 1 else "cards match"
    if puzzles and not pools.skills:
        raise NotEnoughItems(
            f"no puzzle matches these filters, so the set can have no puzzles; {cards} {noun} "
            f"them", available=min(cards, params.count), cards_available=cards)
    if params.count - puzzles > cards:
        if not cards and not pools.skills:
            message = "nothing in the bank matches these filters"
        elif params.puzzles is None:
            message = f"only {cards} {noun} these filters and no puzzle does"
        else:
            message = (f"only {cards} {noun} these filters: with {puzzles} puzzles the set "
                       f"can have at most {cards + puzzles} items")
        raise NotEnoughItems(message, available=cards + puzzles, cards_available=cards)


def draw_cards(seed: int, cards: Sequence[BankCard], n: int) -> list[BankCard]:
    return sorted(cards, key=lambda card: _rank(seed, "card", card.id))[:n]


def draw_puzzle_keys(seed: int, skills: Sequence[Skill], n: int,
                     concepts: Collection[str] = ()) -> list[PuzzleKey]:
    """``n`` puzzles taking the skills in turn (shuffled by the seed), no two alike.

    With ``concepts`` a puzzle must carry one of them itself: a family's tags are those of all
    its puzzles, and a skill (a family at one level) may deal few or none with a given tag. A
    skill that deals none in TRIES draws is left out of the turn; NoPuzzleMatches when none is
    left.
    """
    order = sorted(skills, key=lambda s: _rank(seed, "skill", s.family, s.level))
    wanted = set(concepts)
    keys: list[PuzzleKey] = []
    seen: set[tuple[str, str]] = set()
    dead: set[Skill] = set()
    for i in range(n):
        chosen: PuzzleKey | None = None
        for turn in range(len(order)):
            skill = order[(i + turn) % len(order)]
            if skill in dead:
                continue
            chosen, matched = _draw_one(seed, i, turn, skill, wanted, seen)
            if chosen is not None:
                break
            if not matched:
                dead.add(skill)
        if chosen is None:
            raise NoPuzzleMatches
        keys.append(chosen)
    return keys


class NoPuzzleMatches(Exception):
    """No skill in the pool deals a puzzle carrying the concepts asked for."""


def _draw_one(seed: int, i: int, turn: int, skill: Skill, wanted: set[str],
              seen: set[tuple[str, str]]) -> tuple[PuzzleKey | None, bool]:
    """The first of TRIES draws of ``skill`` for position ``i`` that matches ``wanted`` and
    is new (a repeat when only repeats match), and whether any draw matched."""
    fallback: PuzzleKey | None = None
    for attempt in range(TRIES):
        digest = _rank(seed, "puzzle", str(i), str(turn), str(attempt))
        key = PuzzleKey(skill.family, skill.level,
                        int.from_bytes(digest[:8], "big") & PUZZLE_SEED_MAX)
        puzzle = deal(key.family, key.level, key.seed)
        if wanted and not wanted.intersection(puzzle.concepts):
            continue
        shown = (puzzle.prompt, puzzle.code or "")
        if shown not in seen:
            seen.add(shown)
            return key, True
        fallback = fallback or key
        if attempt >= REDRAWS:
            break
    return fallback, fallback is not None


def plan(params: SetParams, bank: Bank) -> tuple[ItemRef, ...]:
    """The keys of the set's items in order (what a saved set freezes); SetParamsError for
    parameters the bank does not know, NotEnoughItems when it cannot fill them."""
    validate_params(params, bank.concepts)
    pools = select_pools(params, bank)
    puzzles = compute_puzzle_count(params, pools)
    try:
        keys = draw_puzzle_keys(params.seed, pools.skills, puzzles, params.concepts)
    except NoPuzzleMatches:
        pools = Pools(pools.cards, ())
        puzzles = compute_puzzle_count(params, pools)
        keys = []
    validate_fillable(params, pools, puzzles)
    levels: dict[ItemRef, str] = {}
    for card in draw_cards(params.seed, pools.cards, params.count - puzzles):
        levels[ItemRef(CARD, card.id)] = card.level
    for key in keys:
        levels[ItemRef(PUZZLE, key.text)] = key.level
    # Junior first, as a sheet goes from easy to hard; the kinds mixed within a level.
    return tuple(sorted(levels, key=lambda ref: (
        LEVELS.index(levels[ref]), _rank(params.seed, "order", ref.kind, ref.key))))


def generate(params: SetParams, bank: Bank) -> tuple[SetItem, ...]:
    """The set's items: the same for the same parameters, seed and bank."""
    return rebuild_items(plan(params, bank), bank)


def rebuild_items(refs: Iterable[ItemRef], bank: Bank) -> tuple[SetItem, ...]:
    """Items from frozen keys, in their order; a card retired since is labelled so.
    UnknownItem for a key the bank or the puzzles cannot resolve."""
    titles = {f["id"]: f["title"] for f in families()}
    items = []
    for ref in refs:
        validate_ref(ref)
        if ref.kind == CARD:
            card = bank.card(ref.key)
            if card is None:
                raise UnknownItem(f"no card {ref.key!r} in the bank")
            items.append(compute_card_item(card))
        else:
            key = parse_puzzle_key(ref.key)
            try:
                puzzle = deal(key.family, key.level, key.seed)
            except ValueError as err:
                raise UnknownItem(f"puzzle {ref.key!r}: {err}") from err
            items.append(compute_puzzle_item(key, titles[key.family], puzzle))
    return tuple(items)


def compute_card_item(card: BankCard) -> SetItem:
    return SetItem(kind=CARD, key=card.id, level=card.level, concepts=card.concepts,
                   title=card.title, prompt=card.question, answer=card.answer,
                   explanation=card.explanation, code=card.code, code_output=card.code_output,
                   retired=card.retired)


def compute_puzzle_answer(puzzle: Puzzle) -> str:
    """The answer as Markdown: the value as typed, and for options their letters and text."""
    kind, answer = puzzle.answer_kind, puzzle.answer
    if kind in ("choice", "choices"):
        letters = [answer] if kind == "choice" else list(answer)
        if not letters:
            return "none of the options"
        choices = puzzle.choices or ()
        return "; ".join(
            f"({CHOICE_LETTERS[index]}) {code_span(choices[index])}"
            for index in (CHOICE_LETTERS.index(letter.upper()) for letter in letters))
    return code_span(fmt_answer(kind, answer))


def compute_puzzle_item(key: PuzzleKey, family_title: str, puzzle: Puzzle) -> SetItem:
    return SetItem(kind=PUZZLE, key=key.text, level=key.level, concepts=puzzle.concepts,
                   title=f"{family_title} ({key.level})", prompt=puzzle.prompt,
                   answer=compute_puzzle_answer(puzzle), explanation=puzzle.explanation,
                   code=puzzle.code or "", choices=puzzle.choices or (),
                   answer_kind=puzzle.answer_kind, chains=puzzle.traced)
