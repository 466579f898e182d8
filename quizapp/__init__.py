"""quizapp: interview-prep quizzes and flashcards on tensor memory layout."""

from quizapp.app import create_app

__all__ = ["create_app"]
