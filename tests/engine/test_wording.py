"""Refusals and `why` sentences that must read right: what the explorer leaves out is said to be
the explorer's limit (not a torch rule), offending values are named, dims are the tensor's own,
counts agree with their nouns."""

from __future__ import annotations

import re

import pytest
from test_expression import outside

from quizapp.engine import explain
from quizapp.engine.dtypes import DTYPE_ALIASES, DTYPES, UNSUPPORTED_DTYPE_NAMES
from quizapp.engine.expression import ExpressionError
from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.tensor import TorchError

X = "torch.arange(24).view(2, 3, 4)"


def refusal(expr: str) -> ExpressionError:
    err = outside(expr)
    assert isinstance(err, ExpressionError)
    doc = explain(expr)  # the document says the same, at the same step
    assert doc["error"]["type"] == "ExpressionError"
    assert doc["error"]["message"] == str(err) and doc["error"]["step"] == err.step
    return err


def at_column(expr: str, err: ExpressionError) -> str:
    return expr[err.column - 1:]


# --- several '...' in one index: modelled while torch reads sizes it stores ---

PAST_STORAGE = "[" + ", ".join(["..."] * 6) + ", 0]"  # dim 12 of a 3-d tensor: slot 12 of 10


@pytest.mark.parametrize("index", ["[..., ...]", "[0, ..., ...]", "[..., 0, ...]"])
def test_several_ellipses_are_modelled(index: str) -> None:
    doc = explain(X + index)
    assert doc["error"] is None, doc["error"]


def test_a_read_past_the_size_storage_is_refused_with_its_reason() -> None:
    error = explain(X + PAST_STORAGE)["error"]
    assert error["type"] == "ExpressionError" and error["step"] == 2
    assert "torch would read the size of dim 12 of a 3-d tensor, past the sizes and strides" \
        in error["message"]
    assert "not defined" in error["why"]


@pytest.mark.torch
def test_torch_reads_zeros_past_the_dims_of_a_small_tensor() -> None:
    """The model checked, not assumed: sizes read past the dims (inline slots) are 0, and
    slots 5-9 hold the strides."""
    import torch  # noqa: PLC0415

    x = torch.arange(24).view(2, 3, 4)
    assert x[..., ...].shape == (2, 3, 4)
    with pytest.raises(IndexError, match="for dimension 2 with size 0"):
        x[..., ..., 0]
    assert x[..., ..., 0:1].shape == (2, 3, 4)  # length 0 <= stop: applySlice returns self
    y = torch.arange(8).view(2, 4)  # 5 "..." push dim 5: stride slot 0 (4), so index 3 passes
    with pytest.raises(IndexError, match="Dimension out of range"):
        y[..., ..., ..., ..., ..., 3]


# --- dtypes the explorer does not model (dtype views of the others run: test_dtype_views) ---

@pytest.mark.parametrize("call", [".view(torch.complex64)", ".view(dtype=torch.uint16)"])
def test_a_dtype_view_to_an_unsupported_dtype_is_refused_naming_it(call: str) -> None:
    expr = "torch.arange(6)" + call
    err = refusal(expr)
    assert err.step == 1
    assert "is a torch dtype the explorer does not support" in err.message
    assert at_column(expr, err).startswith(call[len(".view("):])


@pytest.mark.parametrize(("expr", "name"), [
    ("torch.zeros(2, 3, dtype=torch.complex64)", "complex64"),
    ("torch.arange(6, dtype=torch.uint16)", "uint16"),
])
def test_an_unsupported_dtype_is_named_with_the_supported_ones(expr: str, name: str) -> None:
    err = refusal(expr)
    assert f"torch.{name} is a torch dtype the explorer does not support" in err.message
    for supported in DTYPES:
        assert f"torch.{supported}," in err.message
    assert at_column(expr, err).startswith(f"dtype=torch.{name}")


def test_an_unsupported_dtype_in_a_tensor_argument() -> None:
    expr = "torch.arange(6).view_as(torch.empty(6, dtype=torch.cfloat))"
    error = explain(expr)["error"]
    assert (error["type"], error["step"]) == ("ExpressionError", 1)
    assert "torch.cfloat is a torch dtype the explorer does not support" in error["message"]


def test_a_name_that_is_no_dtype_keeps_the_generic_refusal() -> None:
    err = refusal("torch.arange(6).contiguous(memory_format=torch.strided)")
    assert "expected a dtype or memory format such as torch.float64, got torch.strided" in (
        err.message)


@pytest.mark.torch
def test_the_unsupported_dtype_table_is_torchs() -> None:
    import torch  # noqa: PLC0415

    names = {n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype)}
    assert UNSUPPORTED_DTYPE_NAMES == names - set(DTYPES) - set(DTYPE_ALIASES)
    for expr in ("torch.arange(6).view(torch.int32)", "torch.arange(6).view(dtype=torch.int8)"):
        assert eval(expr, {"torch": torch}).dtype in (torch.int32, torch.int8)  # noqa: S307
    assert torch.zeros(2, 3, dtype=torch.complex64).shape == (2, 3)


# --- arguments of the wrong type: the value, its type and its position ---

@pytest.mark.parametrize(("call", "named", "points_at"), [
    (".view(2.0, 3)", "argument 'size' must be a tuple of integers, got 2.0 (a float) at "
                      "position 0", "2.0"),
    (".view(2, 3.5)", "argument 'size' must be a tuple of integers, got 3.5 (a float) at "
                      "position 1", "3.5"),
    (".view((2, 3.5))", "got 3.5 (a float) at position 1", "(2, 3.5)"),
    (".view(2, 3).permute(0, 1.0)", "argument 'dims' must be a tuple of integers, got 1.0 "
                                    "(a float) at position 1", "1.0"),
    (".view(6, True)", "got True (a bool) at position 1, and the explorer takes only integers "
                       "here", "True"),
    ("[True]", "expected an index of integers, slices, None, ..., lists of integers or of "
               "True/False, or a comparison such as x > 3, got True (a bool)", "True"),
    (".view(6, (1,))", "got (1,) (a tuple) at position 1", "(1,)"),
    (".view((6,), 1)", "takes at most 1 positional argument, got 2", "1)"),
])
def test_a_wrong_argument_is_named(call: str, named: str, points_at: str) -> None:
    expr = "torch.arange(6)" + call
    err = refusal(expr)
    assert named in err.message
    assert at_column(expr, err).startswith(points_at)


# --- an index out of range: torch's message verbatim, the why names the tensor's dim ---

@pytest.mark.parametrize(("index", "message", "why"), [
    ("[..., 9]", "index 9 is out of bounds for dimension 1 with size 4",
     "for the tensor's dim 2 (size 4): torch's message says dimension 1 because it numbers the "
     "entries of the index, but counted after the '...' (which stands for 2 dims) that entry is "
     "the tensor's dim 2"),
    ("[None, 5]", "index 5 is out of bounds for dimension 1 with size 2",
     "for the tensor's dim 0 (size 2): torch's message says dimension 1 because it numbers the "
     "entries of the index, but counted without the None entries"),
    ("[0, 5]", "index 5 is out of bounds for dimension 1 with size 3",
     "index 5 is outside -3..2 for the tensor's dim 1 (size 3)"),
    ("[0, ..., 9]", "index 9 is out of bounds for dimension 2 with size 4",
     "index 9 is outside -4..3 for the tensor's dim 2 (size 4)"),
])
def test_index_out_of_range_names_the_tensors_dim(index: str, message: str, why: str) -> None:
    error = explain(X + index)["error"]
    assert (error["type"], error["message"]) == ("IndexError", message)
    assert why in error["why"]
    if "after" not in why and "without" not in why:
        assert "torch's message" not in error["why"]  # nothing to untangle


# --- contiguous(memory_format=torch.preserve_format): raises only when it must copy ---

def test_preserve_format_contiguous_says_when_it_raises() -> None:
    error = explain(X + ".transpose(0, 1).contiguous(memory_format=torch.preserve_format)")["error"]
    assert error["message"] == "preserve memory format is unsupported by the contiguous operator"
    assert error["why"].startswith("with preserve_format, contiguous() raises only when it would "
                                   "have to copy")
    assert "strides (4, 12, 1) are not row-major for shape (3, 2, 4)" in error["why"]
    assert "needs a concrete target layout" not in error["why"]
    same = explain(X + ".contiguous(memory_format=torch.preserve_format)")
    assert same["error"] is None and same["steps"][-1]["storage"] == 0


# --- reshape/flatten that alias say they did ---

@pytest.mark.parametrize(("expr", "start"), [
    (X + ".reshape(6, 4)", "reshape needed no copy, so it returned a view: view keeps storage"),
    (X + ".flatten()", "flatten needed no copy, so it returned a view: view keeps storage"),
    (X + ".flatten(1)", "flatten needed no copy, so it returned a view: view keeps storage"),
])
def test_an_aliasing_reshape_says_it_aliased(expr: str, start: str) -> None:
    step = explain(expr)["steps"][-1]
    assert step["is_view"] and step["storage"] == 0
    assert step["why"].startswith(start) and "could" not in step["why"]
    copied = explain(X + ".transpose(0, 2).reshape(24)")["steps"][-1]
    assert copied["why"].startswith("reshape had to copy")


# --- counts agree with their nouns ---

PLURAL_OF_ONE = re.compile(r"(?<![\d.*-])1 (entries|windows|views|elements|bytes|sizes|strides|"
                           r"sources|destinations|items|positional arguments|int64 elements)\b")


@pytest.mark.parametrize(("expr", "says"), [
    ("torch.arange(6).narrow(0, 2, 1)", "narrow keeps 1 entry of dim 0"),
    ("torch.arange(6).view(2, 3).unfold(1, 3, 1)", ": 1 window, window stride 1"),
    ("torch.arange(6).view(2, 3).split(2)[0]", "split gives 1 view of at most 2"),
    ("torch.arange(6).view(2, 3).split(2)[0]", "and [0] picks that one"),
    ("torch.arange(6).view(1, 6).unbind()[0]", "unbind gives 1 view,"),
    ("torch.arange(6).chunk(1)[0]", "which makes 1 view"),
    ("torch.arange(6).view(1, 6).diagonal()", "1 entry from offset 0"),
    ("torch.arange(1)", "1 int64 element in a new 1-d storage"),
    ("torch.empty(1, dtype=torch.bool)", "a new storage of 1 byte with"),
    ("torch.arange(1).view(1)", "dim 0 (1 element) forms"),
    ("torch.arange(7).tensor_split(3)[0]", "so the first one is one longer"),
    ("torch.arange(6).tensor_split(3)[0]", "so every piece has 2"),
    ("torch.arange(6).view(2, 3).expand(3)", "1 size for a 2-d tensor"),
    ("torch.arange(6).movedim((0,), (0, 0))", "1 source but 2 destinations"),
    ("torch.arange(6).as_strided((6,), (1, 1))", "1 size, 2 strides"),
    ("torch.empty_strided((6,), (1, 1))", "1 size, 2 strides"),
    ("torch.tensor(5)[(0,)]", "1 int/slice indexes a 0-d tensor"),
    ("torch.arange(6).narrow(0, 6, 1)", "entry 6 runs past the end of dim 0 (size 6)"),
    ("torch.arange(6).view(1, 1, 1, 1, 1, 7)", "holds 7 elements while"),
    ("torch.empty(1).as_strided((2,), (1,))", "past the storage's 4 bytes"),
])
def test_counts_agree_with_their_nouns(expr: str, says: str) -> None:
    doc = explain(expr)
    texts = [step["why"] for step in doc["steps"]]
    if doc["error"] is not None:
        texts.append(doc["error"]["why"])
    assert any(says in text for text in texts), texts
    for text in texts:
        assert not PLURAL_OF_ONE.search(text), text


def test_ragged_data_counts_its_items() -> None:
    """The language refuses ragged lists before the op layer sees them; the op layer's own
    why (used directly) must read right too."""
    with pytest.raises(TorchError) as raised:
        CONSTRUCTORS["tensor"](data=[[1], [2, 3]])
    assert "has 1 item, so every list there must" in raised.value.why
