"""Random arguments for every op, mostly valid, sometimes invalid, drawn from the input's shape."""

from __future__ import annotations

import math

import torch

from quizapp.engine.factories import CONSTRUCTORS

FORMATS = ("contiguous_format", "channels_last", "channels_last_3d", "preserve_format")


def rand_dim(rng, ndim: int, slack: int = 1) -> int:
    """A dim in range most of the time (0-d tensors accept -1 and 0), sometimes just outside."""
    n = max(ndim, 1)
    if rng.random() < 0.9:
        return rng.randint(-n, n - 1)
    return rng.choice((-n - slack, n + slack - 1, n))


def factor_shape(rng, numel: int, max_dims: int = 4) -> list:
    """A random shape with ``numel`` elements (some size-1 dims; a 0 somewhere if numel == 0)."""
    dims = []
    if numel == 0:
        dims = [rng.choice((1, 2, 3)) for _ in range(rng.randint(0, max_dims - 1))]
        dims.insert(rng.randint(0, len(dims)), 0)
        return dims
    n = numel
    while n > 1 and len(dims) < max_dims - 1 and rng.random() < 0.7:
        divisors = [d for d in range(2, n + 1) if n % d == 0]
        d = rng.choice(divisors)
        dims.append(d)
        n //= d
    if n > 1 or not dims:
        dims.append(n)
    for _ in range(rng.choice((0, 0, 1, 2))):
        dims.insert(rng.randint(0, len(dims)), 1)
    rng.shuffle(dims)
    return dims


def target_shape(rng, numel: int, huge: bool = True) -> tuple:
    """A view/reshape target: a factorisation, maybe with -1, sometimes broken on purpose."""
    dims = factor_shape(rng, numel)
    if huge and rng.random() < 0.05:  # dims whose product overflows int64 (wraps inside infer_size)
        dims.insert(rng.randint(0, len(dims)), rng.choice((2**62, 2**63 - 1, 2**40)))
    r = rng.random()
    if r < 0.35 and dims:
        dims[rng.randrange(len(dims))] = -1
    elif r < 0.42 and dims:
        dims[rng.randrange(len(dims))] += rng.choice((1, 2))
    elif r < 0.46:
        dims += [-1, -1]
    elif r < 0.50 and dims:
        dims[rng.randrange(len(dims))] = rng.choice((-2, -3))
    elif r < 0.53:
        dims += [0, -1]
    return tuple(min(d, 2**63 - 1) for d in dims)  # larger ints fail in torch's argument parser


def sizes_for_dim(rng, size: int) -> tuple:
    r = rng.random()
    if r < 0.05:
        return ()
    dims = factor_shape(rng, size, 3)
    if r < 0.35 and dims:
        dims[rng.randrange(len(dims))] = -1
    elif r < 0.45:
        dims.append(rng.choice((2, 3, -1)))
    return tuple(dims)


def expand_target(rng, shape: tuple) -> tuple:
    target = []
    for s in shape:
        r = rng.random()
        if s == 1 and r < 0.5:
            target.append(rng.choice((0, 1, 2, 3, 4)))
        elif r < 0.25:
            target.append(-1)
        elif r < 0.28:
            target.append(s + rng.choice((1, 2)))
        elif r < 0.30:
            target.append(rng.choice((-2, -3)))
        else:
            target.append(s)
    lead = [
        rng.choice((1, 2, 3, 0, -1 if rng.random() < 0.1 else 2)) for _ in range(rng.randint(0, 2))
    ]
    if shape and rng.random() < 0.04:
        return tuple(target[1:])  # too few sizes
    return tuple(lead + target)


def permutation(rng, ndim: int) -> tuple:
    dims = list(range(ndim))
    rng.shuffle(dims)
    dims = [d - ndim if rng.random() < 0.3 else d for d in dims]
    r = rng.random()
    if r < 0.05:
        dims.append(0)
    elif r < 0.1 and dims:
        dims[rng.randrange(len(dims))] = dims[0]
    elif r < 0.14 and dims:
        dims[rng.randrange(len(dims))] = ndim + rng.randint(0, 2)
    return tuple(dims)


def index_item(rng, size: int):
    r = rng.random()
    if r < 0.3:
        return (
            rng.randint(-size - 1, size)
            if rng.random() < 0.15
            else (rng.randint(-size, size - 1) if size else 0)
        )
    if r < 0.75:
        start = rng.choice((None, 0, 1, -1, 2, -size - 2, size + 3, 2**63 - 1))
        stop = rng.choice((None, 1, 2, 3, -1, size, size + 5, -(2**63)))
        step = rng.choice((None, 1, 1, 2, 3, 5, 0, -1)) if rng.random() < 0.97 else 2**62
        if step == 0 and stop == -(2**63):
            stop = None  # torch warns with the ValueError pending: SystemError after 1st time
        return slice(start, stop, step)
    if r < 0.9:
        return None
    return Ellipsis


def random_index(rng, shape: tuple):
    if rng.random() < 0.2:
        return index_item(rng, shape[0] if shape else 0)
    items = []
    dims = list(shape)
    for _ in range(rng.randint(0, len(shape) + 2)):
        item = index_item(rng, dims[0] if dims else 1)
        if item is Ellipsis and Ellipsis in items and rng.random() < 0.7:
            continue
        items.append(item)
        if item is not None and item is not Ellipsis and dims:
            dims.pop(0)
    return tuple(items)


def split_arg(rng, size: int):
    if rng.random() < 0.6:
        return (
            rng.choice((-1, 0, 1, 1, 2, 2, 3, 5, size, size + 1)) if size else rng.choice((0, 1, 2))
        )
    parts = []
    left = size
    while left > 0:
        p = rng.randint(0, left)
        parts.append(p)
        left -= p
    if rng.random() < 0.3:
        parts.insert(rng.randint(0, len(parts)), 0)
    if rng.random() < 0.15:
        parts.append(rng.choice((1, -1)))
    return tuple(parts)


def strided_args(rng, e) -> dict:
    """as_strided arguments near the storage's bounds (sometimes past them)."""
    shape = tuple(rng.choice((0, 1, 2, 3, 4)) for _ in range(rng.randint(0, 4)))
    if 0 in shape and rng.random() < 0.3:  # empty, so huge dims are allowed (until reordered)
        shape = tuple(rng.choice((s, 2**62, 2**63 - 1, 2**40)) if s else 0 for s in shape)
    stride = tuple(rng.choice((0, 1, 2, 3, 5)) for _ in shape)
    r = rng.random()
    if r < 0.04:
        stride = stride + (1,)
    elif r < 0.08 and stride:
        stride = (-1,) + stride[1:]
    elif r < 0.1 and shape:
        shape = (-1,) + shape[1:]
    limit = e.storage.nbytes // e.dtype.itemsize
    span = sum((s - 1) * st for s, st in zip(shape, stride, strict=False) if s > 0)
    offset = rng.choice((None, 0, 1, max(limit - span - 1, 0), limit - span, -1))
    if offset is not None and not -(2**63) <= offset < 2**63:
        offset = rng.choice((0, -1))  # beyond int64 torch fails while parsing arguments
    return {"size": shape, "stride": stride, "storage_offset": offset}


def size_of(e, dim: int) -> int:
    ndim = e.ndim
    if ndim == 0:
        return 1
    return e.shape[dim] if -ndim <= dim < ndim else 3


def args_for(name: str, rng, case, e) -> dict:
    """Keyword arguments for ``OPS[name]`` on engine tensor ``e`` (canonical names)."""
    nd, shape = e.ndim, e.shape
    numel = math.prod(shape)
    if name in ("view", "reshape"):
        return {"size" if name == "view" else "shape": target_shape(rng, numel)}
    if name in ("view_as", "reshape_as", "expand_as"):
        other_shape = (
            target_shape(rng, numel, huge=False)
            if name != "expand_as"
            else expand_target(rng, shape)
        )
        other_shape = tuple(abs(s) for s in other_shape)
        other_e = case.add(*_zeros(other_shape))[0]
        return {"other": other_e}
    if name in ("ravel", "t", "T", "mT", "detach"):
        return {}
    if name == "flatten":
        return {"start_dim": rand_dim(rng, nd), "end_dim": rand_dim(rng, nd)}
    if name == "unflatten":
        d = rand_dim(rng, nd)
        return {"dim": d, "sizes": sizes_for_dim(rng, size_of(e, d))}
    if name == "squeeze":
        r = rng.random()
        if r < 0.3:
            return {"dim": None}
        if r < 0.6:
            return {"dim": rand_dim(rng, nd)}
        return {"dim": tuple(rand_dim(rng, nd) for _ in range(rng.randint(0, max(nd, 1) + 1)))}
    if name == "unsqueeze":
        return {"dim": rand_dim(rng, nd + 1)}
    if name == "permute":
        return {"dims": permutation(rng, nd)}
    if name in ("transpose", "swapdims"):
        return {"dim0": rand_dim(rng, nd), "dim1": rand_dim(rng, nd)}
    if name == "swapaxes":
        return {"axis0": rand_dim(rng, nd), "axis1": rand_dim(rng, nd)}
    if name in ("movedim", "moveaxis"):
        if rng.random() < 0.4:
            return {"source": rand_dim(rng, nd), "destination": rand_dim(rng, nd)}
        k = rng.randint(0, nd)
        src = tuple(rand_dim(rng, nd) for _ in range(k))
        dst = tuple(rand_dim(rng, nd) for _ in range(k + (1 if rng.random() < 0.05 else 0)))
        return {"source": src, "destination": dst}
    if name in ("expand", "broadcast_to"):
        return {"size": expand_target(rng, shape)}
    if name == "narrow":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        start = rng.randint(-n, n) if rng.random() < 0.9 else rng.choice((-n - 1, n + 1))
        room = n - (start if start >= 0 else start + n)
        length = rng.randint(0, max(room, 0)) if rng.random() < 0.85 else rng.choice((-1, room + 1))
        return {"dim": d, "start": start, "length": length}
    if name == "select":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        index = rng.randint(-n, n - 1) if n and rng.random() < 0.85 else rng.choice((-n - 1, n))
        return {"dim": d, "index": index}
    if name == "unbind":
        return {"dim": rand_dim(rng, nd)}
    if name == "split":
        d = rand_dim(rng, nd)
        return {"split_size": split_arg(rng, size_of(e, d)), "dim": d}
    if name == "chunk":
        return {"chunks": rng.choice((-1, 0, 1, 2, 3, 4, 7)), "dim": rand_dim(rng, nd)}
    if name == "tensor_split":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        if rng.random() < 0.5:
            return {"indices_or_sections": rng.choice((-1, 0, 1, 2, 3, 5)), "dim": d}
        k = rng.randint(0, 4)
        return {
            "indices_or_sections": tuple(rng.randint(-n - 2, n + 2) for _ in range(k)),
            "dim": d,
        }
    if name == "__getitem__":
        return {"index": random_index(rng, shape)}
    if name == "diagonal":
        dims = list(range(-nd, nd)) if nd >= 2 else [0, 1]
        dim1 = rng.choice(dims) if rng.random() < 0.9 else rand_dim(rng, nd)
        dim2 = rng.choice([d for d in dims if (d - dim1) % max(nd, 1)] or dims)
        if rng.random() < 0.1:
            dim2 = dim1 if rng.random() < 0.5 else rand_dim(rng, nd)
        return {"offset": rng.randint(-4, 4), "dim1": dim1, "dim2": dim2}
    if name == "unfold":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        size = rng.randint(0, n) if rng.random() < 0.85 else rng.choice((-1, n + 1))
        step = rng.choice((1, 1, 2, 3, 5)) if rng.random() < 0.9 else rng.choice((-1, 0, 2**62))
        return {"dimension": d, "size": size, "step": step}
    if name == "as_strided":
        return strided_args(rng, e)
    if name in ("contiguous", "clone"):
        fitting = {4: "channels_last", 5: "channels_last_3d"}.get(nd, "contiguous_format")
        usual = "contiguous_format" if name == "contiguous" else "preserve_format"
        return {"memory_format": rng.choice((usual, usual, fitting, fitting) + FORMATS)}
    if name == "flip":
        dims = [rand_dim(rng, nd) for _ in range(rng.choice((0, 1, 1, 2, 2, 3)))]
        if rng.random() < 0.1 and dims:
            dims.append(dims[0] - nd if dims[0] >= 0 else dims[0] + nd)  # the same dim twice
        return {"dims": tuple(dims)}
    if name == "to":
        fitting = {4: "channels_last", 5: "channels_last_3d"}.get(nd, "contiguous_format")
        kwargs = {"memory_format": rng.choice((None, fitting, fitting) + FORMATS)}
        if rng.random() < 0.25:
            kwargs["copy"] = rng.random() < 0.6
        return kwargs
    raise KeyError(name)


def _zeros(shape: tuple):
    return CONSTRUCTORS["zeros"](size=shape).value, torch.zeros(shape)
