"""What the bank's prose claims, checked: samples exercise the API a title names, and claims that
torch (or NumPy) disproves appear nowhere but under "Red flags", where wrong claims are listed on
purpose. Each wrong claim comes with the run that disproves it, so the list cannot drift into
taste."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from quizapp.content import default_content_root, load_cards


@pytest.fixture(scope="module")
def cards():
    return load_cards(default_content_root())


def api_names_in_title(title: str) -> set[str]:
    """``torch.from_numpy`` -> from_numpy, ``w[0].fill_(1)`` -> fill_, ``view()`` -> view."""
    return set(re.findall(r"torch\.(\w+)", title)) | set(re.findall(r"(\w+)\(", title))


def test_a_sample_calls_every_api_its_title_names(cards):
    """"Does torch.from_numpy copy the array?" once showed torch.frombuffer instead: a card about
    an API must run that API, or the sample proves something else."""
    checked = 0
    for card in cards:
        for name in api_names_in_title(card.title):
            assert re.search(rf"\b{re.escape(name)}\b", card.code), (
                f"{card.id}: the title names {name} but the sample never calls it")
            checked += 1
    assert checked >= 10


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]


def prose_outside_red_flags(card) -> str:
    """Every part of a card a reader takes as true: all text but its Red flags and its code."""
    parts = [card.title, card.question, card.basics, card.solid]
    parts += [text for _, text in card.go_deeper]
    parts += [f.question + " " + f.answer for f in card.follow_ups]
    return "\n\n".join(parts)


def reshape_merge_is_not_contiguous() -> bool:
    import torch

    heads = torch.arange(96.0).view(2, 3, 16)[..., ::2].unflatten(-1, (2, 4)).transpose(1, 2)
    merged = heads.transpose(1, 2).reshape(2, 3, 8)
    return merged._is_view() and not merged.is_contiguous()


def dispatch_mode_misses_kernel_copies() -> bool:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class Seen(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops: list[str] = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func.overloadpacket))
            return func(*args, **(kwargs or {}))

    x = torch.randn(4, 8, 16).transpose(0, 1)
    with Seen() as seen:
        torch.nn.functional.layer_norm(x, (16,))
    with torch.profiler.profile() as prof:
        torch.nn.functional.layer_norm(x, (16,))
    profiled = {e.name for e in prof.events()}
    return "aten.copy_" not in seen.ops and "aten::copy_" in profiled


def zero_stride_dim_keeps_its_place() -> bool:
    import torch

    m = torch.empty(3, 4).t().unsqueeze(1).expand(4, 5, 3)  # strides (1, 0, 4)
    return m.clone().stride() == (1, 4, 20)  # dim 1 stays in the middle of the order


def overlap_check_is_not_merely_bounds_based() -> bool:
    import torch

    def raises(dst, src) -> bool:
        try:
            dst.copy_(src)
        except RuntimeError:
            return True
        return False

    x = torch.arange(9.0).view(3, 3)
    y = torch.arange(8.0)
    same_range_other_strides = raises(x, x.t())
    strided_sharing_passes = not raises(y[0:6:2], y[2:8:2])
    self_overlap_passes = not raises(torch.zeros(4).as_strided((3, 2), (1, 1)), torch.ones(3, 2))
    return same_range_other_strides and strided_sharing_passes and self_overlap_passes


def shares_memory_is_exact_by_default() -> bool:
    import numpy as np

    a = np.zeros(6000, dtype=np.int8)
    x = np.lib.stride_tricks.as_strided(a, shape=(50, 50), strides=(97, 13))
    y = np.lib.stride_tricks.as_strided(a[1:], shape=(40, 40), strides=(89, 17))
    try:
        np.shares_memory(x, y, max_work=1)
    except np.exceptions.TooHardError:
        return bool(np.shares_memory(x, y))  # no budget: it answers, exactly
    return False


@dataclass(frozen=True)
class WrongClaim:
    """A claim the bank once made, a pattern finding it in one sentence, and its disproof."""

    name: str
    pattern: str
    disproved: Callable[[], bool]
    unless: str = r"(?!)"  # a sentence that also matches this one says it right


WRONG_CLAIMS = [
    WrongClaim(
        "a reshape-based merge promised to be contiguous",
        r"\b(document|return|returns)\W+(a )?contiguous (result|output|`\(B, T, C\)` tensor)",
        reshape_merge_is_not_contiguous,
        unless=r"\.contiguous\(\)|clone",
    ),
    WrongClaim(
        "a TorchDispatchMode counts every copy",
        r"TorchDispatchMode`?[^.]{0,60}\b(counts? (them|copy|copies|the copies)|sees? (all|every))",
        dispatch_mode_misses_kernel_copies,
        unless=r"\b(miss|misses|never|not|only)\b",
    ),
    WrongClaim(
        "zero strides take no part in clone()'s ordering",
        r"zero strides? (do|does) not count",
        zero_stride_dim_keeps_its_place,
    ),
    WrongClaim(
        "in-place overlap checking is bounds-based on any layout",
        r"overlap check[^.]{0,80}\bbounds-based\b",
        overlap_check_is_not_merely_bounds_based,
        unless=r"dense",
    ),
    WrongClaim(
        "np.shares_memory raises on hard problems by default",
        r"shares_memory[^.]{0,80}\braises\b",
        shares_memory_is_exact_by_default,
        unless=r"only when|max_work",
    ),
]


@pytest.mark.torch
@pytest.mark.parametrize("claim", WRONG_CLAIMS, ids=[c.name for c in WRONG_CLAIMS])
def test_each_listed_claim_is_disproved_by_running_it(claim):
    assert claim.disproved(), f"torch 2.13 no longer disproves: {claim.name}"


@pytest.mark.parametrize("claim", WRONG_CLAIMS, ids=[c.name for c in WRONG_CLAIMS])
def test_no_card_states_a_disproved_claim(cards, claim):
    found = [
        (card.id, sentence)
        for card in cards
        for sentence in sentences(prose_outside_red_flags(card))
        if re.search(claim.pattern, sentence) and not re.search(claim.unless, sentence)
    ]
    assert found == [], f"{claim.name}: {found}"
