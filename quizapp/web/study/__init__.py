"""Study area: the study page (queue, chosen items, lists), ratings, undo, suspend, history."""
