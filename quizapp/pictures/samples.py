"""The chains a code sample builds (``x = torch.arange(6).view(2, 3)``, ``y = x.t()``), for pictures."""

# A card's sample is a short Python program: imports, assignments, print() calls. Each
# assignment whose value is a chain the explorer reads (after an earlier name is replaced by
# the chain it holds) is one chain to draw. The text is parsed with ast and each chain with the
# engine's own parser; nothing is ever run. A name given a value that is no chain is forgotten.

from __future__ import annotations

import ast
import re
from functools import lru_cache

from quizapp.engine.expression import MAX_CHARS, ExpressionError, parse_expression

MAX_SAMPLE_CHAINS = 4  # chains drawn per sample: the last ones, where the sample ends up
MAX_SAMPLE_CHARS = 20_000  # a longer sample is not looked at
_HEAD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_chain(text: str) -> bool:
    """Whether the engine reads ``text`` as a whole chain (no step refused as outside it)."""
    try:
        return parse_expression(text).error is None
    except ExpressionError:
        return False


@lru_cache(maxsize=1024)  # pure, and a bank has a few hundred samples; sets ask again per page
def compute_sample_chains(code: str | None) -> tuple[str, ...]:
    """The chains ``code`` assigns, as single explorer chains, each no prefix of a later one;
    at most MAX_SAMPLE_CHAINS (the last), in the sample's order."""
    if not code or len(code) > MAX_SAMPLE_CHARS:
        return ()
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    known: dict[str, str] = {}
    found: list[str] = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        text = ast.get_source_segment(code, node.value) or ""
        head = _HEAD.match(text)
        if head and head.group() in known and text[head.end():head.end() + 1] in (".", "["):
            text = known[head.group()] + text[head.end():]
        known.pop(name, None)
        if "\n" in text or len(text) > MAX_CHARS or not text.startswith("torch.") \
                or not read_chain(text):
            continue
        known[name] = text
        found.append(text)
    kept = [chain for n, chain in enumerate(found)
            if not any(later.startswith(chain) and later[len(chain):len(chain) + 1] in (".", "[")
                       for later in found[n + 1:])]
    return tuple(dict.fromkeys(kept))[-MAX_SAMPLE_CHAINS:]
