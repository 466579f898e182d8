"""Helpers for the question-bank tests: a small valid card, line lookup, a throw-away bank."""

from __future__ import annotations

from pathlib import Path

CONCEPTS_YAML = """\
# test tags
stride: Steps through storage.
view: Views that share memory.
"""

CARD_TEMPLATE = """\
---
id: {card_id}
title: A small test card
level: junior
concepts: [stride, view]
importance: must-know
frequency: common
---

## Question
What does the stride of a dimension count?

## Basics
Storage elements skipped per step.

## Solid
A longer answer about strides.

## Code
```python
import torch
print(torch.arange(6).view(2, 3).stride())
```

```output
(3, 1)
```

## Go deeper
### Junior
Junior text.
### Middle
Middle text.
### Senior
Senior text.
### Principal
Principal text.

## Follow-ups
### Q: First follow-up?
First answer.

### Q: Second follow-up?
Second answer.

## Red flags
- First red flag.
- Second red flag
  continued on an indented line.
"""


def card_text(card_id: str = "small-card") -> str:
    """A card that satisfies every rule of content/README.md."""
    return CARD_TEMPLATE.format(card_id=card_id)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based number of the line holding the n-th occurrence of ``needle``."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} not in text")


def write_bank(root: Path, cards: dict[str, str], concepts: str = CONCEPTS_YAML) -> Path:
    """Create ``root/concepts.yaml`` and ``root/cards/<name>`` files; returns ``root``."""
    (root / "cards").mkdir(parents=True, exist_ok=True)
    (root / "concepts.yaml").write_text(concepts, encoding="utf-8")
    for name, text in cards.items():
        (root / "cards" / name).write_text(text, encoding="utf-8")
    return root
