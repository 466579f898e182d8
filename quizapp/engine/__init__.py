"""Reference view engine: torch 2.13 tensor layouts in pure Python, explained step by step."""

from quizapp.engine.explain import explain
from quizapp.engine.expression import MAX_CHARS, ExpressionError
from quizapp.engine.tensor import Tensor, TorchError
from quizapp.engine.torch_explain import torch_explain

__all__ = ["MAX_CHARS", "ExpressionError", "Tensor", "TorchError", "explain", "torch_explain"]
