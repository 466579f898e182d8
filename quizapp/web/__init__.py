"""quizapp.web."""
