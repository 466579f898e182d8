"""quizapp.content."""
