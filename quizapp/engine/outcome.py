"""The result of one op: its value plus a lazily rendered one-sentence `why`."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from .reasons import render_why
from .tensor import Tensor

_new_tuple = tuple.__new__


class Outcome(tuple):
    """Frozen (value, why key, why parameters); ``why`` is rendered only when read.

    ``value`` is a Tensor, or a tuple of Tensors for split / chunk / unbind / tensor_split.
    The op hot path stores a template key and the numbers of this case; the sentence is built
    by :func:`quizapp.engine.reasons.render_why` on access.
    """

    __slots__ = ()

    def __new__(cls, value: Tensor | tuple[Tensor, ...], key: str, params: tuple = ()) -> Outcome:
        return _new_tuple(cls, (value, key, params))

    value = property(itemgetter(0), doc="A Tensor or a tuple of Tensors.")
    why_key = property(itemgetter(1), doc="Which `why` template explains this outcome.")
    why_params = property(itemgetter(2), doc="The numbers of this case the template needs.")

    @property
    def why(self) -> str:
        """One plain-English sentence saying why the result looks the way it does."""
        return render_why(self[1], self[2])

    def render(self) -> str:
        """``why`` as a call: a bound ``outcome.render`` renders the sentence later, if asked."""
        return render_why(self[1], self[2])

    @property
    def allocated(self) -> bool:
        """True when the value lives in a storage this step created (a copy or a constructor).

        Views, same-object returns and ``detach`` share the input's storage; ``ravel`` of a
        non-contiguous tensor views a fresh copy (its third parameter says whether it copied).
        """
        key = self[1]
        if key == "ravel":
            return self[2][2]
        return key in ALLOCATING_KEYS

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Outcome(value={self[0]!r}, why_key={self[1]!r})"


# Outcome keys whose value sits in a new storage: the copy paths of reshape / flatten,
# clone, a copying contiguous() or .to(), flip, and every constructor (see reasons.OUTCOME_WHY).
ALLOCATING_KEYS = frozenset(
    {
        "reshape_copy",
        "flatten_copy",
        "clone_dense",
        "clone_inferred",
        "clone_format",
        "contiguous_copy",
        "to_copy",
        "flip",
        "getitem_advanced",
        "factory_filled",
        "factory_unknown",
        "factory_arange",
        "factory_tensor",
    }
)


def make_outcome(value: Tensor | Sequence[Tensor], key: str, params: tuple = ()) -> Outcome:
    """Build an Outcome without the keyword-capable constructor (the ops' hot path)."""
    return _new_tuple(Outcome, (value, key, params))
