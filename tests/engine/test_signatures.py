"""Argument binding: the forms torch accepts, canonical names, and refusals checked against torch."""

from __future__ import annotations

import pytest

from quizapp.engine import explain
from quizapp.engine.expression import ExpressionError, parse_expression
from quizapp.engine.runner import StepFailed, run_step
from quizapp.engine.signatures import MAX_DIMS, ArgumentsRefused, bind_step
from quizapp.engine.torch_explain import TorchBackend
from quizapp.engine.work_bounds import MAX_ALLOCATED_ELEMENTS


def bound(expr: str, index: int = -1) -> dict:
    return bind_step(parse_expression(expr).steps[index]).kwargs


X = "torch.empty(2, 3, 4)"

EQUIVALENT_FORMS = [
    [f"{X}.view(24)", f"{X}.view((24,))", f"{X}.view([24])", f"{X}.view(size=(24,))",
     f"{X}.view(size=[24])"],
    [f"{X}.reshape(4, -1)", f"{X}.reshape((4, -1))", f"{X}.reshape(shape=[4, -1])"],
    [f"{X}.permute(2, 0, 1)", f"{X}.permute((2, 0, 1))", f"{X}.permute(dims=[2, 0, 1])"],
    [f"{X}.expand(5, 2, 3, 4)", f"{X}.expand([5, 2, 3, 4])", f"{X}.expand(size=(5, 2, 3, 4))"],
    [f"{X}.squeeze(0, 1)", f"{X}.squeeze((0, 1))", f"{X}.squeeze(dim=[0, 1])"],
    [f"{X}.flatten()", f"{X}.flatten(0)", f"{X}.flatten(0, -1)", f"{X}.flatten(end_dim=-1)"],
    [f"{X}.transpose(0, 2)", f"{X}.transpose(0, dim1=2)", f"{X}.transpose(dim1=2, dim0=0)"],
    [f"{X}.movedim(0, 1)", f"{X}.movedim(source=0, destination=1)"],
    [f"{X}.split(2, 1)[0]", f"{X}.split(2, dim=1)[0]", f"{X}.split(split_size=2, dim=1)[0]"],
    [f"{X}.tensor_split(3)[0]", f"{X}.tensor_split(sections=3)[0]"],
    [f"{X}.tensor_split([1, 2])[0]", f"{X}.tensor_split(indices=(1, 2))[0]"],
    [f"{X}.diagonal()", f"{X}.diagonal(0, 0, 1)", f"{X}.diagonal(offset=0, dim2=1)"],
    [f"{X}.as_strided((2,), (1,))", f"{X}.as_strided([2], [1], None)",
     f"{X}.as_strided(size=(2,), stride=(1,), storage_offset=None)"],
    [f"{X}.clone()", f"{X}.clone(memory_format=None)",
     f"{X}.clone(memory_format=torch.preserve_format)"],
    [f"{X}.contiguous()", f"{X}.contiguous(memory_format=torch.contiguous_format)"],
    ["torch.zeros(2, 3)", "torch.zeros((2, 3))", "torch.zeros([2, 3])", "torch.zeros(size=(2, 3))",
     "torch.zeros(2, 3, dtype=None)"],
    ["torch.arange(5)", "torch.arange(0, 5)", "torch.arange(0, 5, 1)", "torch.arange(end=5)",
     "torch.arange(start=0, end=5)", "torch.arange(0, end=5, step=1)"],
    ["torch.ones(2, dtype=torch.long)", "torch.ones(2, dtype=torch.int64)"],
    ["torch.full((2,), 7)", "torch.full([2], 7)", "torch.full(size=(2,), fill_value=7)"],
    ["torch.tensor([[1, 2]])", "torch.tensor(((1, 2),))", "torch.tensor(data=[(1, 2)])"],
]


@pytest.mark.parametrize("forms", EQUIVALENT_FORMS, ids=lambda forms: forms[0].split(".")[-1])
def test_equivalent_forms_bind_alike(forms: list[str]) -> None:
    first = bound(forms[0])
    for form in forms[1:]:
        assert bound(form) == first, form


@pytest.mark.parametrize(("expr", "expected"), [
    (f"{X}.view(2, 12)", {"size": (2, 12)}),
    (f"{X}.squeeze()", {"dim": None}),
    (f"{X}.squeeze(1)", {"dim": 1}),
    (f"{X}.flatten(1)", {"start_dim": 1, "end_dim": -1}),
    (f"{X}.movedim((0, 1), [2, 0])", {"source": (0, 1), "destination": (2, 0)}),
    (f"{X}.tensor_split(3, 1)[0]", {"indices_or_sections": 3, "dim": 1}),
    (f"{X}.tensor_split((1,), dim=2)[0]", {"indices_or_sections": (1,), "dim": 2}),
    (f"{X}.split([1, 1], 0)[0]", {"split_size": (1, 1), "dim": 0}),
    (f"{X}.clone()", {"memory_format": "preserve_format"}),
    (f"{X}.contiguous(memory_format=torch.channels_last)", {"memory_format": "channels_last"}),
    (f"{X}.as_strided((2,), (1,), 3)", {"size": (2,), "stride": (1,), "storage_offset": 3}),
    ("torch.arange(2.5)", {"start": 0, "end": 2.5, "step": 1, "dtype": None}),
    ("torch.arange(1, 9, 2, dtype=torch.double)",
     {"start": 1, "end": 9, "step": 2, "dtype": "float64"}),
    ("torch.full((2,), True)", {"size": (2,), "fill_value": True, "dtype": None}),
    ("torch.tensor(((1, 2.5),), dtype=torch.half)", {"data": [[1, 2.5]], "dtype": "float16"}),
    ("torch.empty_strided((2, 3), (1, 2))", {"size": (2, 3), "stride": (1, 2), "dtype": None}),
])
def test_canonical_keywords(expr: str, expected: dict) -> None:
    assert bound(expr) == expected


# Forms torch's own argument parser refuses with a TypeError: the language refuses them too.
TORCH_TYPE_ERRORS = [
    f"{X}.view()", f"{X}.view(24.0)", f"{X}.view(None)", f"{X}.view((6,), 4)", f"{X}.view(6, (4,))",
    f"{X}.view(size=24)", f"{X}.view(shape=(24,))", f"{X}.view(2, 3, 4, size=(24,))",
    f"{X}.reshape(size=(24,))", f"{X}.permute()", f"{X}.expand()", f"{X}.expand((2, 3), 4)",
    f"{X}.broadcast_to(shape=(2, 3, 4))", f"{X}.squeeze(None)", f"{X}.squeeze(0, dim=1)",
    f"{X}.unsqueeze()", f"{X}.unsqueeze((0,))", f"{X}.flatten(0, 1, 2)", f"{X}.flatten(None)",
    f"{X}.unflatten(1, 3)", f"{X}.unflatten(1, 3, 1)", f"{X}.transpose(0)",
    f"{X}.transpose(0, 1, dim1=1)", f"{X}.swapaxes(dim0=0, dim1=1)", f"{X}.t(0)",
    f"{X}.movedim([0], 1)", f"{X}.movedim(0, [1])", f"{X}.chunk(True)[0]", f"{X}.chunk(2.0)[0]",
    f"{X}.select(0, 1.0)", f"{X}.select(0, True)", f"{X}.diagonal(0, 0, 1, 2)",
    f"{X}.unbind(0, 1)[0]", f"{X}.unbind(None)[0]", f"{X}.split(2.0)[0]",
    f"{X}.split(split_size_or_sections=2)[0]", f"{X}.split(True)[0]",
    f"{X}.tensor_split(indices=1)[0]", f"{X}.tensor_split(indices_or_sections=2)[0]",
    f"{X}.tensor_split(1, 2, dim=0)[0]", f"{X}.as_strided(2, 1)",
    f"{X}.as_strided((2,), (1,), storage_offset=True)", f"{X}.contiguous(torch.channels_last)",
    f"{X}.contiguous(memory_format=None)", f"{X}.clone(torch.channels_last)", f"{X}.detach(1)",
    f"{X}.ravel(0)", f"{X}.view_as((2, 3, 4))", f"{X}.narrow(0, 0, True)",
    f"{X}.view(2.0, 12)", f"{X}.view(2, 12.5)", f"{X}.permute(0, 1.0, 2)",
    "torch.arange()", "torch.arange(5, step=2)", "torch.zeros()", "torch.full(2, 1)",
    "torch.empty_strided(2, 3)", "torch.tensor()", "torch.zeros(2, dtype=1)",
]


@pytest.mark.torch
@pytest.mark.parametrize("expr", TORCH_TYPE_ERRORS)
def test_torch_argument_errors_are_refused(expr: str) -> None:
    """Each is refused before it runs: a value of the wrong type by the language (its own
    message), a wrong number or name of arguments with torch's own TypeError, word for word."""
    chain = parse_expression(expr)
    *before, last = chain.steps
    with pytest.raises((ExpressionError, ArgumentsRefused)) as refused:
        bind_step(last)
    import torch  # noqa: PLC0415 - the oracle for what torch's parser refuses

    backend, alive, current = TorchBackend(torch), [], None
    for step in before:
        current, _ = run_step(backend, current, step, alive)
    with pytest.raises(StepFailed) as raised:  # torch called with the arguments as written
        backend.run(current, None, last, lambda chain: None)
    assert raised.value.type_name == "TypeError", raised.value.message
    if isinstance(refused.value, ArgumentsRefused):
        assert refused.value.message == raised.value.message
        error = explain(expr)["error"]
        assert (error["type"], error["message"]) == ("TypeError", raised.value.message)


# Calls torch's parser refuses for their arguments' number or names: torch's TypeError.
ARITY_ERRORS = [f"{X}.permute()", f"{X}.view()", f"{X}.transpose(0)", f"{X}.flatten(0, 1, 2)",
                f"{X}.unflatten(1, 3, 1)", f"{X}.swapaxes(dim0=0, dim1=1)",
                f"{X}.tensor_split(1, 2, dim=0)[0]", f"{X}.contiguous(torch.channels_last)"]


@pytest.mark.parametrize("expr", ARITY_ERRORS)
def test_arity_errors_are_torchs_type_errors(expr: str) -> None:
    with pytest.raises(ArgumentsRefused):
        bind_step(parse_expression(expr).steps[-1])


# Forms torch accepts that the language leaves out on purpose (documented subset).
LANGUAGE_SUBSET = [
    f"{X}.view(torch.complex64)", f"{X}.expand(2, 3, 4, implicit=True)", f"{X}.view(6, True)",
    "torch.arange(True)", "torch.tensor([[1, 2], [3]])", f"{X}[True]", f"{X}[[[0, 1]]]",
    f"{X}[torch.tensor(0)]", f"{X}.narrow(0, torch.tensor(0), 1)",
]


@pytest.mark.parametrize("expr", LANGUAGE_SUBSET)
def test_language_subset(expr: str) -> None:
    with pytest.raises(ExpressionError) as raised:
        bind_step(parse_expression(expr).steps[-1])
    assert "expected" in str(raised.value)


def test_dims_and_allocation_bounds() -> None:
    ones = ", ".join(["1"] * MAX_DIMS)
    assert len(bound(f"torch.empty(1).view({ones})")["size"]) == MAX_DIMS
    with pytest.raises(ExpressionError):
        bound(f"torch.empty(1).view({ones}, 1)")
    assert bound(f"torch.empty({MAX_ALLOCATED_ELEMENTS})")["size"] == (MAX_ALLOCATED_ELEMENTS,)
    for expr in (f"torch.zeros({MAX_ALLOCATED_ELEMENTS + 1})", "torch.arange(0, 1e300, 1)",
                 "torch.empty(4096, 4096, 2)", "torch.empty_strided((2, 2), (1, 2**40))",
                 "torch.arange(-1e308, 1e308, 1e-300)"):
        with pytest.raises(ExpressionError):
            bound(expr, 0)
    # constructors torch refuses anyway are left to torch's own error
    assert bound("torch.arange(5, 0)", 0)["end"] == 0
    assert bound("torch.empty_strided((2, 3), (-1, 2))", 0)["stride"] == (-1, 2)


# A big input the copy bound would refuse, but torch raises first or makes a view (no copy):
# torch's answer is reported (its error comes before any allocation).
BIG = "torch.zeros(1).expand(33554432)"
BEFORE_THE_COPY_BOUND = [f"{BIG}.reshape(-2)", f"{BIG}.flatten(3)", f"{BIG}.reshape(33554432)",
                         f"{BIG}.view(4, -1).t().reshape(-1)", f"{BIG}.reshape(2, -1)"]


@pytest.mark.torch
@pytest.mark.parametrize("expr", BEFORE_THE_COPY_BOUND)
def test_torch_errors_and_views_come_before_the_copy_bound(expr: str) -> None:
    import torch  # noqa: PLC0415

    x = torch.zeros(1).expand(33554432)
    code = expr.removeprefix(BIG)
    try:
        result = eval("x" + code, {"x": x, "torch": torch})  # noqa: S307 - our own test text
        want = None
        assert result._base is not None  # a view: nothing was copied
    except (RuntimeError, IndexError) as exc:
        want = (type(exc).__name__, str(exc).splitlines()[0])
    error = explain(expr)["error"]
    assert (error and (error["type"], error["message"])) == want


def test_a_real_copy_of_a_big_input_is_still_refused() -> None:
    error = explain(f"{BIG}.contiguous()")["error"]
    assert error["type"] == "ExpressionError" and "would copy" in error["message"]
