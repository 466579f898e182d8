"""The hand-written chain reader against the ast walk it stands in for, on generated and
hostile texts: whatever the reader reads, the ast walk reads to the very same Chain (values,
code, columns, picks); whatever it leaves, parse_expression still gives the ast walk's answer."""

from __future__ import annotations

import random
import re

import pytest
import torch
from expr_chains import ChainGenerator
from expr_programs import ProgramGenerator
from test_expression import HOSTILE

from quizapp.engine.chain_reader import read_chain
from quizapp.engine.expression import (
    _READER_NAMES,
    Chain,
    ExpressionError,
    parse_expression,
    parse_program,
    parse_with_ast,
    validate_text,
)

MASK = re.compile(r"[<>=!]=|[<>]")  # a comparison: a mask index, read by the ast walk
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # Python's, about 1if

# Spellings where Python's reading and a hand-written one could part: numbers, signs, spaces,
# parentheses, keywords, trailing commas, ends of text.  Each is tried alone after a chain.
TRICKY = [
    "torch.arange(007)", "torch.arange(00)", "torch.arange(0)", "torch.arange(1_0)",
    "torch.arange(0x10)", "torch.arange(1e999)", "torch.arange(-1e999)", "torch.arange(1e5)",
    "torch.arange(1.e2)", "torch.arange(.5)", "torch.arange(5.)", "torch.arange(1j)",
    "torch.arange(1if 1 else 2)", "torch.arange(9223372036854775807)",
    "torch.arange(9223372036854775808)", "torch.arange(-9223372036854775808)",
    "torch.arange(-9223372036854775809)", "torch.arange(- 5)", "torch.arange(+5)",
    "torch.arange(--5)", "torch.arange(-(5))", "torch.arange((5))", "torch.arange((5,))",
    "torch.arange(-0)", "torch.arange(-0.0)", "torch.arange(6).view(((2, 3)))",
    "torch.full((2,), (1.5))", "torch.zeros(2, dtype=(torch.float64))", "torch.arange(6).view((2), 3)",
    "torch.arange(6).view((2, 3),)", "torch.arange(6).view(2, 3,)", "torch.arange(6).view(,)",
    "torch.arange(6).view(2,, 3)", "torch.arange(6).view(2 3)", "torch.arange(6).view( 2 , 3 )",
    "torch.arange(6).view(size=(2, 3), size=(3, 2))", "torch.arange(6).view(if=1)",
    "torch.arange(6).view(None=1)", "torch.arange(6).view(size=(2, 3), 1)",
    "torch.arange(6).view(2=3)", "torch.arange(6).view(*(2, 3))", " torch.arange(6)",
    "torch.arange(6) ", "torch.arange(6)\n", "\ntorch.arange(6)", "torch.arange(6)\t.t()",
    "torch .arange( 6 ) .view( 2,3 )", "torch.arange(6). t()", "torch.arange(6).T()",
    "torch.arange(6).t", "torch.arange(6).view", "torch.arange(6).view[0]",
    "torch.arange(6)(1)", "torch.arange(6)[0](1)", "torch.arange(6).split(2)",
    "torch.arange(6).split(2)[True]", "torch.arange(6).split(2)[1.0]",
    "torch.arange(6).split(2)[-1]", "torch.arange(6).split(2)[+1]", "torch.arange(6).split(2)[0:1]",
    "torch.arange(6).split(2)[0, 1]", "torch.arange(6).split(2)[(0)]", "torch.arange(6)[...]",
    "torch.arange(6)[..., ...]", "torch.arange(6)[....]", "torch.arange(6)[. . .]",
    "torch.arange(6)[::]", "torch.arange(6)[:]", "torch.arange(6)[::2]", "torch.arange(6)[1:]",
    "torch.arange(6)[:-1:]", "torch.arange(6)[1:2:3:4]", "torch.arange(6)[None:2]",
    "torch.arange(6)[1.:]", "torch.arange(6)[True:]", "torch.arange(6)[()]",
    "torch.arange(6)[(0, 1)]", "torch.arange(6)[(0, 1),]", "torch.arange(6)[0,]",
    "torch.arange(6)[(0:1)]", "torch.arange(6)[]", "torch.arange(6)[[0, 2]]",
    "torch.arange(6)[torch.arange(2)]", "torch.arange(6) [0]", "torch.arange(6)[ 0 ]",
    "torch.zeros(2, dtype=torch.float64)", "torch.zeros(2, dtype=torch.float64.T)",
    "torch.zeros(2, dtype=torch.nope)", "torch.zeros(2, dtype=torch.complex64)",
    "torch.zeros(2, dtype=torch)", "torch.zeros(2).to(memory_format=torch.channels_last)",
    "torch.flip(torch.arange(3), 0)", "torch.arange(6).flip(0)", "torch.arange(6).flip((0,))",
    "torch.tensor([[1, 2], [3, 4]])", "torch.tensor([[1, 2], [3]])", "torch.tensor([])",
    "torch.tensor([1,])", "torch.tensor([(1, 2)])", "torch.tensor(((1, 2),))",
    "torch.arange(6).view_as(torch.empty(3, 2).t())", "torch.arange(6).view_as(torch.empty)",
    "torch.arange(6).view_as(torch.empty(3, 2).t()[0])", "torch.arange(6).view_as(x)",
    "x = torch.arange(6)\nx.t()", "torch.arange(6); torch.arange(3)", "torch.arange(6) # note",
    "torch.arange(6).view(2, 3) .T .mT [0] [None, ...]", "torch.arange(True)",
    "torch.arange(6).view(True, 3)", "torch.arange(6).view((True, 3))", "torch.arange(None)",
    "torch.arange(6).narrow(0, start=1, length=2)", "torch.arange(6).narrow(dim=0, start=1, 2)",
]


def described(chain: Chain) -> tuple:
    """A chain's steps and its error's words, place and step (errors compare by identity)."""
    error = chain.error
    return chain.steps, None if error is None else (str(error), error.step, error.why)


def assert_same_reading(text: str) -> bool:
    """Whether the reader read ``text``; fails if its Chain is not the ast walk's, or if
    parse_expression / parse_program then answer differently from the ast walk."""
    try:
        validate_text(text)
    except ExpressionError:
        return False
    read = read_chain(text, _READER_NAMES)
    try:
        walked = parse_with_ast(text)
    except ExpressionError as exc:
        assert read is None, f"the reader read what the ast walk refuses ({exc}): {text!r}"
        with pytest.raises(ExpressionError) as again:
            parse_expression(text)
        assert (str(again.value), again.value.step) == (str(exc), exc.step), text
        return False
    if read is None:
        assert described(parse_expression(text)) == described(walked), text
        return False
    assert walked.error is None, f"the reader read a chain with an error: {text!r}"
    assert read == walked, f"{text!r}\n  reader {read}\n  ast    {walked}"
    assert [step.column for step in read.steps] == [step.column for step in walked.steps]
    assert parse_expression(text) == walked
    assert parse_program(text).lines[0].chain == walked
    return True


def mutations(text: str, rng: random.Random) -> list[str]:
    """Hostile neighbours of a valid chain: cut, with a character or word put in, with a
    piece taken out."""
    alphabet = [*"()[]{},.:=-+*/ ~@!#$%^&|<>?;\n\t\\", "...", "torch", "None", "True", "1e999",
                "0x10", "1_0", "1j", "if", "not ", "**", " for x in y", "007", "(2)", "x"]
    out = []
    for _ in range(4):
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        out += [text[:i], text[:i] + rng.choice(alphabet) + text[i:], text[:i] + text[j:],
                text[:i] + text[i + 1:]]
    return out


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_spellings_read_as_python_reads_them(text: str) -> None:
    assert_same_reading(text)


@pytest.mark.parametrize("name", sorted(k for k, v in HOSTILE.items() if isinstance(v, str)))
def test_hostile_texts_are_left_to_the_ast_walk(name: str) -> None:
    assert not assert_same_reading(HOSTILE[name])


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(2))
def test_generated_chains_and_their_mutations_read_alike(seed: int) -> None:
    rng = random.Random(1000 + seed)
    chains = ChainGenerator(random.Random(seed + 50), torch)
    programs = ProgramGenerator(random.Random(seed + 60), torch)
    read, left = 0, []
    for _ in range(1500):
        text = chains.chain()
        was_read = assert_same_reading(text)
        read += was_read
        if not was_read and not MASK.search(text):  # masks (x > 3) are the ast walk's
            try:
                if parse_with_ast(text).error is None:
                    left.append(text)
            except ExpressionError:
                pass
        for mutated in mutations(text, rng):
            assert_same_reading(mutated)
    for _ in range(200):
        program, lone = programs.program()
        for text in (program, lone or "", *mutations(program, rng)):
            assert_same_reading(text)
    # the reader takes every generated chain the language accepts whole but those with a
    # mask (the fast path is the common path), and leaves those with an error for the ast
    # walk to word
    assert not left, f"{len(left)} error-free generated chains were left to the ast walk: {left}"
    assert read > 1000
