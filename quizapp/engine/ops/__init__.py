"""The op layer: OPS maps torch's method/attribute name to a function returning an Outcome.

Call form: ``OPS[name](tensor, **kwargs)`` with torch's keyword names (the accepted call
forms of each op are in ``quizapp.engine.signature_table.OP_SIGNATURES``).
Each function reproduces torch 2.13's metadata (shape, stride, offset, storage identity,
view bookkeeping) or raises TorchError with torch's exception class name and message.
Ops that return several tensors give a tuple (or, past MAX_EAGER_PIECES, a lazy Pieces
sequence); test ``isinstance(value, Tensor)`` to tell one tensor from several.
"""

from __future__ import annotations

from collections.abc import Callable

from ..outcome import Outcome
from .converting import to
from .copying import clone, contiguous, detach
from .dims import (
    T,
    moveaxis,
    movedim,
    mT,
    permute,
    squeeze,
    swapaxes,
    swapdims,
    t_,
    transpose,
    unsqueeze,
)
from .dtype_views import view_dtype
from .expanding import broadcast_to, expand, expand_as
from .flipping import flip
from .indexing import getitem
from .pieces import MAX_EAGER_PIECES, Pieces
from .reshaping import flatten, ravel, reshape, reshape_as, unflatten, view, view_as
from .slicing import narrow, select
from .splitting import chunk, split, tensor_split, unbind
from .strided import as_strided, diagonal, unfold

OPS: dict[str, Callable[..., Outcome]] = {
    "view": view,
    "view_as": view_as,
    "reshape": reshape,
    "reshape_as": reshape_as,
    "ravel": ravel,
    "flatten": flatten,
    "unflatten": unflatten,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "permute": permute,
    "transpose": transpose,
    "swapaxes": swapaxes,
    "swapdims": swapdims,
    "t": t_,
    "T": T,
    "mT": mT,
    "movedim": movedim,
    "moveaxis": moveaxis,
    "expand": expand,
    "expand_as": expand_as,
    "broadcast_to": broadcast_to,
    "narrow": narrow,
    "select": select,
    "unbind": unbind,
    "split": split,
    "chunk": chunk,
    "tensor_split": tensor_split,
    "diagonal": diagonal,
    "unfold": unfold,
    "as_strided": as_strided,
    "contiguous": contiguous,
    "clone": clone,
    "detach": detach,
    "to": to,
    "flip": flip,
    "view_dtype": view_dtype,  # .view(torch.<dtype>): bind_step names it apart from .view
    "__getitem__": getitem,
}

__all__ = ["MAX_EAGER_PIECES", "OPS", "Pieces"]
