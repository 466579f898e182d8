"""quizapp.engine."""
