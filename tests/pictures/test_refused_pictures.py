"""A refused view's picture: its chunks, the new dims laid against them and the broken equation,
checked on generated chains against an independent reading of the layout (and torch)."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest

from quizapp.engine import explain
from quizapp.pictures import (
    compute_chain_pictures,
    compute_copy_pictures,
    compute_refused_picture,
    describe_break,
    render_refused_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
VIEW_REFUSED = "view size is not compatible"


def random_chain(rng: random.Random) -> str:
    """A non-contiguous x (permute, stepped slice, unsqueeze, expand) and a view of it."""
    shape = [rng.randint(1, 5) for _ in range(rng.randint(2, 4))]
    expr = f"torch.arange({math.prod(shape)}).view({', '.join(map(str, shape))})"
    order = list(range(len(shape)))
    rng.shuffle(order)
    expr += f".permute({', '.join(map(str, order))})"
    shape = [shape[d] for d in order]
    if rng.random() < 0.3:
        d = rng.randrange(len(shape))
        if shape[d] > 2:
            expr += "[" + ":, " * d + "::2]"
            shape[d] = (shape[d] + 1) // 2
    if rng.random() < 0.3:
        d = rng.randint(0, len(shape))
        expr += f".unsqueeze({d})"
        shape.insert(d, 1)
    return expr + f".view({', '.join(map(str, random_new_shape(rng, math.prod(shape))))})"


def random_new_shape(rng: random.Random, numel: int) -> list[int]:
    sizes, rest = [], numel
    while rest > 1 and len(sizes) < 4:
        divisors = [k for k in range(2, rest + 1) if rest % k == 0]
        k = rng.choice(divisors)
        sizes.append(k)
        rest //= k
    if rest > 1:
        sizes.append(rest)
    if rng.random() < 0.2:
        sizes.insert(rng.randint(0, len(sizes)), 1)
    return sizes or [1]


def check_chunks(refused) -> None:
    """The chunks and breaks, read again from the sizes and strides alone."""
    shape, stride = refused.shape, refused.stride
    assert [d for first, last, _ in refused.chunks for d in range(first, last + 1)] == list(
        range(len(shape)))
    for first, last, elements in refused.chunks:
        assert elements == math.prod(shape[first:last + 1])
        for d in range(first, last):  # inside a chunk every dim of size > 1 continues the run
            if shape[d] != 1:
                assert stride[d] == stride[last] * math.prod(shape[d + 1:last + 1])
    for (i, j, stride_i, span), (first, last, elements) in zip(
            refused.breaks, refused.chunks[1:], strict=True):
        assert (i, j) == (first - 1, first) and stride_i == stride[i]
        assert span == elements * stride[last] and stride_i != span and shape[i] != 1


def check_fill(refused) -> None:
    """The new dims fill whole chunks from the innermost; the crossing one overshoots."""
    new = refused.new_shape
    chunks = refused.chunks
    placed = []
    for n, (k, dims) in enumerate(refused.filled):
        assert k == len(chunks) - 1 - n
        assert math.prod(new[d] for d in dims) == chunks[k][2]
        placed.extend(dims)
    if refused.crossing is None:
        assert len(refused.filled) == len(chunks) and len(placed) < len(new)
        return
    failing = len(chunks) - 1 - len(refused.filled)
    assert refused.broken == (refused.breaks[failing - 1] if failing else None)
    inner = math.prod(new[d] for d in refused.partial)
    assert inner < chunks[failing][2]
    assert inner * new[refused.crossing] != chunks[failing][2]
    assert all(d > refused.crossing for d in refused.partial)
    assert all(d > max(refused.partial, default=refused.crossing) for d in placed)


def check_svg(picture) -> None:
    refused = picture.refused
    svg = render_refused_svg(picture)
    root = ET.fromstring(svg)
    chunk_groups = [g for g in root.iter(f"{SVG}g") if "pic-chunk" in g.get("class", "")]
    assert len(chunk_groups) == len(refused.chunks)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for k, (first, last, elements) in enumerate(refused.chunks):
        label = f"chunk {'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[k]} · {elements} el."
        assert label in texts  # never colour alone: each chunk is named
        dims = f"dim {first}" if first == last else f"dims {first}–{last}"
        assert chunk_groups[k].find(f"{SVG}title").text.startswith(f"chunk {label[6]}: {dims}")
    for d, (size, step) in enumerate(zip(refused.shape, refused.stride, strict=True)):
        assert f"dim {d}" in texts and f"size {size}" in texts and f"stride {step}" in texts
    crossing = [g for g in root.iter(f"{SVG}g") if "crossing" in g.get("class", "")]
    assert len(crossing) == (refused.crossing is not None)
    if refused.broken is not None:
        i, j, stride_i, span = refused.broken
        rule = describe_break(refused)
        assert [line[0].upper() + line[1:] for line in rule] == texts[-2:]
        assert rule[1].startswith(f"here stride[{i}] = {refused.stride[i]}, but ")
        assert rule[1].endswith(f"{refused.stride[i]} ≠ {span}")
        if refused.shape[j] != 1:  # the equation filled in: stride[j] x size[j] = span
            assert f"{refused.stride[j]} × {refused.shape[j]} = {span}" in rule[1]
            assert refused.stride[j] * refused.shape[j] == span
        assert len([line for line in root.iter(f"{SVG}line")
                    if "broken" in line.get("class", "")]) == 2


@pytest.mark.parametrize("seed", range(4))
def test_generated_refused_views_are_drawn_from_the_engine(seed):
    rng = random.Random(seed)
    refusals = breaks = 0
    for _ in range(250):
        expr = random_chain(rng)
        doc = explain(expr)
        picture = compute_refused_picture(expr, doc)
        error = doc["error"]
        assert (picture is not None) == bool(error and VIEW_REFUSED in error["message"]), expr
        if picture is None:
            continue
        refusals += 1
        breaks += picture.refused.broken is not None
        last = doc["steps"][-1]
        assert list(picture.refused.shape) == last["shape"] and list(
            picture.refused.stride) == last["stride"]
        assert picture.step == error["step"] == len(doc["steps"])
        check_chunks(picture.refused)
        check_fill(picture.refused)
        check_svg(picture)
        # The picture's sentence is the engine's own why, in other words: same numbers.
        assert str(picture.refused.shape).replace(",)", ")") in error["why"].replace(",)", ")")
    assert refusals > 40 and breaks > 20, (refusals, breaks)


@pytest.mark.parametrize("seed", range(2))
def test_both_reruns_run_and_their_pictures_show_the_copy(seed):
    rng = random.Random(100 + seed)
    rerun = 0
    while rerun < 25:
        expr = random_chain(rng)
        doc = explain(expr)
        picture = compute_refused_picture(expr, doc)
        if picture is None:
            continue
        rerun += 1
        step = picture.step
        for chain, copy_at in ((picture.reshape_expr, step), (picture.contiguous_expr, step)):
            assert chain is not None
            again = explain(chain)
            assert again["error"] is None, chain
            # The refused layout cannot be viewed, so reshape and contiguous both copy there.
            assert again["steps"][copy_at]["storage"] != again["steps"][copy_at - 1]["storage"]
            pictures = compute_chain_pictures(chain, again)
            assert pictures[copy_at].layout.copied_from == (
                again["steps"][copy_at - 1]["storage"], copy_at - 1)
        # reshape copied because no view fits: its step draws the very chunks the view broke on.
        copies = compute_copy_pictures(picture.reshape_expr, explain(picture.reshape_expr))
        assert list(copies) == [step] and copies[step].refused == picture.refused
        assert compute_copy_pictures(picture.contiguous_expr,
                                     explain(picture.contiguous_expr)) == {}
        assert picture.reshape_expr.endswith(picture.code.replace(".view", ".reshape", 1))
        assert picture.contiguous_expr.endswith(".contiguous()" + picture.code)


@pytest.mark.torch
def test_torch_refuses_exactly_the_views_drawn_as_refused():
    torch = pytest.importorskip("torch")
    rng = random.Random(7)
    seen = 0
    for _ in range(200):
        expr = random_chain(rng)
        picture = compute_refused_picture(expr, explain(expr))
        base, view = expr.rsplit(".view(", 1)
        x = eval(base, {"torch": torch})  # noqa: S307 - our own generated text, not user input
        sizes = tuple(int(n) for n in re.findall(r"\d+", view))
        try:
            x.view(sizes)
        except RuntimeError:
            assert picture is not None, expr
            seen += 1
        else:
            assert picture is None, expr
    assert seen > 20


def test_a_size_one_dim_breaks_with_its_chunk_span():
    expr = "torch.empty(5, 5, 3).narrow(1, 4, 1).view(15)"
    picture = compute_refused_picture(expr, explain(expr))
    assert picture.refused.chunks == ((0, 0, 5), (1, 2, 3))
    assert describe_break(picture.refused) == (
        "dims 0 and 1 merge only if stride[0] = the span of the chunk from dim 1",
        "here stride[0] = 15, but that span is 3 (dim 1 has size 1, so its own stride is "
        "ignored), and 15 ≠ 3")


def test_a_size_one_dim_after_the_overshooting_one_is_not_blamed():
    expr = "torch.arange(25).view(5, 5).t().unsqueeze(1).unsqueeze(1).view(1, 25)"
    picture = compute_refused_picture(expr, explain(expr))
    assert picture.refused.crossing == 1  # size 25 overshoots the 5 elements of dims 1-3
    assert "new dim 1 (size 25)" in explain(expr)["error"]["why"]


def test_other_errors_have_no_refused_picture():
    for expr in ("torch.arange(6).view(4)", "torch.arange(6).select(0, 9)",
                 "torch.arange(6).view(2, 3)"):
        assert compute_refused_picture(expr, explain(expr)) is None


def test_named_steps_rerun_with_their_names():
    expr = "x = torch.arange(24).view(2, 3, 4)\ny = x.transpose(0, 1)\nz = y.view(24)"
    picture = compute_refused_picture(expr, explain(expr))
    assert picture.reshape_expr == expr.replace("y.view(24)", "y.reshape(24)")
    assert picture.contiguous_expr == expr.replace("y.view(24)", "y.contiguous().view(24)")
    for chain in (picture.reshape_expr, picture.contiguous_expr):
        doc = explain(chain)
        assert doc["error"] is None and doc["steps"][3]["storage"] == 1
