"""The expression language: grammar, normalised step code, bounds and hostile inputs."""

from __future__ import annotations

import pytest

from quizapp.engine.expression import (
    MAX_BRACKET_DEPTH,
    MAX_CHARS,
    MAX_STEPS,
    Chain,
    ExpressionError,
    TorchName,
    parse_expression,
    parse_program,
)
from quizapp.engine.signatures import bind_step


def codes(expr: str) -> list[str]:
    chain = parse_expression(expr)
    assert chain.error is None, chain.error
    return [step.code for step in chain.steps]


def outside(expr: object) -> ExpressionError:
    """The first ExpressionError for ``expr``: whole-input, grammar of a step, or its arguments."""
    try:
        chain = parse_expression(expr)
    except ExpressionError as exc:
        return exc
    for index, step in enumerate(chain.steps):
        try:
            bind_step(step)
        except ExpressionError as exc:
            exc.step = index
            return exc
    assert chain.error is not None, f"{expr!r} was accepted"
    return chain.error


@pytest.mark.parametrize(("expr", "expected"), [
    ("torch.arange(24.)", ["torch.arange(24.0)"]),
    ("torch.arange(24).view(2, 12)", ["torch.arange(24)", ".view(2, 12)"]),
    ("torch . arange( 24 ) .view( 2,12 )", ["torch.arange(24)", ".view(2, 12)"]),
    ("torch.arange(24).view(2, 3, 4)[0, ::2, None, ...].T.mT",
     ["torch.arange(24)", ".view(2, 3, 4)", "[0, ::2, None, ...]", ".T", ".mT"]),
    ("torch.arange(6).split(2, dim=0)[-1]", ["torch.arange(6)", ".split(2, dim=0)[-1]"]),
    ("torch.zeros((2, 3), dtype=torch.float64).contiguous(memory_format=torch.channels_last)",
     ["torch.zeros((2, 3), dtype=torch.float64)",
      ".contiguous(memory_format=torch.channels_last)"]),
    ("torch.arange(6).view_as(torch.empty(3, 2).t())",
     ["torch.arange(6)", ".view_as(torch.empty(3, 2).t())"]),
    ("torch.tensor([[1, 2], [3, 4]])[1:, -1]", ["torch.tensor([[1, 2], [3, 4]])", "[1:, -1]"]),
    ("torch.arange(\n  6\n).view(\n 2, 3)", ["torch.arange(6)", ".view(2, 3)"]),
])
def test_steps_have_normalised_code(expr: str, expected: list[str]) -> None:
    assert codes(expr) == expected


def test_step_kinds_names_and_pick() -> None:
    chain = parse_expression("torch.arange(6).unbind(0)[1][None].T")
    assert [(s.kind, s.name, s.pick) for s in chain.steps] == [
        ("constructor", "arange", None), ("method", "unbind", 1),
        ("index", "__getitem__", None), ("attribute", "T", None)]


def test_literal_values_are_parsed_without_evaluation() -> None:
    step = parse_expression(
        "torch.arange(6)[-2:None:1, ..., None, -9223372036854775808]").steps[1]
    assert step.args == ((slice(-2, None, 1), Ellipsis, None, -(2**63)),)
    ctor = parse_expression("torch.full([2, 3], -1.5, dtype=torch.long)").steps[0]
    assert ctor.args == ([2, 3], -1.5)
    assert ctor.kwargs == (("dtype", TorchName("long")),)
    nested = parse_expression("torch.arange(6).view_as(torch.empty(2, 3))").steps[1].args[0]
    assert isinstance(nested, Chain) and [s.name for s in nested.steps] == ["empty"]


def test_columns_point_at_the_problem() -> None:
    expr = "torch.arange(6).view(2, 3).frobnicate(1)"
    err = outside(expr)
    assert expr[err.column - 1:].startswith(".frobnicate") and err.step == 2
    assert str(err).startswith(f"column {err.column}: expected")
    expr = "torch.arange(6).view(2, 3)[0.5]"
    err = outside(expr)
    assert expr[err.column - 1:].startswith("0.5") or expr[err.column - 1] == "["
    err = outside("torch.arange(6).view(\n  2+1)")
    assert err.column == len("torch.arange(6).view(\n  ") + 1


@pytest.mark.parametrize(("expr", "step"), [
    ("torch.arange(6).view", 1),  # a method must be called
    ("torch.arange(6).T()", 1),  # T is an attribute
    ("torch.arange(6).split(2)", 1),  # a tuple-returning op needs [k]
    ("torch.arange(6).split(2)[0:1]", 1),
    ("torch.arange(6).chunk(2)[True]", 1),
    ("torch.arange(6).view(2, 3).view(2)(3)", 3),
    ("(torch.arange(6))()", 1),
    ("torch.arange(6).view(*[6])", 1),
    ("torch.arange(6).view(**{'size': 6})", 0),  # quotes are refused on the whole text
    ("torch.arange(6).view(x)", 1),
    ("torch.arange(6).view(torch.Size([6]))", 1),
    ("torch.arange(6).view(6).contiguous(memory_format=torch.strided)", 2),
    ("torch.arange(6)[lambda: 0]", 1),
    ("torch.arange(6)[[i for i in (1, 2)]]", 1),
    ("torch.arange(6).view((n := 6))", 1),
    ("torch.arange(6).view(6 if True else 3)", 1),
    ("torch.arange(6).view(--6)", 1),
    ("torch.arange(6).view(-True)", 1),
    ("torch.arange(6).view(1j)", 1),
    ("torch.arange(6).view(1e999)", 1),
])
def test_outside_the_grammar_is_reported_at_its_step(expr: str, step: int) -> None:
    err = outside(expr)
    assert err.step == step
    assert "expected" in err.message


@pytest.mark.parametrize("expr", [
    "x.view(2)", "torch", "torch.arange", "torch.float64", "6",
    "torch.nn.functional.relu(torch.arange(6))", "torch.load(1)", "torch.arange(6) + 1",
    "[torch.arange(6)]", "torch.arange(6) if True else 0", "not torch.arange(6)", "",
    "   ", "torch.arange(6).view(2,", "torch.arange(6)) ",
])
def test_not_a_chain_is_a_whole_input_error(expr: str) -> None:
    err = outside(expr)
    assert err.step == 0 and err.column >= 1


HOSTILE = {
    "dunder attribute": "torch.arange(1).__class__.__bases__[0].__subclasses__()",
    "dunder on torch": "torch.__builtins__",
    "import": "__import__(1).system(2)",
    "getattr": "getattr(torch, 1)",
    "non-whitelisted call": "torch.arange(1).numpy()",
    "method of a method": "torch.arange(1).view.__globals__",
    "huge power": "torch.arange(10**10**10)",
    "power in an index": "torch.arange(5)[2**64]",
    "string": "torch.arange(5).view('size')",
    "f-string": "torch.arange(5).view(f'{1}')",
    "nested brackets": "torch.arange(5).view(" + "(" * 100_000 + ")" * 100_000 + ")",
    "nested lists just inside the length bound": "torch.tensor(" + "[" * 900 + "]" * 900 + ")",
    "megabyte": "torch.arange(5)" + ".t()" * 250_000,
    "deep unary minus": "torch.arange(" + "-" * 1900 + "1)",
    "long attribute chain": "torch.arange(1)" + ".T" * 900,
    "too many steps": "torch.arange(1)" + ".t()" * MAX_STEPS,
    "null byte": "torch.arange(5)\x00",
    "non-ASCII": "torch.arange(5).view(\u0662)",
    "big int literal": "torch.arange(5).view(" + "9" * 1500 + ")",
    "int just past int64": "torch.arange(5).view(9223372036854775808)",
    "not a string": 12345,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_are_expression_errors(name: str) -> None:
    err = outside(HOSTILE[name])
    assert isinstance(err, ExpressionError)
    assert err.message.startswith("expected") or "expected" in err.message


def test_bounds_are_exact() -> None:
    padded = "torch.arange(6)" + " " * (MAX_CHARS - len("torch.arange(6)"))
    assert len(padded) == MAX_CHARS and codes(padded) == ["torch.arange(6)"]
    assert outside(padded + " ").column == MAX_CHARS + 1
    assert len(codes("torch.arange(1)" + ".t()" * (MAX_STEPS - 1))) == MAX_STEPS
    nested = "torch.arange(1).view_as(torch.arange(1)" + ".t()" * (MAX_STEPS - 3) + ")"
    assert len(codes(nested)) == 2  # tensor-argument steps count towards the bound
    assert outside(nested.replace(")", ").t()", 1)).step == 0
    deep = "torch.tensor(" + "[" * (MAX_BRACKET_DEPTH - 1) + "1" + "]" * (MAX_BRACKET_DEPTH - 1) + ")"
    assert len(codes(deep)) == 1
    assert outside(deep.replace("[", "[[", 1).replace("]", "]]", 1)).step == 0
    assert codes("torch.arange(5).view(9223372036854775807)")[1] == ".view(9223372036854775807)"
    assert outside("torch.arange(5).view(-9223372036854775809)").step == 1


@pytest.mark.parametrize("pasted", ["x = torch.randn(4, 6)", "y=torch.arange(6).view(2, 3)",
                                    "  t  =  torch.zeros(2)"])
def test_pasted_code_with_its_assignment_is_told_to_drop_it(pasted: str) -> None:
    """A lone chain (what a tensor argument is) never binds a name: the message says what to
    take away, not "invalid syntax".  As a whole text, such a line is a program of one line."""
    assert parse_program(pasted).lines[0].target == pasted.split("=")[0].strip()
    with pytest.raises(ExpressionError) as raised:
        parse_expression(pasted)
    name = pasted.split("=")[0].strip()
    assert "write the chain itself, without" in str(raised.value) and repr(name)[1:-1] in str(
        raised.value)
    with pytest.raises(ExpressionError) as compared:  # == is no assignment
        parse_expression("x == torch.arange(3)")
    assert "without" not in str(compared.value)


@pytest.mark.parametrize(("query", "column"), [("is_contiguous()", "Contiguous"),
                                               ("stride()", "Stride"), ("storage_offset()", "Offset"),
                                               ("shape", "Shape"), ("dtype", "dtype")])
def test_a_question_the_table_answers_points_at_its_column(query: str, column: str) -> None:
    chain = parse_expression(f"torch.arange(6).view(2, 3).{query}")
    assert len(chain.steps) == 2  # the steps before it still run
    assert f"table's {column} column" in chain.error.message
    assert "expected a supported op" in parse_expression("torch.arange(6).foo()").error.message


@pytest.mark.parametrize("call", ["is_contiguous(memory_format=torch.channels_last)",
                                  "is_contiguous(torch.channels_last)"])
def test_a_memory_format_question_is_not_sent_to_the_row_major_column(call: str) -> None:
    """The Contiguous column is is_contiguous() with no argument: for a channels_last tensor it
    says no where this question's answer is yes."""
    import torch

    chain = parse_expression(f"torch.empty(2, 4, 5, 3).permute(0, 3, 1, 2).{call}")
    assert "is not a column" in chain.error.message
    assert "Contiguous column is the default, row-major contiguity" in chain.error.message
    # The message's own example is right, by torch.
    x = torch.empty(2, 4, 5, 3).permute(0, 3, 1, 2)
    assert (tuple(x.shape), x.stride()) == ((2, 3, 4, 5), (60, 1, 15, 3))
    assert x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous()
    assert "shape (2, 3, 4, 5), strides (60, 1, 15, 3)" in chain.error.message


@pytest.mark.parametrize("fmt", ["torch.contiguous_format", "contiguous_format"])
def test_the_default_format_asked_by_name_is_still_the_contiguous_column(fmt: str) -> None:
    chain = parse_expression(
        f"torch.arange(6).view(2, 3).is_contiguous(memory_format={fmt})")
    assert "table's Contiguous column" in chain.error.message
    assert "is not a column" not in chain.error.message
