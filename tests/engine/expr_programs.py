"""Random programs of named lines for the differential tests, steered by real torch.

A program binds a constructor's tensor to a name, then each line takes a name bound earlier
(often the one just made, sometimes an older one or a rebound one), adds one to three of the
chain generator's steps, and binds the result; tensor arguments sometimes name an earlier
tensor, and a few programs break a rule of the language (an unknown name, an unnamed middle
line, a tuple unpacked) so that the refusals are compared too.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from expr_chains import ChainGenerator
from expr_ops import OP_MAKERS

NAMES = ("x", "y", "z", "w", "t2", "base", "_v")
SEPARATORS = ("\n", "\n", "\n", "; ", "\n\n", "\n# the next step\n")
BROKEN = ("{name}.t()\nq = {name}", "q = nope.t()", "a, b = {name}.split(1)",
          "q = r = {name}", "{name} += 1", "print({name})", "{name}[0] = 1", "torch = {name}",
          "q = {name}.view_as(missing)", "q = {name}.frobnicate()")


class ProgramGenerator:
    """Builds program texts while running the same lines on real torch."""

    def __init__(self, rng: random.Random, torch: Any) -> None:
        self.rng, self.torch = rng, torch
        self.gen = ChainGenerator(rng, torch)

    def program(self) -> tuple[str, str | None]:
        """(program text, the same steps as one lone chain, or None when the lines are not
        one straight chain: an older name taken, a name as an argument, a rule broken)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self._program()

    def _program(self) -> tuple[str, str | None]:
        rng = self.rng
        text, build = self.gen.constructor()
        first = rng.choice(NAMES)
        lines = [f"{first} = {text}"]
        inline: str | None = text
        try:
            tensors = {first: build(None)}
        except Exception:  # noqa: BLE001 - a failing constructor is the program's one line
            return self._join(lines), inline
        last = first
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.04:
                broken = rng.choice(BROKEN).format(name=last)
                return self._join([*lines, broken]), None
            source = last if rng.random() < 0.75 else rng.choice(sorted(tensors))
            if source != last:
                inline = None
            t = tensors[source]
            line, ok = source, True
            for _ in range(rng.choice((1, 1, 2, 3))):
                if rng.random() < 0.1 and len(tensors) > 1:
                    other = rng.choice(sorted(tensors))
                    op = rng.choice(("view_as", "reshape_as", "expand_as"))
                    step_text = f".{op}({other})"
                    inline = None

                    def run(x: Any, op: str = op, other: str = other) -> Any:
                        return getattr(x, op)(tensors[other])
                else:
                    step_text, run = rng.choice(OP_MAKERS)(self.gen, t)
                line += step_text
                if inline is not None:
                    inline += step_text
                try:
                    t = run(t)
                except Exception:  # noqa: BLE001 - the program ends with the failing step
                    ok = False
                    break
                if not isinstance(t, self.torch.Tensor) or t.dim() > 25 or t.numel() > 2**22:
                    ok = False
                    break
            if not ok:
                return self._join([*lines, line]), inline
            name = source if rng.random() < 0.15 else rng.choice(NAMES)  # sometimes rebinds
            if rng.random() < 0.25:  # the last line may be a bare chain
                return self._join([*lines, line]), inline
            lines.append(f"{name} = {line}")
            tensors[name], last = t, name
        if rng.random() < 0.2:
            lines.append(last)  # a bare name: the tensor shown again
        return self._join(lines), inline

    def _join(self, lines: list[str]) -> str:
        rng = self.rng
        text = lines[0]
        for line in lines[1:]:
            text += rng.choice(SEPARATORS) + line
        return ("import torch\n" if rng.random() < 0.2 else "") + text
