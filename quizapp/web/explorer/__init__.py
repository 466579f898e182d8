"""Explorer area: any chain of view ops explained step by step by the reference engine."""
