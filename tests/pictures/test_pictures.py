"""Pictures of memory: every number a picture shows is checked against the engine and torch.

Chains come from the differential tests' generator (seeded, steered by real torch). For each
step the picture's grid cells, storage strip and reach counts are compared with torch's own
addressing (``as_strided`` over a tensor of storage positions) and with the engine's layout.
"""

from __future__ import annotations

import math
import random
import sys
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from quizapp.engine import explain  # noqa: E402
from quizapp.pictures import (  # noqa: E402
    MAX_DRAWN,
    MAX_PICTURES,
    StepLayout,
    compute_chain_pictures,
    compute_step_picture,
    render_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
SEEDS = range(6)
CHAINS_PER_SEED = 60
# Met whatever the generator draws: copies, stride 0, overlapping and sparse views.
KNOWN = ("torch.arange(24.).view(2, 3, 4).transpose(0, 1).reshape(3, 8).t().contiguous()",
         "torch.arange(6).expand(3, 6).clone()[1:]",
         "torch.arange(10).as_strided((4, 3), (2, 1), 1).flatten()")


def independent_positions(layout: StepLayout) -> Counter[int]:
    """How often each storage position is read, by walking every index (no picture code)."""
    counts: Counter[int] = Counter()
    if any(size <= 0 for size in layout.shape):
        return counts
    total = math.prod(layout.shape)
    for flat in range(total):
        position, rest = layout.storage_offset, flat
        for size, stride in zip(reversed(layout.shape), reversed(layout.stride), strict=True):
            rest, i = divmod(rest, size)
            position += i * stride
        counts[position] += 1
    return counts


def svg_cells(svg: str) -> tuple[list[tuple[int, str]], dict[int, set[str]]]:
    """(grid cells as (position, title), storage slots as position -> classes) from the SVG."""
    root = ET.fromstring(svg)
    grid, slots = [], {}
    for g in root.iter(f"{SVG}g"):
        classes = set(g.get("class", "").split())
        if "pic-el" in classes:
            grid.append((int(g.get("data-pos")), g.find(f"{SVG}title").text))
        elif "pic-slot" in classes:
            slots[int(g.get("data-pos"))] = classes
    return grid, slots


def check_picture(picture, step: dict) -> None:
    """The picture against its documented step and an independent walk of its layout."""
    layout = picture.layout
    assert (list(layout.shape), list(layout.stride), layout.storage_offset) == (
        step["shape"], step["stride"], step["storage_offset"])
    assert layout.storage == step["storage"]
    for cell in picture.cells:
        expected = layout.storage_offset + sum(
            i * s for i, s in zip(cell.index, layout.stride, strict=True))
        assert cell.position == expected
    numel = 0 if any(s <= 0 for s in layout.shape) else math.prod(layout.shape)
    assert picture.numel == numel and len(picture.cells) == min(numel, MAX_DRAWN)
    grid, slots = svg_cells(render_svg(picture))
    assert [position for position, _ in grid] == [cell.position for cell in picture.cells]
    # Without JavaScript each cell's title says what hovering would show.
    assert all(f"reads storage position {p} (" in title for p, title in grid)
    assert sorted(slots) == [slot.position for slot in picture.strip]
    if picture.counted:
        counts = independent_positions(layout)
        for slot in picture.strip:
            assert slot.reached == counts[slot.position], slot
            assert ("unreached" in slots[slot.position]) == (counts[slot.position] == 0)
            assert ("repeated" in slots[slot.position]) == (counts[slot.position] > 1)
        assert picture.unreached == layout.storage_size - sum(
            1 for p in counts if 0 <= p < layout.storage_size)


def generated_chains(seed: int, torch) -> list[str]:
    from expr_chains import ChainGenerator

    generator = ChainGenerator(random.Random(seed), torch)
    return [generator.chain() for _ in range(CHAINS_PER_SEED)] + list(KNOWN)


def run_torch_steps(expr: str, torch) -> list:
    """torch's tensor after each step, run by the engine's torch twin backend."""
    from quizapp.engine.expression import ExpressionError, parse_expression
    from quizapp.engine.runner import StepFailed, run_step
    from quizapp.engine.torch_explain import TorchBackend

    chain = parse_expression(expr)
    backend, alive, current, out = TorchBackend(torch), [], None, []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in chain.steps:
            try:
                current, _ = run_step(backend, current, step, alive)
            except (ExpressionError, StepFailed):
                break
            out.append(current)
    return out


def same_value(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b and type(a) is type(b)


@pytest.mark.torch
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_chains_pictures_match_the_engine_and_torch(seed):
    torch = pytest.importorskip("torch")
    checked = copies = repeats = unread = 0
    for expr in generated_chains(seed, torch):
        try:
            doc = explain(expr)
        except Exception:  # noqa: BLE001 - the language refuses it; nothing to draw
            continue
        pictures = compute_chain_pictures(expr, doc)
        assert len(pictures) == len(doc["steps"]), expr
        tensors = run_torch_steps(expr, torch)
        for number, picture in enumerate(pictures):
            step = doc["steps"][number]
            check_picture(picture, step)
            previous = doc["steps"][number - 1]["storage"] if number else None
            expected_copy = (previous, number - 1) if number and previous != step["storage"] \
                else None
            assert picture.layout.copied_from == expected_copy, expr
            copies += expected_copy is not None
            repeats += bool(picture.repeated)
            unread += bool(picture.unreached)
            t = tensors[number]
            layout = picture.layout
            # torch's storage size and its own addressing: as_strided over storage positions.
            assert t.untyped_storage().nbytes() // t.element_size() == layout.storage_size, expr
            if 0 < picture.numel <= 4096 and layout.storage_size <= 2**20:
                where = torch.arange(layout.storage_size).as_strided(
                    tuple(t.shape), t.stride(), t.storage_offset())
                assert [c.position for c in picture.cells] == where.reshape(-1)[
                    :MAX_DRAWN].tolist(), expr
                counts = torch.bincount(where.reshape(-1), minlength=layout.storage_size)
                assert [s.reached for s in picture.strip] == [
                    int(counts[s.position]) for s in picture.strip], expr
                if layout.read is not None:
                    values = t.reshape(-1)[:MAX_DRAWN].tolist()
                    assert all(same_value(c.value, v) for c, v in zip(
                        picture.cells, values, strict=True)), expr
            checked += 1
    print(f"seed {seed}: {checked} steps drawn, {copies} copies, {repeats} with repeated "
          f"reads, {unread} with unread cells")
    assert checked > 50 and copies and repeats and unread


def picture_of(expr: str, number: int = -1):
    return compute_chain_pictures(expr, explain(expr))[number]


def test_expand_marks_each_storage_cell_read_four_times():
    picture = picture_of("torch.arange(6).expand(4, 6)")
    assert picture.layout.stride == (0, 1)
    assert [slot.reached for slot in picture.strip] == [4] * 6 and picture.repeated == 6
    svg = render_svg(picture)
    assert svg.count(">×4</text>") == 6 and "+0 along dim 0" in svg


def test_overlapping_as_strided_counts_overlaps():
    picture = picture_of("torch.arange(10).as_strided((4, 3), (2, 1))")
    assert [slot.reached for slot in picture.strip] == [1, 1, 2, 1, 2, 1, 2, 1, 1, 0]
    svg = render_svg(picture)
    assert "1 storage cell is never read" in svg and "3 storage cells are read by more" in svg
    _, slots = svg_cells(svg)
    assert {p for p, c in slots.items() if "unreached" in c} == {9}
    assert {p for p, c in slots.items() if "repeated" in c} == {2, 4, 6}


def test_slice_greys_exactly_the_columns_it_skips_and_marks_its_offset():
    picture = picture_of("torch.arange(12).view(3, 4)[:, 1::2]")
    assert picture.layout.storage_offset == 1 and picture.layout.stride == (4, 2)
    assert [c.position for c in picture.cells] == [1, 3, 5, 7, 9, 11]
    _, slots = svg_cells(render_svg(picture))
    assert {p for p, c in slots.items() if "unreached" in c} == {0, 2, 4, 6, 8, 10}
    assert {p for p, c in slots.items() if "offset" in c} == {1}
    assert "offset 1" in render_svg(picture)


def test_a_copy_links_its_new_strip_to_the_storage_it_copied():
    expr = "torch.arange(24).view(2, 3, 4).transpose(0, 1).reshape(3, 8)"
    pictures = compute_chain_pictures(expr, explain(expr))
    assert [p.layout.copied_from for p in pictures] == [None, None, None, (0, 2)]
    svg = render_svg(pictures[-1])
    assert 'href="#picture-step-2"' in svg and "copied from storage #0 (step 2)" in svg
    assert "slice [0, :, :]" in render_svg(pictures[2])  # 3-d: a labelled row of 2-d slices


def test_zero_and_one_dim_and_empty_tensors_are_drawn():
    scalar = picture_of("torch.tensor(5)")
    assert [(c.index, c.position, c.value) for c in scalar.cells] == [((), 0, 5)]
    assert "0-d tensor" in render_svg(scalar)
    line = picture_of("torch.arange(5.)[::2]")
    assert [(c.index, c.position, c.value) for c in line.cells] == [
        ((0,), 0, 0.0), ((1,), 2, 2.0), ((2,), 4, 4.0)]
    empty = picture_of("torch.arange(4)[4:]")
    assert empty.cells == () and empty.unreached == 4
    assert "No elements" in render_svg(empty)


def test_a_large_tensor_is_drawn_up_to_the_bound_and_says_so():
    picture = picture_of("torch.arange(1000).view(10, 100)[2:]")
    assert len(picture.cells) == MAX_DRAWN and len(picture.strip) == MAX_DRAWN
    assert picture.strip_start == 200 and picture.unreached == 200
    assert any("first 256 of 800 elements" in n for n in picture.notes)
    assert any("storage positions 200 to 455 of 1,000" in n for n in picture.notes)
    huge = picture_of("torch.arange(3).expand(100000, 3)")
    assert not huge.counted and all(slot.reached is None for slot in huge.strip)
    assert any("at most 65,536 elements" in n for n in huge.notes)


def test_a_long_chain_is_drawn_within_its_budgets():
    """Hundreds of steps, each of 65,536 elements: 16 pictures, counts for four of them."""
    expr = "torch.arange(65536).view(256, 256)" + ".t()" * 40
    doc = explain(expr)
    pictures = compute_chain_pictures(expr, doc)
    assert len(doc["steps"]) == 42 and len(pictures) == MAX_PICTURES
    assert [p.counted for p in pictures] == [True] * 4 + [False] * 12
    assert all(p.cells and p.cells[-1].position == compute_last(p) for p in pictures)


def compute_last(picture) -> int:
    layout = picture.layout
    index = picture.cells[-1].index
    return layout.storage_offset + sum(i * s for i, s in zip(index, layout.stride, strict=True))


def test_unknown_values_show_positions_only():
    picture = compute_step_picture(StepLayout(0, "torch.empty(2, 2)", (2, 2), (2, 1), 0, 0, 4))
    assert all(c.value is None for c in picture.cells)
    assert any("values are unknown" in n for n in picture.notes)


def test_the_svg_is_well_formed_and_escapes_what_it_writes():
    picture = compute_step_picture(
        StepLayout(0, "<script>", (2,), (1,), 0, 0, 2, read=lambda p: "<&>"))
    root = ET.fromstring(render_svg(picture))  # raises on anything not well formed
    assert root.find(f"{SVG}title").text == "Step 0, <script>: storage and tensor"


def test_a_dim_of_two_to_the_forty_is_drawn_without_listing_it():
    """The first cells of an expand to 2**40 rows: indices are made one at a time (product()
    held each dim's range whole, and ran out of memory)."""
    picture = picture_of("torch.arange(3).expand(1099511627776, 3)")
    assert [c.index for c in picture.cells[:4]] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert len(picture.cells) == MAX_DRAWN and not picture.counted
