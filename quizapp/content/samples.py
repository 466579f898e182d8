"""Run card code samples in one torch worker process and compare what they print."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from quizapp.content.model import Problem

WORKER_PATH = Path(__file__).with_name("sample_worker.py")
SAMPLE_TIME_LIMIT = 10.0  # seconds per sample (content/README.md "Rules")
WORKER_START_LIMIT = 120.0  # importing torch on a cold cache can be slow
EXPECTED_TORCH = "2.13."


class SampleRunnerError(RuntimeError):
    """The worker process could not be started (an environment problem, not a content one)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A card's python block and its recorded output; ``line`` is the ```python fence line."""

    path: str
    line: int
    source: str
    expected: str


@dataclass(frozen=True, slots=True)
class SampleResult:
    """What one run produced: ``error`` is the exception text, ``timed_out`` the time limit hit,
    ``exit_status`` how the worker process ended when the sample ended it (os._exit, a crash)."""

    stdout: str
    error: str | None = None
    error_line: int | None = None
    timed_out: bool = False
    exit_status: int | None = None


class SampleRunner:
    """One worker subprocess that imports torch once; restarted after a timeout or crash."""

    def __init__(self, time_limit: float = SAMPLE_TIME_LIMIT,
                 start_limit: float = WORKER_START_LIMIT) -> None:
        self.time_limit = time_limit
        self.start_limit = start_limit
        self.torch_version: str | None = None
        self._process: subprocess.Popen | None = None
        self._pump: threading.Thread | None = None
        self._replies: queue.Queue = queue.Queue()

    def __enter__(self) -> SampleRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _start(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-P", str(WORKER_PATH)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
        )
        self._replies = queue.Queue()
        self._pump = threading.Thread(target=_pump_lines, args=(self._process.stdout, self._replies),
                                      daemon=True)
        self._pump.start()
        try:
            ready = self._replies.get(timeout=self.start_limit)
        except queue.Empty:
            ready = None
        if ready is None:
            self.close()
            raise SampleRunnerError("the sample worker did not start (can it import torch?)")
        self.torch_version = json.loads(ready)["torch"]

    def run(self, source: str, filename: str = "<sample>") -> SampleResult:
        """Run one sample; a sample over the time limit gets its worker killed."""
        if self._process is None:
            self._start()
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps({"source": source, "filename": filename}) + "\n")
            self._process.stdin.flush()
            reply = self._replies.get(timeout=self.time_limit)
        except queue.Empty:
            self.close()
            return SampleResult(stdout="", timed_out=True)
        except BrokenPipeError:
            reply = None
        if reply is None:
            return SampleResult(stdout="", exit_status=self.close())
        answer = json.loads(reply)
        if answer["restart"]:  # the sample left torch in a state only a new process undoes
            self.close()
        return SampleResult(stdout=answer["stdout"], error=answer["error"],
                            error_line=answer["error_line"])

    def close(self) -> int | None:
        """Stop the worker (if any) and return its exit status."""
        process, self._process = self._process, None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        status = process.wait()
        if self._pump is not None:
            self._pump.join(timeout=5.0)  # it ends at end of stream; join before closing its pipe
            self._pump = None
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass  # a pipe to a killed process may already be broken
        return status


def _pump_lines(stream, replies: queue.Queue) -> None:
    """Move the worker's reply lines into a queue; ``None`` marks end of stream."""
    for line in stream:
        replies.put(line)
    replies.put(None)


def canonicalize_output(text: str) -> list[str]:
    """Lines with trailing white space removed, without trailing blank lines."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def compare_output(actual: str, expected: str) -> str | None:
    """None when the outputs agree, else a message naming the first differing line."""
    got, want = canonicalize_output(actual), canonicalize_output(expected)
    if got == want:
        return None
    for index in range(max(len(got), len(want))):
        have = got[index] if index < len(got) else "<nothing>"
        need = want[index] if index < len(want) else "<nothing>"
        if have != need:
            return (f"printed output differs from the ```output block at output line {index + 1}: "
                    f"expected {need!r}, got {have!r}")
    return "printed output differs from the ```output block"  # unreachable: lists differ


def describe_exit(status: int | None) -> str:
    """How the worker process ended, for a sample that ended it."""
    if status is not None and status < 0:
        return f"the sample ended the worker process (killed by signal {-status})"
    return f"the sample ended the worker process (exit status {status})"


def compute_sample_problem(sample: Sample, result: SampleResult, time_limit: float) -> Problem | None:
    """The problem a run shows (timeout, crash, exception or mismatch), at the fence line."""
    if result.timed_out:
        return Problem(sample.path, sample.line, f"sample did not finish within {time_limit:g} s")
    if result.exit_status is not None:
        return Problem(sample.path, sample.line, describe_exit(result.exit_status))
    if result.error is not None:
        where = f" at sample line {result.error_line}" if result.error_line else ""
        return Problem(sample.path, sample.line, f"sample raised {result.error}{where}")
    message = compare_output(result.stdout, sample.expected)
    return Problem(sample.path, sample.line, message) if message else None


def run_samples(samples: list[Sample], runner: SampleRunner) -> list[Problem]:
    """Run every sample through ``runner`` and collect the problems."""
    problems = []
    for sample in samples:
        result = runner.run(sample.source, filename=f"{sample.path}:python")
        problem = compute_sample_problem(sample, result, runner.time_limit)
        if problem is not None:
            problems.append(problem)
    return problems
