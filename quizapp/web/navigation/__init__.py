"""How the areas link to each other: a question list's query string and cross-area URLs."""
