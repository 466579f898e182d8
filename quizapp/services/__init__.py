"""quizapp.services."""
