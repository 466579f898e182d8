"""quizapp.srs."""
