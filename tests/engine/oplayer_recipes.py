"""Differential-test recipes: a constructor and a chain of ops run in torch and in the engine."""

from __future__ import annotations

import random

import torch
from oplayer_support import TORCH_DTYPES, Case, check_op, compare_results, run_both

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.tensor import TorchError


def torch_factory(name: str, kwargs: dict) -> torch.Tensor:
    kw = dict(kwargs)
    if kw.get("dtype") is not None:
        kw["dtype"] = TORCH_DTYPES[kw["dtype"]]
    else:
        kw.pop("dtype", None)
    if name == "arange":
        return torch.arange(kw.pop("start", 0), kw.pop("end"), kw.pop("step", 1), **kw)
    if name == "tensor":
        return torch.tensor(kw.pop("data"), **kw)
    if name == "full":
        return torch.full(kw.pop("size"), kw.pop("fill_value"), **kw)
    if name == "empty_strided":
        return torch.empty_strided(kw.pop("size"), kw.pop("stride"), **kw)
    return getattr(torch, name)(kw.pop("size"), **kw)


def run_factory(case: Case, name: str, kwargs: dict):
    """(engine outcome or TorchError, torch tensor or exception) for one constructor."""
    try:
        mine = CONSTRUCTORS[name](**kwargs)
    except TorchError as err:
        mine = err
    try:
        ref = torch_factory(name, kwargs)
    except Exception as err:  # noqa: BLE001 - any torch exception is part of the comparison
        ref = err
    return mine, ref


def run_recipe(factory: tuple, *steps: tuple, case: Case | None = None) -> list:
    """Build ``factory`` = (name, kwargs) then apply ``steps`` = (op, kwargs[, pick]) in both
    worlds, comparing every step; returns [(engine tensor, torch tensor), ...] per step."""
    case = case or Case(None)
    mine, ref = run_factory(case, *factory)
    compare_results(case, None, None, mine, ref, f"{factory}")
    pairs = [(mine.value, ref)]
    for step in steps:
        name, kwargs = step[0], step[1]
        e_in, t_in = pairs[-1]
        mine, ref = run_both(case, e_in, t_in, name, kwargs)
        compare_results(case, e_in, t_in, mine, ref, f"{factory} ... {name}({kwargs})")
        if isinstance(mine, TorchError):
            pairs.append((mine, ref))
            break
        if len(step) > 2:  # pick one piece of a tuple-returning op
            pairs.append((mine.value[step[2]], ref[step[2]]))
        else:
            pairs.append((mine.value, ref))
    return pairs


def differential(name: str, seed: int, count: int, args_for, layout=Case.layout) -> dict:
    """``count`` generated cases of op ``name``: random layout, random (often invalid) args."""
    stats = {"ok": 0, "error": 0}
    for i in range(count):
        tag = "" if layout is Case.layout else f"{layout.__name__}:"
        rng = random.Random(f"{tag}{name}:{seed}:{i}")
        case = Case(rng)
        e, t = layout(case)
        kwargs = args_for(name, rng, case, e)
        stats[check_op(case, name, kwargs, (e, t))] += 1
    return stats
