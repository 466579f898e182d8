"""Practice area: puzzles of chosen levels and families, outside the schedule (/practice)."""
