"""The question bank: typed cards loaded from content/ and the checks behind `content check`."""

from quizapp.content.checking import CheckReport, check_bank
from quizapp.content.loading import (
    configured_content_root,
    default_content_root,
    load_cards,
    load_concepts,
)
from quizapp.content.model import (
    FREQUENCY,
    IMPORTANCE,
    LEVELS,
    Card,
    ContentError,
    FollowUp,
    Problem,
)
from quizapp.content.samples import SampleRunnerError

__all__ = [
    "FREQUENCY",
    "IMPORTANCE",
    "LEVELS",
    "Card",
    "CheckReport",
    "ContentError",
    "FollowUp",
    "Problem",
    "SampleRunnerError",
    "check_bank",
    "configured_content_root",
    "default_content_root",
    "load_cards",
    "load_concepts",
]
