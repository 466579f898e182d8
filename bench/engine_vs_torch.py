"""Benchmark: the engine's op layer against torch's eager metadata path on the same chains.

N random chains (seeded) of 3-8 valid ops on small CPU tensors are parsed and bound once; then
the timed loops run every op through ``OPS`` (already-bound canonical arguments) and through
torch (pre-resolved ``torch.Tensor`` methods with the arguments as written).  Prints µs per op
for each, the cost of whole ``explain()`` / ``torch_explain()`` calls, and last the ratio
engine/torch (below 1.0 means the engine is faster), and whole ``explain()`` against
``eval`` of the same string by torch (compile included), with the share of explain()'s time
each phase takes.

    .venv/bin/python bench/engine_vs_torch.py [N] [seed]
"""

from __future__ import annotations

import ast
import operator
import random
import sys
import time
import warnings

import torch

from quizapp.engine import explain, torch_explain
from quizapp.engine.chain_reader import read_chain
from quizapp.engine.expression import _READER_NAMES, Chain, TorchName, parse_expression
from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.signatures import bind_step

REPEATS = 5


def random_step(rng: random.Random, t: torch.Tensor) -> str:
    """One op as text, drawn around the shape of ``t`` (may be invalid; the caller checks)."""
    n, shape = t.dim(), list(t.shape)
    d = rng.randint(-n, n - 1) if n else 0
    size = shape[d] if n else 1
    perm = list(range(n))
    rng.shuffle(perm)
    choices = [
        lambda: f".view({t.numel()})", lambda: f".reshape(-1, {shape[-1] if n else 1})",
        lambda: f".permute{tuple(perm)}" if n != 1 else f".permute({perm[0]})",
        lambda: f".transpose({d}, {rng.randint(-n, n - 1) if n else 0})", lambda: ".t()",
        lambda: ".T", lambda: ".mT", lambda: f".unsqueeze({rng.randint(-n - 1, n)})",
        lambda: ".squeeze()", lambda: f".squeeze({d})", lambda: f".flatten({min(d, 0)})",
        lambda: f".expand({', '.join(str(s if s != 1 else 3) for s in shape) or '()'})",
        lambda: f".narrow({d}, {rng.randint(0, size)}, 0)" if size == 0 else
        f".narrow({d}, 0, {rng.randint(1, size)})",
        lambda: f".select({d}, {rng.randint(-size, size - 1) if size else 0})",
        lambda: f".split(2, {d})[0]", lambda: f".chunk(2, {d})[-1]", lambda: f".unbind({d})[0]",
        lambda: f".tensor_split(2, {d})[1]", lambda: ".diagonal()",
        lambda: f".unfold({d}, 1, 1)", lambda: f".movedim({d}, 0)",
        lambda: f".unflatten({d}, (1, {size}))", lambda: "[..., None, ::2]", lambda: "[0]",
        lambda: ".contiguous()", lambda: ".clone()", lambda: ".detach()",
        lambda: f".as_strided({tuple(shape[:2])}, {tuple([1] * min(n, 2))})",
        lambda: f".expand_as(torch.empty({tuple([2] + shape)}))",
    ]
    return rng.choice(choices)()


def random_chain(rng: random.Random) -> str:
    """A chain whose every step torch accepts, built by trying candidate steps on torch."""
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 4) for _ in range(rank)]
    numel = 1
    for s in shape:
        numel *= s
    text = rng.choice([f"torch.arange({numel}).view({', '.join(map(str, shape))})",
                       f"torch.empty({', '.join(map(str, shape))})"])
    steps = rng.randint(3, 8)
    while text.count(".") + text.count("[") < steps + 2:
        for _ in range(20):
            candidate = text + random_step(rng, _run_torch(text))
            if torch_explain(candidate)["error"] is None:
                text = candidate
                break
        else:
            break
    return text


def _run_torch(text: str) -> torch.Tensor:
    shape = torch_explain(text)["steps"][-1]["shape"]
    return torch.empty(shape)


def bind_chain(text: str) -> tuple[list, list]:
    """(engine chain, torch chain): root tensor plus pre-bound op calls for each side."""
    steps = parse_expression(text).steps
    engine_root = _engine_tensor(Chain(steps[:1]))
    torch_root = _torch_tensor(Chain(steps[:1]))
    engine_ops, torch_ops = [], []
    for step in steps[1:]:
        bound = bind_step(step)
        kwargs = {k: _engine_tensor(v) if isinstance(v, Chain) else v
                  for k, v in bound.kwargs.items()}
        engine_ops.append((OPS[bound.name], kwargs, bound.pick))
        if step.kind == "attribute":
            method, args, kw = operator.attrgetter(step.name), (), {}
        else:
            method = getattr(torch.Tensor, step.name)
            args = tuple(_torch_value(a) for a in step.args)
            kw = {k: _torch_value(v) for k, v in step.kwargs}
        torch_ops.append((method, args, kw, bound.pick))
    return [engine_root, engine_ops], [torch_root, torch_ops]


def _engine_tensor(chain: Chain):
    bound = bind_step(chain.steps[0])
    t = CONSTRUCTORS[bound.name](**bound.kwargs).value
    for step in chain.steps[1:]:
        b = bind_step(step)
        value = OPS[b.name](t, **b.kwargs).value
        t = value if b.pick is None else value[b.pick]
    return t


def _torch_tensor(chain: Chain) -> torch.Tensor:
    step = chain.steps[0]
    t = getattr(torch, step.name)(*(_torch_value(a) for a in step.args))
    for step in chain.steps[1:]:
        t = getattr(t, step.name)(*(_torch_value(a) for a in step.args))
    return t


def _torch_value(value: object) -> object:
    if isinstance(value, Chain):
        return _torch_tensor(value)
    if isinstance(value, TorchName):
        return getattr(torch, value.name)
    return value


def time_engine(chains: list) -> float:
    start = time.perf_counter()
    for root, ops in chains:
        t = root
        for fn, kwargs, pick in ops:
            value = fn(t, **kwargs).value
            t = value if pick is None else value[pick]
    return time.perf_counter() - start


def time_torch(chains: list) -> float:
    start = time.perf_counter()
    for root, ops in chains:
        t = root
        for method, args, kwargs, pick in ops:
            value = method(t, *args, **kwargs)
            t = value if pick is None else value[pick]
    return time.perf_counter() - start


def per_op_breakdown(engine_chains: list, torch_chains: list, names: list) -> list[str]:
    """µs per call of each op on the inputs it met in the chains (to find the slow ones)."""
    calls: dict[str, tuple[list, list]] = {}
    for (e, e_ops), (t, t_ops), chain_names in zip(engine_chains, torch_chains, names,
                                                   strict=True):
        for (fn, kwargs, pick), (method, args, kw, _), name in zip(e_ops, t_ops, chain_names,
                                                                   strict=True):
            engine_side, torch_side = calls.setdefault(name, ([], []))
            engine_side.append((fn, e, kwargs))
            torch_side.append((method, t, args, kw))
            value, tvalue = fn(e, **kwargs).value, method(t, *args, **kw)
            e = value if pick is None else value[pick]
            t = tvalue if pick is None else tvalue[pick]
    lines = []
    for name, (engine_side, torch_side) in calls.items():
        a = min(_time_engine_calls(engine_side) for _ in range(REPEATS))
        b = min(_time_torch_calls(torch_side) for _ in range(REPEATS))
        count = len(engine_side)
        lines.append((a / b, f"  {name:<14}{count:>6}  engine {1e6 * a / count:6.2f} µs"
                             f"  torch {1e6 * b / count:6.2f} µs  ratio {a / b:.2f}"))
    return [line for _, line in sorted(lines, reverse=True)]


def _time_engine_calls(calls: list) -> float:
    start = time.perf_counter()
    for fn, t, kwargs in calls:
        fn(t, **kwargs)
    return time.perf_counter() - start


def _time_torch_calls(calls: list) -> float:
    start = time.perf_counter()
    for method, t, args, kwargs in calls:
        method(t, *args, **kwargs)
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    warnings.simplefilter("ignore")
    texts = [random_chain(rng) for _ in range(n)]
    pairs = [bind_chain(text) for text in texts]
    names = [[step.name for step in parse_expression(text).steps[1:]] for text in texts]
    engine_chains = [e for e, _ in pairs]
    torch_chains = [t for _, t in pairs]
    ops = sum(len(ops) for _, ops in engine_chains)
    engine = min(time_engine(engine_chains) for _ in range(REPEATS))
    eager = min(time_torch(torch_chains) for _ in range(REPEATS))
    sample = texts[: min(n, 500)]
    namespace = {"torch": torch}
    best = _interleaved({
        "whole": lambda: [explain(text) for text in sample],
        "eval": lambda: [eval(text, namespace) for text in sample],  # noqa: S307
        **explain_phases(sample)})
    whole, evaluated = best["whole"], best["eval"]
    t1 = time.perf_counter()
    for text in sample:
        torch_explain(text)
    t2 = time.perf_counter()
    steps = sum(len(parse_expression(text).steps) for text in sample) / len(sample)
    shares = phase_shares(best)
    print("per op (calls, µs per call), slowest relative to torch first:")
    for line in per_op_breakdown(engine_chains, torch_chains, names):
        print(line)
    print(f"chains: {n}, ops timed: {ops} ({ops / n:.1f} per chain), best of {REPEATS} runs")
    print(f"engine op layer (OPS, bound args): {1e6 * engine / ops:.2f} µs/op")
    print(f"torch eager CPU (Tensor methods):  {1e6 * eager / ops:.2f} µs/op")
    print(f"explain() whole call:        {1e6 * whole / len(sample):.0f} µs "
          f"({steps:.1f} steps per chain, parse + bind + ops + why + values)")
    print(f"eval() of the same string:   {1e6 * evaluated / len(sample):.0f} µs "
          "(torch: compile + run the chain)")
    print(f"torch_explain() whole call:  {1e6 * (t2 - t1) / len(sample):.0f} µs")
    print("explain() time by phase: " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))
    read = sum(read_chain(text, _READER_NAMES) is not None for text in sample)
    print(f"parse: {1e6 * best['parse'] / len(sample):.0f} µs per chain, {read} of "
          f"{len(sample)} chains read without ast; ast.parse alone would take "
          f"{1e6 * best['ast.parse'] / len(sample):.0f} µs ({best['ast.parse'] / evaluated:.2f}x "
          "eval)")
    print(f"ratio engine/torch: {engine / eager:.2f}")
    print(f"ratio explain()/eval(): {whole / evaluated:.2f} (target 1.5, goal 1.0)")


def _interleaved(runs: dict, rounds: int = 3 * REPEATS) -> dict[str, float]:
    """The best CPU time of each run over rounds that take every run in turn, so a change in
    the machine's load shifts them all alike and their ratios hold."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = min(best[name], _timed(run))
    return best


def _timed(run) -> float:
    """CPU time of ``run()``: this process's own work, less disturbed by a shared machine."""
    start = time.process_time()
    run()
    return time.process_time() - start


def explain_phases(sample: list[str]) -> dict:
    """Each phase of explain() alone on the same chains: parse (text checks, then the chain
    reader, or ast and its walk for what the reader leaves), bind (overloads, bounds), why
    (rendering the sentences); and ast.parse alone, what parsing cost before the reader."""
    chains = [parse_expression(text) for text in sample]
    steps = [step for chain in chains for step in _all_steps(chain)]
    outcomes = []
    for chain in chains:
        outcomes.extend(_outcomes(chain))
    return {"parse": lambda: [parse_expression(text) for text in sample],
            "ast.parse": lambda: [ast.parse(text, mode="eval") for text in sample],
            "bind": lambda: [bind_step(step) for step in steps],
            "why": lambda: [o.why for o in outcomes]}


def phase_shares(best: dict[str, float]) -> dict[str, float]:
    """Shares of explain()'s time: the phases timed alone, and the rest (ops, layouts,
    values, the document) as what is left of the whole call."""
    whole = best["whole"]
    rest = max(whole - best["parse"] - best["bind"] - best["why"], 0.0)
    shares = {name: best[name] / whole for name in ("parse", "bind", "why")}
    return {**shares, "ops+layout+values+document": rest / whole}


def _all_steps(chain: Chain) -> list:
    found = []
    for step in chain.steps:
        found.append(step)
        for value in (*step.args, *(v for _, v in step.kwargs)):
            if isinstance(value, Chain):
                found.extend(_all_steps(value))
    return found


def _outcomes(chain: Chain) -> list:
    """Every op's Outcome along a chain (nested tensor arguments built on the side)."""
    outcomes, t = [], None
    for step in chain.steps:
        bound = bind_step(step)
        kwargs = {k: _engine_tensor(v) if isinstance(v, Chain) else v
                  for k, v in bound.kwargs.items()}
        outcome = CONSTRUCTORS[bound.name](**kwargs) if t is None else OPS[bound.name](t, **kwargs)
        outcomes.append(outcome)
        t = outcome.value if bound.pick is None else outcome.value[bound.pick]
    return outcomes


if __name__ == "__main__":
    main()
