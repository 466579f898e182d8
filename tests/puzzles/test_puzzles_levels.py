"""A puzzle's difficulty follows from what its level must be able to do, checked over hundreds
of seeds with measurable criteria: how many calls build the tensors, whether x is contiguous,
whether an answer needs the size-1 exemption. Judging levels by hand let tolist senior 56 (one
expand of a 1-D arange), contiguous_bytes principal 210 (one select of a fresh tensor) and
view_possible senior 5 (a permute undone by another) through."""

from __future__ import annotations

import ast
import re
from statistics import mean

import pytest

from quizapp.puzzles import families, generate
from quizapp.puzzles.distractors import contiguous_strides

SEEDS = range(300)


def chain_calls(expr: ast.expr) -> int:
    """Calls, indexings and attribute ops chained on a tensor (not the ``torch.*`` constructor)."""
    count = 0
    node = expr
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
                return count
            count, node = count + 1, node.func.value
        elif isinstance(node, ast.Subscript):
            count, node = count + 1, node.value
        elif isinstance(node, ast.Attribute):
            count, node = count + 1, node.value
        else:
            return count


def calls_per_name(code: str) -> dict[str, int]:
    """``{"x": calls that make x after its constructor, "y": calls that make y from x}``."""
    found = {"x": 0, "y": 0}
    for statement in ast.parse(code).body:
        assert isinstance(statement, ast.Assign), code
        found[statement.targets[0].id] += chain_calls(statement.value)
    return found


def x_layout(puzzle) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """x's shape and strides: view_possible's hint states them; contiguous_bytes's worked
    solution has them in the step before ``.contiguous()`` (its hint leaves them to work out)."""
    if puzzle["family"] == "contiguous_bytes":
        steps = re.findall(r"gives shape (\([^)]*\)), stride (\([^)]*\))", puzzle["explanation"])
        shape, strides = steps[-2]
        return tuple(ast.literal_eval(shape)), tuple(ast.literal_eval(strides))
    match = re.search(r"x has shape (\([^)]*\)),? (?:and )?strides (\([^)]*\))", puzzle["hints"][1])
    assert match, puzzle["hints"][1]
    return tuple(ast.literal_eval(match.group(1))), tuple(ast.literal_eval(match.group(2)))


def contiguous(shape, strides) -> bool:
    wanted = contiguous_strides(shape)
    return all(s == w for n, s, w in zip(shape, strides, wanted, strict=True) if n != 1)


def test_tolist_levels():
    """Junior reads one call; a senior reads through two or more (windows, diagonals, expand)."""
    for seed in SEEDS:
        junior = calls_per_name(generate("tolist", "junior", seed)["code"])
        assert junior["y"] == 1, seed
        senior = calls_per_name(generate("tolist", "senior", seed)["code"])
        assert senior["x"] + senior["y"] >= 2 and senior["y"] >= 2, seed


def test_contiguous_bytes_principal_needs_more_than_a_glance():
    """x is made by two calls or more, and an x that copies nothing is contiguous only by the
    size-1 exemption (its strides are not the row-major ones), so no answer is read off a
    fresh-looking tensor."""
    answers = {"copies": 0, "none": 0}
    for seed in SEEDS:
        puzzle = generate("contiguous_bytes", "principal", seed)
        assert calls_per_name(puzzle["code"])["x"] >= 2, puzzle["id"]
        shape, strides = x_layout(puzzle)
        if puzzle["answer"] == 0:
            assert contiguous(shape, strides), puzzle["id"]
            assert list(strides) != contiguous_strides(shape), puzzle["id"]
            answers["none"] += 1
        else:
            assert not contiguous(shape, strides), puzzle["id"]
            answers["copies"] += 1
    assert min(answers.values()) > len(SEEDS) // 4, answers


def test_view_possible_levels():
    """Middle: x is fresh or permuted once. Senior: x is never contiguous, so a yes needs the
    chunk rule, not "contiguous tensors always view"."""
    for seed in SEEDS:
        middle = generate("view_possible", "middle", seed)
        assert calls_per_name(middle["code"])["x"] <= 1, middle["id"]
        senior = generate("view_possible", "senior", seed)
        assert not contiguous(*x_layout(senior)), senior["id"]
        assert calls_per_name(senior["code"])["x"] >= 1, senior["id"]


# Families whose levels differ by something other than the number of calls: fresh_strides by
# rank, dtype and size-1 dims; error_raised by which rule the call breaks.
NOT_BY_CALLS = {"fresh_strides", "error_raised"}
MULTI_LEVEL = [f for f in families() if len(f["levels"]) > 1 and f["id"] not in NOT_BY_CALLS]


@pytest.mark.parametrize("family", MULTI_LEVEL, ids=[f["id"] for f in MULTI_LEVEL])
def test_a_higher_level_never_asks_for_fewer_calls(family):
    """Over 300 seeds, the fewest calls a level's puzzle is made of, and their mean, never drop
    from one level to the next."""
    floors, means = [], []
    for level in family["levels"]:
        counts = []
        for seed in SEEDS:
            calls = calls_per_name(generate(family["id"], level, seed)["code"])
            counts.append(calls["x"] + calls["y"])
        floors.append(min(counts))
        means.append(mean(counts))
    assert floors == sorted(floors), (family["id"], floors)
    assert means == sorted(means), (family["id"], means)
