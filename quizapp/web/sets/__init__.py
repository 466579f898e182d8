"""Practice sets area: make, save, share, take, score and print generated sets."""
