"""quizapp.puzzles."""
