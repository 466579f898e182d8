"""Per op kind: a one-line reminder of its layout rule (for hints) and its concept tag."""

from __future__ import annotations

from collections.abc import Iterable

RULES = {
    "transpose": "`transpose(a, b)` swaps the sizes and the strides of dims a and b.",
    "permute": "`permute(p)` puts old dim `p[i]` at position i, size and stride together.",
    "t": "`t()` swaps the two dims of a matrix, sizes and strides together.",
    "mT": "`.mT` swaps the last two dims, sizes and strides together.",
    "movedim": "`movedim(s, d)` takes dim s out and puts it back at position d; the others keep "
    "their order.",
    "slice": "`a:b:k` keeps ceil((b - a) / k) entries of a dim, multiplies its stride by k and "
    "moves the offset by a times that dim's stride.",
    "narrow": "`narrow(d, start, length)` keeps `length` entries of dim d and moves the offset by "
    "start times stride[d].",
    "select": "`select(d, i)` (or an integer index) removes dim d and moves the offset by "
    "i times stride[d].",
    "unsqueeze": "`unsqueeze(d)` (or `None` in an index) inserts a size-1 dim at position d.",
    "squeeze": "`squeeze()` drops size-1 dims, and only those.",
    "flatten": "`flatten(s, e)` merges dims s..e into one dim of their product size.",
    "unflatten": "`unflatten(d, sizes)` splits dim d into the given sizes.",
    "unfold": "`unfold(d, size, step)` turns dim d into (n - size) // step + 1 windows (stride "
    "times step) and appends a dim of length size with the old stride.",
    "diagonal": "`diagonal` removes its two dims and appends the diagonal at the end, with the sum "
    "of their strides.",
    "expand": "`expand` grows size-1 dims (and new leading dims) with stride 0: nothing is copied.",
    "split": "`split(n, d)[k]` is the k-th piece of width n along d: a narrow view.",
    "chunk": "`chunk(c, d)[k]`: pieces of width ceil(size / c) along d (maybe fewer than c).",
    "tensor_split": "`tensor_split(c, d)[k]`: exactly c pieces; the first size % c are one wider.",
    "unbind": "`unbind(d)[k]` is the same as `select(d, k)`.",
    "reshape": "`reshape` keeps the element count (a -1 is worked out from it); it is a view "
    "when the strides allow, a copy otherwise.",
    "view": "`view` keeps the element count (a -1 is worked out from it) and never copies.",
}


def rules_for(kinds: Iterable[str]) -> str:
    """The rules of the distinct op kinds in order of first appearance."""
    seen: list[str] = []
    for kind in kinds:
        if kind in RULES and kind not in seen:
            seen.append(kind)
    return " ".join(RULES[k] for k in seen)


CONCEPT_OF = {
    "transpose": "transpose-permute",
    "permute": "transpose-permute",
    "t": "transpose-permute",
    "mT": "transpose-permute",
    "movedim": "transpose-permute",
    "slice": "slicing",
    "narrow": "narrow-select-unbind",
    "select": "narrow-select-unbind",
    "unbind": "narrow-select-unbind",
    "unsqueeze": "squeeze-unsqueeze",
    "squeeze": "squeeze-unsqueeze",
    "flatten": "flatten-unflatten",
    "unflatten": "flatten-unflatten",
    "unfold": "unfold",
    "diagonal": "diagonal",
    "expand": "expand-broadcast",
    "split": "split-chunk",
    "chunk": "split-chunk",
    "tensor_split": "split-chunk",
    "reshape": "reshape",
    "view": "view",
}
