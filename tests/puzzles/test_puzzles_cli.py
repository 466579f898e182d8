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

    def broken(count: int, **_selection) -> Summary:
        return Summary(checked=1, seconds=0.1, mismatches=[Mismatch("x/junior/0", "[1]", "[2]")])

    monkeypatch.setattr(puzzle_cmd, "verify", broken)
    result = CliRunner().invoke(puzzle, ["--verify"])
    assert result.exit_code == 1 and "MISMATCH x/junior/0" in result.output


def test_verify_checks_only_the_family_level_and_seeds_asked_for(monkeypatch) -> None:
    result = CliRunner().invoke(puzzle, ["--verify", "--count", "2", "tolist"])
    assert result.exit_code == 0, result.output
    levels = next(f["levels"] for f in families() if f["id"] == "tolist")
    assert f"verified {2 * len(levels)} puzzles" in result.output
    result = CliRunner().invoke(
        puzzle, ["--verify", "--count", "3", "tolist", "--level", "junior", "--seed", "40"])
    assert result.exit_code == 0 and "verified 3 puzzles" in result.output, result.output
    asked = []
    monkeypatch.setattr(puzzle_cmd, "verify", lambda count, **selection: asked.append(
        (count, selection)) or Summary(checked=count, seconds=0.1))
    CliRunner().invoke(puzzle, ["--verify", "--level", "senior", "--seed", "9", "--count", "4"])
    assert asked == [(4, {"families": None, "first_seed": 9, "levels": ["senior"]})]


def test_options_that_would_be_ignored_are_usage_errors() -> None:
    runner = CliRunner()
    for args, message in (
            (["--list", "tolist"], "--list takes nothing else"),
            (["tolist", "--count", "5"], "--count is the number of puzzles per level"),
            (["--verify", "--answer"], "--answer is for playing one puzzle"),
            (["--verify", "nope"], "unknown family 'nope'"),
            (["--verify", "tolist", "--level", "principal"], "tolist has no principal level"),
            (["--verify", "--seed", str(2**63 - 1), "--count", "2"], "passes the largest seed")):
        result = runner.invoke(puzzle, args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)
