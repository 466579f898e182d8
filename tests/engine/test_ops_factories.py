"""Constructors against torch 2.13 on CPU: shapes, strides, storage sizes, values and errors."""

from __future__ import annotations

import math
import random

import pytest
import torch
from oplayer_recipes import run_factory
from oplayer_support import Case, compare_results

from quizapp.engine.factories import CONSTRUCTORS

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

DTYPES = (
    None,
    "float32",
    "float64",
    "float16",
    "bfloat16",
    "int64",
    "int32",
    "int16",
    "int8",
    "uint8",
    "bool",
)
# Layouts torch rejects before allocating anything (so CPU can answer them cheaply).
HUGE_SIZES = (
    (2**62, 4),
    (2**40, 2**40, 2**40, 0),
    (0, 2**40, 2**40, 2**40),
    (2**61, 2),
    (2**63 - 1,),
)
EDGE_VALUES = (
    0,
    1,
    -1,
    2.5,
    -0.5,
    300,
    -200,
    -256,
    255,
    65504.0,
    65520.0,
    70000.0,
    3.5e38,
    1e40,
    1e300,
    float("nan"),
    float("inf"),
    -float("inf"),
    2**63,
    2**62 + 2**38 + 1,
    True,
    False,
    16777217,
    0.1,
    -0.0,
    2**31,
    127.9,
)
# The arange kernel's vector width decides float rounding; the engine models AVX2 CPUs.
VECTOR_VALUES_KNOWN = torch.backends.cpu.get_cpu_capability() == "AVX2"


def random_size(rng) -> tuple:
    r = rng.random()
    if r < 0.08:
        return rng.choice(HUGE_SIZES)
    shape = [rng.choice((0, 1, 1, 2, 3, 4, 5)) for _ in range(rng.randint(0, 4))]
    if r < 0.15 and shape:
        shape[rng.randrange(len(shape))] = rng.choice((-1, -3))
    return tuple(shape)


def random_data(rng, depth: int = 0):
    r = rng.random()
    if depth >= 3 or r < 0.3:
        return rng.choice(
            (
                rng.randint(-300, 300),
                round(rng.uniform(-1e3, 1e3), 2),
                rng.random() < 0.5,
                rng.choice(EDGE_VALUES),
                2**64 if rng.random() < 0.05 else 7,
            )
        )
    length = rng.choice((0, 1, 2, 2, 3))
    items = [random_data(rng, depth + 1) for _ in range(length)]
    if items and rng.random() < 0.7:  # mostly regular: copy the first item's structure
        items = [random_data_like(rng, items[0]) for _ in items]
    return items


def random_data_like(rng, model):
    if isinstance(model, list):
        return [random_data_like(rng, m) for m in model] if rng.random() < 0.95 else model[:-1]
    return rng.choice(
        (rng.randint(-300, 300), rng.uniform(-5, 5), rng.random() < 0.5, rng.choice(EDGE_VALUES))
    )


def random_arange(rng) -> dict:
    def number():
        return rng.choice(
            (
                rng.randint(-20, 20),
                round(rng.uniform(-20, 20), rng.choice((0, 1, 3))),
                rng.choice(
                    (
                        0.1,
                        0.3,
                        1e-300,
                        1e18,
                        1e300,
                        2**62,
                        2**63 - 1,
                        -(2**63),
                        float("nan"),
                        float("inf"),
                        0.0,
                        -0.7,
                        1.5,
                        70000.0,
                        1e40,
                    )
                )
                if rng.random() < 0.2
                else rng.randint(-3, 3),
            )
        )

    start, end, step = number(), number(), number()
    if rng.random() < 0.5 and isinstance(step, (int, float)) and step and math.isfinite(step):
        end = (
            start + step * rng.randint(0, 300) + rng.choice((0, 0.5, -0.25))
        )  # reachable, varied length
    kw = {"start": start, "end": end, "step": step}
    for key, value in kw.items():  # ints beyond int64 fail in torch's argument parser
        if isinstance(value, int) and not -(2**63) <= value < 2**63:
            kw[key] = 0
    if rng.random() < 0.6:
        kw["dtype"] = rng.choice(DTYPES[1:])
    return kw


def random_kwargs(name: str, rng) -> dict:
    dtype = rng.choice(DTYPES)
    if name == "arange":
        return random_arange(rng)
    if name == "tensor":
        return {"data": random_data(rng), "dtype": dtype}
    if name == "full":
        return {"size": random_size(rng), "fill_value": rng.choice(EDGE_VALUES), "dtype": dtype}
    if name == "empty_strided":
        size = random_size(rng)
        stride = tuple(rng.choice((0, 1, 2, 3, 7, -1, -5)) for _ in size)
        if rng.random() < 0.05:
            stride = stride + (1,)
        return {"size": size, "stride": stride, "dtype": dtype}
    return {"size": random_size(rng), "dtype": dtype}


def too_big_for_torch(name: str, kwargs: dict) -> bool:
    """Valid sizes whose allocation would exhaust memory (torch fails there, we do not)."""
    itemsize = 8
    if name == "arange":
        try:
            return CONSTRUCTORS["arange"](**kwargs).value.storage.nbytes > 2**26
        except Exception:  # noqa: BLE001 - an error is fine to compare
            return False
    if name == "tensor":
        return False
    size = kwargs["size"]
    if min(size, default=0) < 0:
        return False
    elements = math.prod(size)
    return 2**26 < elements * itemsize and elements <= 2**63 - 1


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_generated_constructors_match_torch(name, seed):
    stats = {"ok": 0, "error": 0, "skipped": 0}
    for i in range(800):
        rng = random.Random(f"{name}:{seed}:{i}")
        kwargs = random_kwargs(name, rng)
        if too_big_for_torch(name, kwargs):
            stats["skipped"] += 1  # torch would try to allocate it: nothing cheap to compare
            continue
        case = Case(rng)
        mine, ref = run_factory(case, name, kwargs)
        float_arange = (
            name == "arange" and not isinstance(ref, Exception) and ref.is_floating_point()
        )
        values = VECTOR_VALUES_KNOWN or not float_arange
        stats[compare_results(case, None, None, mine, ref, f"{name}({kwargs})", values)] += 1
    assert stats["ok"] > 120 and stats["skipped"] < 40
    if name not in ("empty", "ones"):
        assert stats["error"] > 10


@pytest.mark.parametrize(
    "args",
    [
        (0, 1, 0.1),
        (0.9, 0.1, -0.7),
        (0, 70000.0, 10000.0),
        (1e40, 0, -1e38),
        (0, 1e40, 1e38),
        (0, 5, float("inf")),
        (-(2**63), 2**63 - 1, 2**62 + 1),
        (0, 2**63 - 1, 2**62),
        (0, 5.5, 1.5),
        (5.5, 0, -1.5),
        (0, 2**63 - 1, 1),
        (-0.0, -3.09, -0.5),
        (-0.0, 3.0, 0.5),
        (-0.0, -9.0, -1.0),
    ],
)
@pytest.mark.parametrize("dtype", DTYPES)
def test_arange_edge_cases(args, dtype):
    kwargs = {"start": args[0], "end": args[1], "step": args[2], "dtype": dtype}
    case = Case(None)
    mine, ref = run_factory(case, "arange", kwargs)
    compare_results(case, None, None, mine, ref, f"arange({kwargs})", VECTOR_VALUES_KNOWN)


@pytest.mark.parametrize("numel", [0, 1, 2, 40])
@pytest.mark.parametrize("dtype", DTYPES)
def test_full_checks_the_fill_value_like_torch(numel, dtype):
    for value in EDGE_VALUES:
        case = Case(None)
        kwargs = {"size": (numel,), "fill_value": value, "dtype": dtype}
        compare_results(case, None, None, *run_factory(case, "full", kwargs), f"full({kwargs})")


@pytest.mark.parametrize(
    "data",
    [
        [],
        [[]],
        [[], []],
        [[], [1]],
        [[1], []],
        [[1, 2], [3]],
        [[1, 2], 3],
        [1, [2]],
        [True, 2],
        [1, 2.5],
        [True, 2.5],
        3,
        2**63,
        -(2**63),
        [[[1]], [2]],
        [[[1]], [[2, 3]]],
        [1, []],
        [[], 1],
        [[], [[1]]],
        [[[]], [1]],
        [(1, 2)],
        ([1],),
        [1e40],
        [float("nan")],
        [2**62 + 2**38 + 1],
        [[1.5, -0.5]],
    ],
)
@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_literals(data, dtype):
    case = Case(None)
    kwargs = {"data": data, "dtype": dtype}
    compare_results(case, None, None, *run_factory(case, "tensor", kwargs), f"tensor({kwargs})")


def test_huge_constructors_cost_nothing():
    x = CONSTRUCTORS["zeros"](size=(10**6, 10**6)).value
    assert x.storage.nbytes == 4 * 10**12 and x.stride == (10**6, 1)
    r = CONSTRUCTORS["arange"](start=0, end=10**12).value
    assert r.storage.read(10**12 - 1) == 10**12 - 1
