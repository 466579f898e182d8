"""Progress area: mastery, puzzle accuracy, the year of reviews and the streak (/progress)."""
