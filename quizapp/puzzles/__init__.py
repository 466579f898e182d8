"""Generated stride puzzles: ``families()``, ``generate()``, ``check()`` and ``LEVELS``."""

from quizapp.puzzles.checking import check
from quizapp.puzzles.drafts import LEVELS
from quizapp.puzzles.registry import families, generate

__all__ = ["LEVELS", "check", "families", "generate"]
