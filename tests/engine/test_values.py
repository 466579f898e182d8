"""values_of against torch's tolist(): through views and copies, per dtype, and within bounds."""

from __future__ import annotations

import math
import random
import struct

import pytest
import torch
from oplayer_args import args_for
from oplayer_recipes import run_factory, run_recipe
from oplayer_support import Case, compare_results, run_both

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import Storage, Tensor, TorchError
from quizapp.engine.values import storage_values_of, values_of

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

CHAIN_OPS = (
    "reshape",
    "reshape",
    "contiguous",
    "clone",
    "clone",
    "flatten",
    "ravel",
    "permute",
    "transpose",
    "__getitem__",
    "__getitem__",
    "expand",
    "unsqueeze",
    "diagonal",
    "unfold",
    "select",
    "narrow",
    "view",
    "as_strided",
    "t",
    "mT",
    "squeeze",
    "movedim",
    "detach",
)


@pytest.mark.parametrize("seed", range(4))
def test_values_survive_random_chains_of_views_and_copies(seed):
    copies = 0
    for i in range(600):
        rng = random.Random(f"chain:{seed}:{i}")
        case = Case(rng)
        e, t = case.layout()
        for _ in range(rng.randint(2, 6)):
            name = rng.choice(CHAIN_OPS)
            mine, ref = run_both(case, e, t, name, args_for(name, rng, case, e))
            compare_results(case, e, t, mine, ref, f"chain {seed}/{i} {name}")
            if isinstance(mine, TorchError) or not isinstance(mine.value, Tensor):
                continue
            copies += mine.value.storage is not e.storage
            e, t = mine.value, ref
    assert copies > 80  # the chains really went through copies


def _double_bits(rng) -> float:
    while True:
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if not math.isnan(x) or rng.random() < 0.01:
            return x


def _near_rounding_boundaries(rng) -> float:
    """Doubles close to float32 / float16 / bfloat16 halfway points and range limits."""
    base = rng.choice(
        (
            1.0,
            1.5,
            0.1,
            65504.0,
            65520.0,
            3.3895313892515355e38,
            2.0**-14,
            2.0**-24,
            1.1754943508222875e-38,
            1.401298464324817e-45,
            3.4028235e38,
            256.0,
            2049.0,
        )
    )
    bits = struct.unpack("<Q", struct.pack("<d", base))[0] + rng.randint(-(2**31), 2**31)
    return math.copysign(
        struct.unpack("<d", struct.pack("<Q", bits % 2**63))[0], rng.choice((1, -1))
    )


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64", "bool"])
def test_float_rounding_matches_torch_for_tensor_and_full(dtype):
    rng = random.Random(dtype)
    values = [_double_bits(rng) for _ in range(300)] + [
        _near_rounding_boundaries(rng) for _ in range(700)
    ]
    case = Case(rng)
    compare_results(
        case, None, None, *run_factory(case, "tensor", {"data": values, "dtype": dtype}), dtype
    )
    for x in values[::7]:
        case = Case(rng)
        kwargs = {"size": (1,), "fill_value": x, "dtype": dtype}
        compare_results(case, None, None, *run_factory(case, "full", kwargs), f"full {x!r}")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64"])
def test_integer_wrapping_matches_torch(dtype):
    rng = random.Random(dtype)
    for _ in range(60):
        start, step = rng.randint(-(2**40), 2**40), rng.choice((1, -1)) * rng.randint(1, 2**35)
        kwargs = {
            "start": start,
            "end": start + step * rng.randint(1, 30),
            "step": step,
            "dtype": dtype,
        }
        case = Case(rng)
        compare_results(case, None, None, *run_factory(case, "arange", kwargs), f"arange {kwargs}")


def test_values_of_a_0d_tensor_is_a_scalar_of_the_right_type():
    for data, dtype in ((True, "bool"), (3, "int64"), (2.5, "float32"), (0.1, "float16")):
        pairs = run_recipe(
            ("tensor", {"data": [data], "dtype": dtype}), ("select", {"dim": 0, "index": 0})
        )
        value = values_of(pairs[-1][0])
        assert type(value) is type(pairs[-1][1].item()) and repr(value) == repr(pairs[-1][1].item())


def test_unknown_data_and_large_results_give_none():
    assert values_of(CONSTRUCTORS["rand"](size=(2, 2)).value) is None
    copy = OPS["clone"](OPS["t"](CONSTRUCTORS["empty"](size=(2, 3)).value).value).value
    assert values_of(copy) is None
    big = CONSTRUCTORS["arange"](end=4097).value
    assert values_of(big) is None and values_of(big, limit=5000) is not None
    wide_empty = CONSTRUCTORS["zeros"](size=(10**9, 0)).value
    assert values_of(wide_empty) is None  # tolist() would build a billion empty lists
    assert values_of(CONSTRUCTORS["zeros"](size=(3, 0)).value) == [[], [], []]


def test_values_read_only_the_elements_shown():
    reads = []

    def read(pos):
        reads.append(pos)
        return pos

    from quizapp.engine.dtypes import DTYPES

    huge = Tensor((10**12,), (1,), 0, Storage(8 * 10**12, read), DTYPES["int64"])
    window = OPS["as_strided"](huge, size=(2, 3), stride=(10**11, 1), storage_offset=5).value
    copied = OPS["contiguous"](OPS["t"](window).value).value
    assert values_of(copied) == [[5 + i * 1 + j * 10**11 for j in range(2)] for i in range(3)]
    assert len(reads) == 6 and all(p < 10**12 for p in reads)


@pytest.mark.parametrize("seed", range(2))
def test_storage_values_match_the_untyped_storage(seed):
    checked = 0
    for i in range(300):
        rng = random.Random(f"storage:{seed}:{i}")
        case = Case(rng)
        e, t = case.layout()
        name = rng.choice(("clone", "contiguous", "reshape", "ravel", "t", "__getitem__"))
        mine, ref = run_both(case, e, t, name, args_for(name, rng, case, e))
        if isinstance(mine, TorchError) or not isinstance(mine.value, Tensor):
            continue
        flat = storage_values_of(mine.value)
        if flat is not None:
            whole = torch.empty(0, dtype=ref.dtype).set_(ref.untyped_storage())
            assert repr(flat) == repr(whole.tolist()), (name, mine.value)
            checked += 1
    assert checked > 100
