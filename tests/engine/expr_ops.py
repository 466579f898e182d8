"""Random steps for the differential chains: one maker per op, arguments drawn around the shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from expr_args import (
    BIG,
    FORMATS,
    Maker,
    Nested,
    TorchConst,
    expand_target,
    factor,
    fmt,
    hostile,
    nested,
    target_shape,
)


def dim_size(t: Any, d: int, default: int) -> int:
    """The size of dim d (never negative: the expand quirk can make -2), or ``default``."""
    return max(t.shape[d], 0) if -t.dim() <= d < t.dim() else default


def view(gen: Any, t: Any) -> Maker:
    name = gen.rng.choice(("view", "reshape"))
    return gen.sizes_call(name, target_shape(gen, t), "size" if name == "view" else "shape")


def as_other(gen: Any, t: Any) -> Maker:
    name = gen.rng.choice(("view_as", "reshape_as", "expand_as"))
    shape = expand_target(gen, t) if name == "expand_as" else target_shape(gen, t)
    shape = tuple(max(s, 0) for s in shape)
    other = nested(gen, shape)
    return gen.call(name, (other,)) if gen.rng.random() < 0.8 else gen.call(name, (), {"other": other})


def flatten(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    if rng.random() < 0.2:
        return gen.call("ravel")
    form = rng.random()
    if form < 0.25:
        return gen.call("flatten")
    s, e = gen.dim(t.dim()), gen.dim(t.dim())
    if form < 0.6:
        return gen.call("flatten", (s, e))
    return gen.call("flatten", (s,)) if form < 0.8 else gen.call("flatten", (), {"end_dim": e})


def unflatten(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    d = gen.dim(t.dim())
    size = dim_size(t, d, rng.randint(0, 4))
    sizes = factor(gen, size, rng.randint(1, 3)) if size else [0, rng.randint(1, 3)]
    if rng.random() < 0.2:
        sizes[rng.randrange(len(sizes))] = -1
    if rng.random() < 0.08:
        sizes = [rng.randint(2, 5), rng.randint(2, 5)] if rng.random() < 0.7 else []
    value = tuple(sizes) if rng.random() < 0.6 else list(sizes)
    return gen.call("unflatten", (d, value)) if rng.random() < 0.8 else \
        gen.call("unflatten", (), {"dim": d, "sizes": value})


def squeeze(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    form = rng.random()
    if form < 0.3:
        return gen.call("squeeze")
    if form < 0.65:
        return gen.call("squeeze", (gen.dim(t.dim()),))
    dims = tuple(gen.dim(t.dim()) for _ in range(rng.randint(0, 3)))
    if form < 0.8 and dims:
        return gen.call("squeeze", dims)
    return gen.call("squeeze", (dims,)) if form < 0.9 else gen.call("squeeze", (), {"dim": dims})


def unsqueeze(gen: Any, t: Any) -> Maker:
    d = gen.dim(t.dim() + 1)
    return gen.call("unsqueeze", (d,)) if gen.rng.random() < 0.8 else \
        gen.call("unsqueeze", (), {"dim": d})


def permute(gen: Any, t: Any) -> Maker:
    rng, n = gen.rng, t.dim()
    dims = list(range(n))
    rng.shuffle(dims)
    dims = [d - n if rng.random() < 0.2 else d for d in dims]
    if rng.random() < 0.08:
        dims = dims[:-1] if dims and rng.random() < 0.5 else dims + [0]
    return gen.sizes_call("permute", tuple(dims), "dims")


def transpose(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    name = rng.choice(("transpose", "swapaxes", "swapdims", "t", "T", "mT", "T", "mT"))
    if name in ("T", "mT"):
        return f".{name}", lambda x: getattr(x, name)
    if name == "t":
        return gen.call("t")
    a, b = gen.dim(t.dim()), gen.dim(t.dim())
    if rng.random() < 0.75:
        return gen.call(name, (a, b))
    keys = ("axis0", "axis1") if name == "swapaxes" else ("dim0", "dim1")
    return gen.call(name, (), dict(zip(keys, (a, b), strict=True)))


def movedim(gen: Any, t: Any) -> Maker:
    rng, n = gen.rng, t.dim()
    name = rng.choice(("movedim", "moveaxis"))
    if rng.random() < 0.5:
        args: tuple = (gen.dim(n), gen.dim(n))
    else:
        k = rng.randint(0, max(n, 1))
        src, dst = rng.sample(range(max(n, 1)), min(k, max(n, 1))), None
        dst = rng.sample(range(max(n, 1)), len(src))
        if rng.random() < 0.1:
            dst = dst + [0]
        args = (tuple(src), list(dst) if rng.random() < 0.3 else tuple(dst))
    if rng.random() < 0.8:
        return gen.call(name, args)
    return gen.call(name, (), {"source": args[0], "destination": args[1]})


def expand(gen: Any, t: Any) -> Maker:
    name = gen.rng.choice(("expand", "broadcast_to"))
    return gen.sizes_call(name, expand_target(gen, t), "size")


def negative_size(gen: Any, t: Any) -> Maker:
    """On an empty tensor, expand a size-1 or new leading dim to a negative size: the 0 makes
    the numel check pass, so torch builds the tensor and later ops meet the negative dim."""
    if 0 not in t.shape:
        return expand(gen, t)
    rng = gen.rng
    sizes = [rng.choice((-2, -3)) if s == 1 and rng.random() < 0.7 else s for s in t.shape]
    if sizes == list(t.shape) or rng.random() < 0.3:
        sizes = [rng.choice((-2, -3, -1))] + sizes
    return gen.sizes_call(rng.choice(("expand", "broadcast_to")), tuple(sizes), "size")


def narrow_select(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    d = gen.dim(t.dim())
    negative = [i for i, s in enumerate(t.shape) if s < 0]
    if negative and rng.random() < 0.7:  # a dim expand left negative (its quirk)
        d = rng.choice(negative)
    size = dim_size(t, d, 3)
    if rng.random() < 0.5:
        index = rng.randint(-size - 1, size)
        return gen.call("select", (d, index)) if rng.random() < 0.8 else \
            gen.call("select", (), {"dim": d, "index": index})
    start = rng.randint(-size - 1, size + 1)
    length = rng.randint(-1, size + 1) if rng.random() < 0.2 else rng.randint(0, max(size - abs(start), 0))
    return gen.call("narrow", (d, start, length)) if rng.random() < 0.8 else \
        gen.call("narrow", (d,), {"start": start, "length": length})


def pieces(gen: Any, t: Any) -> Maker:
    """split / chunk / tensor_split / unbind followed by [k]."""
    rng = gen.rng
    name = rng.choice(("split", "split", "chunk", "tensor_split", "tensor_split", "unbind"))
    d = gen.dim(t.dim())
    negative = [i for i, s in enumerate(t.shape) if s < 0]
    if negative and rng.random() < 0.7:  # a dim expand left negative (its quirk)
        d = rng.choice(negative)
        name = rng.choice(("split", "unbind", "unbind", "chunk", "tensor_split"))
    size = dim_size(t, d, 2)
    if name == "unbind":
        args: tuple = (d,) if rng.random() < 0.7 else ()
    elif name == "split" and rng.random() < 0.4:
        cuts = sorted(rng.randint(0, size) for _ in range(rng.randint(0, 3)))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [size], strict=True)]
        if rng.random() < 0.1:
            parts.append(1)
        if rng.random() < 0.1:  # split sizes at the SymInt and int64 edges
            parts.insert(rng.randint(0, len(parts)), hostile(gen))
        args = (parts, d)
    elif name == "tensor_split" and rng.random() < 0.5:
        args = (tuple(rng.randint(-1, size + 1) for _ in range(rng.randint(0, 3))), d)
    else:
        args = (rng.randint(-1, max(size, 1) + 1) if rng.random() < 0.15 else
                rng.randint(1, max(size, 1)), d)
    if rng.random() < 0.3 and args:
        args = args[:1]
    if max(t.shape, default=0) > 1024:  # huge (zero-numel) dims: keep torch's piece count small
        name, args = rng.choice(("chunk", "tensor_split")), (rng.randint(1, 3), d)
        if rng.random() < 0.1:
            name, args = "tensor_split", (2**16 + 1, d)  # over the language's piece bound
            return gen.call(name, args, pick=0)
    try:
        count = len(getattr(t, name)(*args))
    except Exception:  # noqa: BLE001 - torch refuses; any k will do
        count = 1
    k = rng.randint(-count, count - 1) if count and rng.random() < 0.95 else count
    return gen.call(name, args, pick=k)


def diagonal_unfold(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    if rng.random() < 0.5:
        args = (rng.randint(-3, 3), gen.dim(t.dim()), gen.dim(t.dim()))
        if rng.random() < 0.3:
            return gen.call("diagonal", (), dict(zip(("offset", "dim1", "dim2"), args, strict=True)))
        return gen.call("diagonal", args[: rng.randint(0, 3)])
    d = gen.dim(t.dim())
    size = dim_size(t, d, 1)
    return gen.call("unfold", (d, rng.randint(-1, size + 1) if rng.random() < 0.1 else
                               rng.randint(0, size), rng.choice((1, 1, 2, 3, 0))))


def as_strided(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    room = t.untyped_storage().nbytes() // t.element_size()
    rank = rng.randint(0, 4)
    sizes = [rng.choice((0, 1, 2, 2, 3, 4)) for _ in range(rank)]
    strides = [rng.choice((0, 1, 1, 2, 3, 5)) for _ in range(rank)]
    need = 1 + sum((s - 1) * st for s, st in zip(sizes, strides, strict=True)) if 0 not in sizes else 0
    offset = rng.randint(0, max(room - need, 0)) if rng.random() < 0.9 else rng.randint(0, room + 3)
    roll = rng.random()
    if roll < 0.05:  # a huge view that costs nothing: sizes near 2**63 over zero strides
        sizes = [rng.choice(BIG) if rng.random() < 0.5 else s for s in sizes] or [rng.choice(BIG)]
        strides = [0] * len(sizes)
    elif roll < 0.08:
        strides[0:1] = [-1] if strides else []
    elif roll < 0.10:
        sizes = sizes + [rng.choice(BIG)]
        strides = strides + [1]
    elif roll < 0.12:
        strides = strides[:-1]
    elif roll < 0.16:  # an int below -2**62 (or near the int64 edges) among sizes or strides
        target = sizes if rng.random() < 0.5 or not strides else strides
        if target:
            target[rng.randrange(len(target))] = hostile(gen)
        else:
            sizes, strides = [hostile(gen)], [1]
    elif roll < 0.18 and not rank:  # 0-d: only the offset can overflow the storage size
        return gen.call("as_strided", ((), (), rng.choice((2**61, 2**61 - 1, 2**62, 2**63 - 1))))
    args: tuple = (tuple(sizes), tuple(strides))
    if rng.random() < 0.6:
        args += (offset if rng.random() < 0.9 else rng.choice((None, -1)),)
    return gen.call("as_strided", args)


def copy(gen: Any, t: Any) -> Maker:
    rng = gen.rng
    name = rng.choice(("contiguous", "clone", "detach"))
    if name == "detach" or rng.random() < 0.3:
        return gen.call(name)
    fmt = {4: "channels_last", 5: "channels_last_3d"}.get(t.dim(), "contiguous_format")
    if rng.random() < 0.4:
        fmt = rng.choice(FORMATS)
    return gen.call(name, (), {"memory_format": TorchConst(fmt)})


def to(gen: Any, t: Any) -> Maker:
    """.to(memory_format=..., copy=...): the only .to() form the language takes."""
    rng = gen.rng
    fmt = {4: "channels_last", 5: "channels_last_3d"}.get(t.dim(), "contiguous_format")
    if rng.random() < 0.4:
        fmt = rng.choice(FORMATS)
    kwargs: dict = {} if rng.random() < 0.1 else {"memory_format": TorchConst(fmt)}
    if rng.random() < 0.25:
        kwargs["copy"] = rng.random() < 0.6
    return gen.call("to", (), kwargs)


VIEW_DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
               "uint8", "bool", "long", "half", "int")


def dtype_view(gen: Any, t: Any) -> Maker:
    """.view(torch.<dtype>) or .view(dtype=...): the same bytes read as another dtype."""
    dtype = TorchConst(gen.rng.choice(VIEW_DTYPES))
    return gen.call("view", (dtype,)) if gen.rng.random() < 0.85 else \
        gen.call("view", (), {"dtype": dtype})


def flip(gen: Any, t: Any) -> Maker:
    """.flip(dims) in each form torch takes (varargs, a tuple, a list, dims=), dims sometimes
    repeated or out of range."""
    rng, n = gen.rng, t.dim()
    dims = tuple(gen.dim(n) for _ in range(rng.choice((0, 1, 1, 2, 2, 3))))
    if rng.random() < 0.08 and dims:
        dims += (dims[0] - max(n, 1) if dims[0] >= 0 else dims[0] + max(n, 1),)
    return gen.sizes_call("flip", dims, "dims")


def index(gen: Any, t: Any) -> Maker:
    rng, n = gen.rng, t.dim()
    items: list = []
    dim = 0
    for _ in range(rng.randint(1, n + 2)):
        size = dim_size(t, dim, 1)
        roll = rng.random()
        if roll < 0.3:
            items.append(rng.randint(-size - 1, size) if rng.random() < 0.1 else
                         rng.randint(-size, max(size - 1, -size)))
        elif roll < 0.7:
            step = rng.choice((None, None, 1, 2, 3)) if rng.random() < 0.95 else rng.choice((0, -1))
            items.append(slice(rng.choice((None, rng.randint(-size - 1, size + 1))),
                               rng.choice((None, rng.randint(-size - 1, size + 1))), step))
        elif roll < 0.85:
            items.append(None)
            continue
        else:  # a second "..." is accepted by torch, and pushes later items past the dims
            items.append(Ellipsis)
        dim += 1
    if rng.random() < 0.08:  # several "..." before an item: torch reads sizes past the dims
        count = rng.choice((2, 2, 3, 4, 6, 12))
        tail = rng.choice((0, 1, -1, slice(None), slice(0, 1), slice(None, None, 2), None))
        items = [Ellipsis] * count + [tail] if rng.random() < 0.7 else items + [Ellipsis]
    value = tuple(items) if len(items) != 1 or rng.random() < 0.3 else items[0]
    if isinstance(value, tuple):
        text = "[" + ", ".join(fmt(i) for i in value) + ("," if len(value) == 1 else "") + "]"
    else:
        text = "[" + fmt(value) + "]"

    def run(x: Any) -> Any:
        if reads_past_sizes(x, value):  # the chain ends with this step, which is not run here
            raise LookupError("torch would read a size from beyond its size/stride storage")
        return x[value]

    return text, run


MASK_DTYPES = ("int64", "float32", "float16", "bfloat16", "uint8", "int8", "bool", "float64")
COMPARE = (">", ">=", "<", "<=", "==", "!=")


class Mask:
    """``tensor <op> scalar`` as an index item: its text and the torch bool tensor."""

    def __init__(self, source: Nested, op: str, scalar: object) -> None:
        self.source, self.op, self.scalar = source, op, scalar

    def text(self) -> str:
        return f"{self.source.text} {self.op} {self.scalar!r}"

    def build(self, torch: Any) -> Any:
        left = self.source.build(torch)
        return {">": left > self.scalar, ">=": left >= self.scalar, "<": left < self.scalar,
                "<=": left <= self.scalar, "==": left == self.scalar,
                "!=": left != self.scalar}[self.op]


def mask_of(gen: Any, shape: tuple[int, ...]) -> Mask:
    """A comparison whose tensor has ``shape``: arange, or torch.tensor data of some dtype."""
    rng = gen.rng
    numel = 1
    for size in shape:
        numel *= size
    scalar: object = rng.choice((rng.randint(-2, 12), round(rng.uniform(-2, 12), 1), True,
                                 rng.choice((-1, 300))))
    if rng.random() < 0.5 or numel > 24:
        text = f"torch.arange({numel})" + (f".view({', '.join(map(str, shape))})"
                                             if len(shape) != 1 else "")
        if not shape:
            text = f"torch.tensor({rng.randint(0, 9)})"
        value = text

        def build(torch: Any, text: str = value) -> Any:
            return eval(text, {"torch": torch})  # noqa: S307 - the generator's own text

        return Mask(Nested(text, build), rng.choice(COMPARE), scalar)
    dtype = rng.choice(MASK_DTYPES)

    def leaf() -> object:
        if dtype == "bool":
            return rng.random() < 0.5
        if dtype.startswith(("float", "bfloat")):
            return round(rng.uniform(-3, 9), rng.choice((0, 1, 3)))
        return rng.randint(0, 9)

    def data(dims: tuple[int, ...]) -> object:
        return leaf() if not dims else [data(dims[1:]) for _ in range(dims[0])]

    literal = data(shape)
    text = f"torch.tensor({fmt(literal)}, dtype=torch.{dtype})"
    return Mask(Nested(text, lambda torch: torch.tensor(literal, dtype=getattr(torch, dtype))),
                rng.choice(COMPARE), scalar)


def advanced_index(gen: Any, t: Any) -> Maker:
    """An index with lists of ints, lists of bools or masks among basic items."""
    rng, n = gen.rng, t.dim()
    items: list = []
    dim = 0
    advanced = 0
    while dim < n + 1 and len(items) < n + 2:
        size = dim_size(t, dim, 1)
        roll = rng.random()
        if roll < 0.3 or (dim >= n - 1 and not advanced and roll < 0.8):
            length = rng.choice((0, 1, 1, 2, 2, 3, 4))
            low, high = (-size, size - 1) if size else (0, 0)
            values = [rng.randint(low, high) if rng.random() < 0.93 or not size else
                      rng.choice((size, -size - 1, size + 3)) for _ in range(length)]
            items.append(values)
            advanced += 1
            dim += 1
        elif roll < 0.42:
            length = size if rng.random() < 0.9 else size + 1
            items.append([rng.random() < 0.5 for _ in range(length)] or [True])
            advanced += 1
            dim += 1
        elif roll < 0.55:
            rank = rng.choice((1, 1, 2)) if dim < n else 0
            covered = tuple(dim_size(t, d, 1) for d in range(dim, min(dim + rank, n)))
            if rng.random() < 0.08 and covered:
                covered = covered[:-1] + (covered[-1] + 1,)
            if any(size > 64 for size in covered):  # huge empty dims: a list instead
                covered = ()
            items.append(mask_of(gen, covered))
            advanced += 1
            dim += max(len(covered), 1)
        elif roll < 0.75:
            items.append(slice(rng.choice((None, 0, 1)), rng.choice((None, -1, size)),
                               rng.choice((None, 1, 2))))
            dim += 1
        elif roll < 0.85:
            items.append(rng.randint(-size, size - 1) if size else 0)
            dim += 1
        elif roll < 0.93:
            items.append(None)
        else:
            items.append(Ellipsis)
            dim += 1
        if rng.random() < 0.35:
            break
    if not advanced:
        items.append([0])
    value = tuple(items) if len(items) != 1 or rng.random() < 0.3 else items[0]

    def text_of(item: object) -> str:
        return item.text() if isinstance(item, Mask) else fmt(item)

    def torch_of(item: object) -> object:
        return item.build(gen.torch) if isinstance(item, Mask) else item

    if isinstance(value, tuple):
        text = "[" + ", ".join(text_of(i) for i in value) + ("," if len(value) == 1 else "") + "]"
        index: object = tuple(torch_of(i) for i in value)
    else:
        text, index = "[" + text_of(value) + "]", torch_of(value)

    def run(x: Any) -> Any:
        if x.numel() > 32768:
            raise LookupError("the language bounds advanced indexing")
        return x[index]

    return text, run


def reads_past_sizes(t: Any, index: object) -> bool:
    """Whether ``t[index]`` may make torch read a size from past its own dims (several "..."
    push the index past them; see ops.indexing.size_read_past_end). torch does not bounds-check
    that read, and a CI run once crashed (SIGSEGV) in this generator's own ``x[value]`` on such
    an index, so the generator does not run them to grow a chain further: a chain ends with
    such a step, which the differential tests still run through both backends."""
    if type(index) is not tuple or index.count(Ellipsis) < 2:
        return False
    specified = sum(item is not None and item is not Ellipsis for item in index)
    return t.dim() > specified  # each "..." then stands for at least one dim


ARITY_OPS = ("view", "reshape", "flatten", "squeeze", "unsqueeze", "permute", "transpose",
             "swapaxes", "swapdims", "movedim", "moveaxis", "expand", "broadcast_to", "narrow",
             "select", "unbind", "split", "chunk", "tensor_split", "diagonal", "unfold",
             "as_strided", "contiguous", "clone", "unflatten", "t", "detach")
KEYWORDS = ("dim", "dims", "size", "start", "length", "dim0", "dim1", "bogus", "sizes", "index",
            "split_size", "source", "memory_format", "offset", "stride")


def arity(gen: Any, t: Any) -> Maker:
    """A call with missing, extra, repeated or unknown arguments (torch's parser refuses most
    with a TypeError whose wording the language must match)."""
    rng = gen.rng
    name = rng.choice(ARITY_OPS)
    args = tuple(rng.randint(-1, 1) if rng.random() < 0.85 else (0, 1)
                 for _ in range(rng.choice((0, 0, 1, 2, 3, 4, 5))))
    kwargs = {key: rng.randint(0, 1) for key in rng.sample(KEYWORDS, rng.choice((0, 0, 1, 1, 2)))}
    pick = 0 if name in ("unbind", "split", "chunk", "tensor_split") else None
    return gen.call(name, args, kwargs, pick=pick)


OP_MAKERS: tuple[Callable[[Any, Any], Maker], ...] = (
    view, view, view, as_other, flatten, unflatten, squeeze, unsqueeze, permute, permute,
    transpose, transpose, movedim, expand, expand, negative_size, negative_size, arity,
    narrow_select, narrow_select, pieces, pieces,
    diagonal_unfold, as_strided, as_strided, copy, copy, to, index, index, index, flip,
    advanced_index, advanced_index, dtype_view,
)
# Makers that cut one dim (split, chunk, unbind, tensor_split, narrow, select): chosen more
# often once expand has left a dim negative, so torch's refusals of that size are compared.
NEGATIVE_DIM_MAKERS: tuple[Callable[[Any, Any], Maker], ...] = (pieces, pieces, narrow_select)
