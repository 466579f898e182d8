"""`quizapp puzzle`: --list, playing a puzzle from stdin, --answer, --verify and bad input."""

from __future__ import annotations

from click.testing import CliRunner

from quizapp.cli import puzzle_cmd
from quizapp.cli.puzzle_cmd import puzzle
from quizapp.puzzles import families, generate
from quizapp.puzzles.rendering import fmt_answer
from quizapp.puzzles.verify import Mismatch, Summary


def test_list_names_every_family() -> None:
    result = CliRunner().invoke(puzzle, ["--list"])
    assert result.exit_code == 0
    for f in families():
        assert f["id"] in result.output and f["title"] in result.output


def test_play_reads_the_answer_from_stdin() -> None:
    data = generate("fresh_strides", "junior", 7)
    typed = fmt_answer(data["answer_kind"], data["answer"])
    result = CliRunner().invoke(
        puzzle, ["fresh_strides", "--level", "junior", "--seed", "7"], input=typed + "\n"
    )
    assert result.exit_code == 0, result.output
    assert data["prompt"].splitlines()[0] in result.output and data["code"] in result.output
    assert "correct" in result.output and "Correct." in result.output


def test_play_retries_unreadable_answers_then_judges() -> None:
    result = CliRunner().invoke(
        puzzle, ["fresh_strides", "--level", "junior", "--seed", "7"], input="strides?\n(999, 1)\n"
    )
    assert result.exit_code == 0, result.output
    assert "Expected integers" in result.output and "wrong" in result.output


def test_answer_flag_prints_answer_explanation_and_oracle() -> None:
    data = generate("error_raised", "principal", 4)
    result = CliRunner().invoke(
        puzzle, ["error_raised", "--level", "principal", "--seed", "4", "--answer"]
    )
    assert result.exit_code == 0
    assert f"Answer: {data['answer']}" in result.output
    assert data["oracle"].strip() in result.output and "**Answer.**" in result.output


def test_bad_requests_are_usage_errors() -> None:
    runner = CliRunner()
    assert "unknown family 'nope'" in runner.invoke(puzzle, ["nope"]).output
    out = runner.invoke(puzzle, ["tolist", "--level", "principal", "--seed", "1"])
    assert out.exit_code == 2 and "has no principal puzzles" in out.output
    assert runner.invoke(puzzle, ["tolist", "--seed", "-1"]).exit_code == 2
    assert runner.invoke(puzzle, []).exit_code == 2


def test_verify_summary_line_and_exit_status(monkeypatch) -> None:
    result = CliRunner().invoke(puzzle, ["--verify", "--count", "1"])
    assert result.exit_code == 0, result.output
    pairs = sum(len(f["levels"]) for f in families())
    assert f"verified {pairs} puzzles" in result.output and "0 mismatches" in result.output

    def broken(count: int) -> Summary:
        return Summary(checked=1, seconds=0.1, mismatches=[Mismatch("x/junior/0", "[1]", "[2]")])

    monkeypatch.setattr(puzzle_cmd, "verify", broken)
    result = CliRunner().invoke(puzzle, ["--verify"])
    assert result.exit_code == 1 and "MISMATCH x/junior/0" in result.output
