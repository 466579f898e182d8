"""The database models (SQLAlchemy 2.0, typed); schema changes go through migrations/."""

from quizapp.models.account import LoginAttempt, LoginSession, RegistrationAttempt, User
from quizapp.models.bank import Card, Concept, Item, ItemConcept, Skill
from quizapp.models.base import Base
from quizapp.models.practice import PracticeAttempt
from quizapp.models.practice_sets import PracticeSet, QueuedItem, SetAnswer, SetAttempt
from quizapp.models.study import ItemSuspension, Review, ReviewState
from quizapp.models.teams import (
    Assignment,
    AssignmentMember,
    JoinCodeAttempt,
    Team,
    TeamJoinCode,
    TeamMember,
    Track,
    TrackStep,
)

__all__ = [
    "Assignment", "AssignmentMember", "Base", "Card", "Concept", "Item", "ItemConcept",
    "ItemSuspension", "JoinCodeAttempt", "LoginAttempt", "LoginSession", "PracticeAttempt",
    "PracticeSet", "QueuedItem", "RegistrationAttempt", "Review", "ReviewState", "SetAnswer",
    "SetAttempt", "Skill", "Team", "TeamJoinCode", "TeamMember", "Track", "TrackStep", "User",
]
