"""Worker process for the sample runner: imports torch once, then runs one sample per request.

Protocol (one JSON object per line): the worker first answers ``{"ready": true, "torch": ...}``;
each request ``{"source": ..., "filename": ...}`` gets ``{"stdout", "error", "error_line",
"restart"}``.
The samples are the repository's own card files (content/cards/*.md), never user input.
This file is run by path (``python -P sample_worker.py``) so it imports nothing from quizapp.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
import traceback
import warnings


def open_protocol_streams() -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    """Keep private copies of stdin/stdout for the protocol; a sample's stray fd writes go to stderr."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return requests, replies


def reset_global_state(torch, threads: int) -> None:
    """Give every sample the same starting point whatever ran before it in this process.

    content/README.md "How samples run": seeds, print options, default device and dtype, grad
    mode and the other process-wide torch switches a sample can flip; ``threads`` is the
    worker's initial torch thread count (float reductions may depend on it).
    """
    torch.manual_seed(0)
    random.seed(0)
    reset_numpy_state()
    torch.set_printoptions(profile="default", sci_mode=None)
    torch.set_default_device(None)  # None drops the global device context: back to cpu
    torch.set_default_dtype(torch.float32)
    torch.set_grad_enabled(True)
    if torch.are_deterministic_algorithms_enabled():  # the call costs a second even when off
        torch.use_deterministic_algorithms(False)
    torch.autograd.set_detect_anomaly(False)
    torch.set_float32_matmul_precision("highest")
    torch.set_flush_denormal(False)
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


# NumPy's print options and floating-point error handling as the worker found them (main fills
# it in once numpy is imported); a sample may change both, or draw from numpy's global generator.
NUMPY_DEFAULTS: dict = {}


def reset_numpy_state() -> None:
    """Seed numpy's global generator with 0 and put back its print options and error handling."""
    numpy = sys.modules.get("numpy")
    if numpy is None or not NUMPY_DEFAULTS:
        return
    numpy.random.seed(0)
    numpy.set_printoptions(**NUMPY_DEFAULTS["print"])
    numpy.seterr(**NUMPY_DEFAULTS["err"])


def snapshot_process_state() -> tuple[dict[str, str], str, list[str]]:
    """What a sample could change in the process outside torch: the environment, the working
    directory and the import path."""
    return dict(os.environ), os.getcwd(), list(sys.path)


def restore_process_state(process_state: tuple[dict[str, str], str, list[str]]) -> None:
    """Put back the environment, directory and import path taken before the first sample (torch
    sets a variable or two of its own when first needed; it sets them again when it needs them)."""
    environ, cwd, path = process_state
    if os.environ != environ:
        os.environ.clear()
        os.environ.update(environ)
    if os.getcwd() != cwd:
        os.chdir(cwd)
    if sys.path != path:
        sys.path[:] = path


def compute_needs_restart(torch, threads: int, process_state: tuple) -> bool:
    """Reset after a sample; True when it left state no reset undoes, so the worker is replaced.

    That is a ``torch.device(...)``, autocast or other mode entered by hand and never exited
    (the reset leaves no mode of its own on torch's function mode stack) or inference mode; a
    directory that no longer exists counts too. The environment, working directory and import
    path are put back as they were (``process_state``, taken before the first sample).
    """
    try:
        restore_process_state(process_state)
        reset_global_state(torch, threads)
        # A private call (torch is pinned at 2.13); should a later torch drop it, the worker is
        # replaced after each sample instead of failing every one.
        return (torch._C._len_torch_function_stack() > 0 or torch.is_inference_mode_enabled()
                or torch.is_autocast_enabled("cpu"))
    except Exception:  # noqa: BLE001 - whatever torch refuses to reset, a new process fixes
        return True


def run_sample(torch, source: str, filename: str, threads: int, process_state: tuple) -> dict:
    """Execute ``source`` in a fresh namespace, capturing what it prints.

    ``restart`` in the reply asks the runner to replace this worker before the next sample.
    """
    reset_global_state(torch, threads)
    captured, discarded = io.StringIO(), io.StringIO()  # stderr (warnings) is not compared
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    error, error_line = None, None
    try:
        code = compile(source, filename, "exec")
        with (contextlib.redirect_stdout(captured), contextlib.redirect_stderr(discarded),
              warnings.catch_warnings()):
            exec(code, namespace)  # the repo's own sample, see the module docstring
    except BaseException as exc:  # noqa: BLE001 - a sample may raise anything, SystemExit too
        error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        frames = traceback.extract_tb(exc.__traceback__)
        error_line = next((f.lineno for f in reversed(frames) if f.filename == filename), None)
        if isinstance(exc, SyntaxError):
            error_line = exc.lineno
    return {"stdout": captured.getvalue(), "error": error, "error_line": error_line,
            "restart": compute_needs_restart(torch, threads, process_state)}


def main() -> None:
    requests, replies = open_protocol_streams()
    # Imported once, after the protocol streams are safe from anything torch may print.
    import numpy  # samples about torch's NumPy interop may import it (torch imports it anyway)
    import torch

    # The first dispatch or function mode (a sample's TorchDispatchMode), torch.compile or
    # export imports torch._dynamo and sympy: about 800 modules, 2 s on a quiet machine and 8 s
    # on a busy one. Paid here, under the start limit, not inside one sample's time limit.
    import torch._dynamo  # noqa: F401

    NUMPY_DEFAULTS.update(print=numpy.get_printoptions(), err=numpy.geterr())

    def send(message: dict) -> None:
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    threads, process_state = torch.get_num_threads(), snapshot_process_state()
    send({"ready": True, "torch": torch.__version__})
    for line in requests:
        request = json.loads(line)
        send(run_sample(torch, request["source"], request["filename"], threads, process_state))
    sys.exit(0)


if __name__ == "__main__":
    main()
