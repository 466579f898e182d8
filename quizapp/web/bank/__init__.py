"""Bank area: the question list and card pages, and the puzzle skills."""
