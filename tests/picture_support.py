"""Reading pictures of memory back out of a page, and checking every number against the engine."""

from __future__ import annotations

import html
import re
from collections import Counter

from quizapp.engine import explain

CELL = re.compile(r"<title>element (\[[^\]]*\]) reads storage position (-?\d+) \(([^)]*)\)")
SLOT = re.compile(r'<g class="pic-slot[^"]*" data-pos="(-?\d+)"[^>]*><title>([^<]*)</title>')


def sections(page: str, prefix: str) -> dict[str, str]:
    """Each picture section of the page whose id starts with ``prefix``: id -> its HTML."""
    found = {}
    for match in re.finditer(rf'<section class="picture[^"]*" id="({re.escape(prefix)}[^"]+)"',
                             page):
        rest = page[match.end():]
        found[match.group(1)] = rest[:rest.index("</section>")]
    return found


def check_chain_pictures(page: str, expr: str, prefix: str) -> int:
    """The pictures of ``expr`` drawn under ids ``prefix``picture-step-N: one per step the
    engine ran, each grid cell at offset + sum(index x stride) of that step, and each storage
    cell's reach count equal to an independent walk. Returns the cells checked."""
    doc = explain(expr)
    drawn = sections(page, f"{prefix}picture-step-")
    assert sorted(drawn) == sorted(f"{prefix}picture-step-{n}" for n in range(
        min(len(doc["steps"]), 16))), (expr, sorted(drawn))
    checked = 0
    for n, step in enumerate(doc["steps"][:16]):
        section = html.unescape(drawn[f"{prefix}picture-step-{n}"])
        reads: Counter[int] = Counter()
        for index, position, sum_text in CELL.findall(section):
            idx = [int(i) for i in index.strip("[]").split(", ") if i]
            expected = step["storage_offset"] + sum(
                i * s for i, s in zip(idx, step["stride"], strict=True))
            assert int(position) == expected, (expr, n, index)
            assert sum_text.endswith(f"= {expected}")
            reads[expected] += 1
            checked += 1
        if step["numel"] <= 256:  # every element drawn: the strip's counts are these reads
            assert sum(reads.values()) == step["numel"]
            for position, title in SLOT.findall(section):
                count = reads[int(position)]
                if count == 0:
                    assert "never read by this tensor" in title, (expr, n, position)
                else:
                    assert f"read by {count} element" in title, (expr, n, position, title)
    return checked


def explorer_links(page: str) -> list[str]:
    """The chains the page's "Open in the explorer" links open."""
    from urllib.parse import parse_qs, urlsplit

    return [parse_qs(urlsplit(html.unescape(href)).query)["expr"][0] for href in re.findall(
        r'<a class="explorer-link" href="([^"]+)">Open in the explorer</a>', page)]
