"""Generated stride puzzles: ``deal()`` (a typed Puzzle), ``generate()`` (its dict), ``check()``,
``families()`` and ``LEVELS``, with what pages need to offer and read answers. Services and web
import puzzles from here only."""

from quizapp.puzzles.checking import check
from quizapp.puzzles.drafts import LEVELS
from quizapp.puzzles.parsing import MAX_RESPONSE_CHARS, ParseError
from quizapp.puzzles.picking import MAX_PICKS, PICKABLE_KINDS, compose_answer, compute_pick_options
from quizapp.puzzles.puzzle import Puzzle
from quizapp.puzzles.registry import MAX_SEED, deal, families, generate
from quizapp.puzzles.rendering import fmt_answer, omit_said

__all__ = [
    "LEVELS",
    "MAX_PICKS",
    "MAX_RESPONSE_CHARS",
    "MAX_SEED",
    "PICKABLE_KINDS",
    "ParseError",
    "Puzzle",
    "check",
    "compose_answer",
    "compute_pick_options",
    "deal",
    "families",
    "fmt_answer",
    "generate",
    "omit_said",
]
