"""generate() and families(): the documented keys, determinism, levels, validation, purity."""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from puzzles_support import PAIR_IDS, PAIRS, built

from quizapp.puzzles import LEVELS, families, generate, registry
from quizapp.puzzles.distractors import contiguous_strides
from quizapp.puzzles.rng import PuzzleRng

KEYS = {
    "id",
    "family",
    "level",
    "seed",
    "prompt",
    "code",
    "answer_kind",
    "answer",
    "choices",
    "oracle",
    "explanation",
    "hints",
    "concepts",
}
ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(60)


def test_families_catalogue() -> None:
    found = families()
    assert len(found) >= 14
    assert len({f["id"] for f in found}) == len(found)
    concepts = set(yaml.safe_load((ROOT / "content" / "concepts.yaml").read_text()))
    for f in found:
        assert set(f) == {"id", "title", "levels", "concepts"}
        assert f["levels"] and all(level in LEVELS for level in f["levels"])
        assert f["levels"] == sorted(f["levels"], key=LEVELS.index)
        assert f["title"] and f["concepts"], f["id"]
        assert set(f["concepts"]) <= concepts, (
            f"{f['id']}: concepts {sorted(set(f['concepts']) - concepts)} are not in "
            f"content/concepts.yaml")
    per_level = Counter(level for f in found for level in f["levels"])
    assert all(per_level[level] >= 4 for level in LEVELS), per_level


@pytest.mark.parametrize(("family", "level"), PAIRS, ids=PAIR_IDS)
def test_generated_puzzle_shape(family: str, level: str) -> None:
    concepts = set(yaml.safe_load((ROOT / "content" / "concepts.yaml").read_text()))
    seen = set()
    for seed in SEEDS:
        puzzle = generate(family, level, seed)
        assert set(puzzle) == KEYS
        assert puzzle["id"] == f"{family}/{level}/{seed}"
        assert (puzzle["family"], puzzle["level"], puzzle["seed"]) == (family, level, seed)
        assert json.loads(json.dumps(puzzle)) == puzzle
        assert puzzle == built(family, level, seed)[0]
        kind, answer, choices = puzzle["answer_kind"], puzzle["answer"], puzzle["choices"]
        if kind == "tuple":
            assert isinstance(answer, list) and all(type(v) is int for v in answer)
        elif kind == "int":
            assert type(answer) is int
        elif kind == "bool":
            assert type(answer) is bool
        elif kind == "text":
            assert isinstance(answer, str) and answer.startswith("[")
        else:
            assert kind in ("choice", "choices")
            assert 2 <= len(choices) <= 26 and len(set(choices)) == len(choices)
            letters = "abcdefghijklmnopqrstuvwxyz"[: len(choices)]
            picked = [answer] if kind == "choice" else answer
            assert picked and all(a in letters for a in picked) and picked == sorted(set(picked))
            if kind == "choices":
                assert len(picked) < len(choices)
        if kind not in ("choice", "choices"):
            assert choices is None
        assert len(puzzle["hints"]) == 2 and all(h.strip() for h in puzzle["hints"])
        assert puzzle["hints"][0] != puzzle["hints"][1]
        assert "step 0" in puzzle["explanation"] and "**Answer.**" in puzzle["explanation"]
        assert puzzle["code"] in puzzle["oracle"] and "answer" in puzzle["oracle"]
        assert puzzle["concepts"], puzzle["id"]
        assert set(puzzle["concepts"]) <= concepts, (
            f"{puzzle['id']}: concepts {sorted(set(puzzle['concepts']) - concepts)} are not in "
            f"content/concepts.yaml")
        seen.add((puzzle["code"], puzzle["prompt"]))
    assert len(seen) >= len(SEEDS) // 3, "seeds should give different puzzles"


def test_same_request_same_puzzle() -> None:
    first = generate("strides_after", "senior", 12345)
    registry._assembled.cache_clear()  # the second one is built afresh, not read back
    assert generate("strides_after", "senior", 12345) == first


def test_a_generated_puzzle_is_the_callers_own_copy() -> None:
    """Builds are cached per id; changing a returned puzzle must not change the next one."""
    first = generate("strides_after", "senior", 777)
    expected = json.loads(json.dumps(first))
    first["answer"].append(99)
    first["hints"].clear()
    assert generate("strides_after", "senior", 777) == expected
    assert generate("tolist", "junior", 2**63 - 1)["seed"] == 2**63 - 1


def test_random_stream_is_pinned() -> None:
    """Every puzzle id means its draws from this generator: they must never change."""
    rng = PuzzleRng("quizapp/junior/0")
    assert [rng.below(1000) for _ in range(6)] == [65, 433, 387, 10, 883, 225]
    assert rng.next_u64() == 12129190121915772110
    assert sorted(PuzzleRng("k").shuffled(range(8))) == list(range(8))


def test_levels_grow() -> None:
    """Later levels use longer chains (more engine steps in the explanation) or bigger tensors.

    error_raised is left out: its levels differ by which rules are broken, not by size.
    """
    for f in families():
        if len(f["levels"]) < 2 or f["id"] == "error_raised":
            continue
        sizes = []
        for level in f["levels"]:
            puzzles = [generate(f["id"], level, s) for s in range(40)]
            sizes.append(sum(len(p["code"]) + p["explanation"].count("- step") for p in puzzles))
        assert sizes[-1] > sizes[0], (f["id"], sizes)


@pytest.mark.parametrize(
    ("family", "level", "seed", "message"),
    [
        ("nope", "junior", 0, "unknown puzzle family 'nope'"),
        (7, "junior", 0, "unknown puzzle family 7"),
        ("fresh_strides", "expert", 0, "unknown level 'expert'"),
        ("fresh_strides", "principal", 0, "has no principal puzzles"),
        ("fresh_strides", "junior", -1, "between 0 and 2**63-1"),
        ("fresh_strides", "junior", 2**63, "between 0 and 2**63-1"),
        ("fresh_strides", "junior", True, "must be an integer"),
        ("fresh_strides", "junior", "7", "must be an integer"),
        ("fresh_strides", "junior", 7.0, "must be an integer"),
    ],
)
def test_bad_requests(family, level, seed, message) -> None:
    with pytest.raises(ValueError, match=message.replace("*", r"\*")):
        generate(family, level, seed)


def test_puzzles_layer_is_pure() -> None:
    """Module-level imports are the standard library, quizapp.engine and quizapp.puzzles only."""
    allowed = set(sys.stdlib_module_names) | {"quizapp"}
    for path in sorted((ROOT / "quizapp" / "puzzles").glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] in allowed, (path.name, name)
                if name.startswith("quizapp."):
                    assert name.split(".")[1] in ("engine", "puzzles"), (path.name, name)
        if path.name != "verify.py":  # verify imports torch inside its functions, by design
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    modules = (
                        [a.name for a in node.names]
                        if isinstance(node, ast.Import)
                        else [node.module or ""]
                    )
                    assert not any(m.split(".")[0] == "torch" for m in modules), path.name


@pytest.mark.parametrize("level", ["senior", "principal"])
def test_clone_strides_hints_and_explanation_lead_to_the_answer(level):
    """The hint's rule, applied to the x it names, gives the answer (expanded and tied strides
    included), and the explanation names the rules that this x needs."""
    import re

    seen = Counter()
    for seed in range(300):
        puzzle = generate("clone_strides", level, seed)
        shape, stride = (tuple(int(n) for n in re.findall(r"-?\d+", group)) for group in
                         re.search(r"shape (\([^)]*\)) and strides (\([^)]*\))",
                                   puzzle["hints"][1]).groups())
        # The conclusion, after the step-by-step trace (whose clone step states the whole rule).
        answer, text = tuple(puzzle["answer"]), puzzle["explanation"].split("**Answer.**")[1]
        if "x is dense" in text:
            assert answer == stride
            continue
        row_major = list(range(len(shape) - 1, -1, -1))
        movable = iter(sorted((d for d in row_major if stride[d]),
                              key=lambda d: (stride[d], shape[d])))
        order = [d if stride[d] == 0 else next(movable) for d in row_major]
        dense, step = [0] * len(shape), 1
        for d in order:
            dense[d], step = step, step * max(shape[d], 1)
        assert tuple(dense) == answer, (seed, shape, stride)
        assert f"dense strides filled in that order are ({', '.join(map(str, answer))})" in text
        zero, tied = 0 in stride, len({s for s in stride if s}) < len([s for s in stride if s])
        assert ("stride-0 dim" in text) == zero and ("equal strides" in text) == tied
        seen.update({"zero": zero, "tied": tied, "plain": not zero and not tied})
    assert seen["plain"] and (level == "senior" or (seen["zero"] and seen["tied"]))


def test_reshape_alias_hints_for_ravel_follow_contiguity_not_the_view_rule():
    """ravel is contiguous().view(-1): its puzzles' answer is whether x is contiguous, and the
    hint says so (the reshape hint, "a view whenever view() would succeed", misled on it)."""
    import re

    ravels = 0
    for level in ("middle", "senior"):
        for seed in range(400):
            puzzle = generate("reshape_alias", level, seed)
            if ".ravel()" not in puzzle["code"]:
                assert "reshape returns a view" in puzzle["hints"][0] or \
                    "flatten returns a view" in puzzle["hints"][0]
                continue
            ravels += 1
            shape, stride = (tuple(int(n) for n in re.findall(r"-?\d+", group)) for group in
                             re.search(r"shape (\([^)]*\)) and strides (\([^)]*\))",
                                       puzzle["hints"][1]).groups())
            row_major, step = [], 1
            for size in reversed(shape):
                row_major.insert(0, step)
                step *= max(size, 1)
            contiguous = all(a == b for a, b, n in zip(stride, row_major, shape, strict=True)
                             if n != 1)
            assert "contiguous().view(-1)" in puzzle["hints"][0]
            assert puzzle["answer"] is contiguous, (level, seed)
    assert ravels > 20


def test_contiguity_answers_do_not_call_different_strides_equal():
    """"its strides (1, 2) are the row-major strides (1, 1)" read as a contradiction: strides
    are called the row-major ones only when they are, and otherwise said to match them once
    size-1 dims are set aside."""
    said = re.compile(r"its strides (\([^)]*\)) (are|match) the row-major strides .*?"
                      r"for shape (\([^)]*\))")
    seen = Counter()
    for family in ("size_one_contiguity", "contiguous_after"):  # the families that say it
        spec = next(f for f in families() if f["id"] == family)
        for level in spec["levels"]:
            for seed in range(150):
                text = generate(family, level, seed)["explanation"]
                for strides, verb, shape in said.findall(text):
                    equal = ast.literal_eval(strides) == tuple(
                        contiguous_strides(ast.literal_eval(shape)))
                    assert (verb == "are") == equal, (family, level, seed, text)
                    seen[verb] += 1
    assert seen["are"] > 0 and seen["match"] > 0  # both wordings do come up
