"""The sample runner: one torch worker, fresh namespaces, output comparison, time limits."""

from __future__ import annotations

import pytest
from content_fixtures import card_text, line_of

from quizapp.content import check_bank
from quizapp.content.samples import (
    Sample,
    SampleRunner,
    canonicalize_output,
    compare_output,
    run_samples,
)

pytestmark = pytest.mark.torch


@pytest.fixture(scope="module")
def runner():
    with SampleRunner(time_limit=10.0) as shared:
        yield shared


def test_runs_torch_code_and_captures_stdout(runner):
    result = runner.run("import torch\nprint(torch.ones(2, 3).t().stride())")
    assert (result.stdout, result.error, result.timed_out) == ("(1, 3)\n", None, False)
    assert runner.torch_version.startswith("2.13.")


def test_the_worker_pays_for_torchs_tracing_imports_before_the_first_sample():
    """The first TorchDispatchMode imports torch._dynamo and sympy (seconds on a busy machine):
    a new worker has done it at start, so it does not count against a sample's time limit."""
    with SampleRunner() as fresh:
        assert fresh.run("import sys\nprint('torch._dynamo' in sys.modules)").stdout == "True\n"


def test_each_sample_gets_a_fresh_namespace(runner):
    assert runner.run("leftover = 41\nprint(leftover + 1)").stdout == "42\n"
    result = runner.run("print(leftover)")
    assert result.error == "NameError: name 'leftover' is not defined"
    assert result.error_line == 1


def test_global_state_is_reset_between_samples(runner):
    draw = "import torch\nprint(torch.rand(3).tolist())"
    first = runner.run(draw).stdout
    runner.run("import torch\ntorch.rand(100)\ntorch.set_printoptions(precision=1)")
    assert runner.run(draw).stdout == first
    assert runner.run("import torch\nprint(torch.tensor([1/3]))").stdout == "tensor([0.3333])\n"


def test_numpy_state_is_reset_between_samples(runner):
    """numpy's global generator, print options and error handling start the same every sample."""
    draw = ("import numpy as np\nprint(np.random.rand(2).tolist(), np.array([1 / 3]), "
            "np.geterr()['divide'])")
    first = runner.run(draw).stdout
    runner.run("import numpy as np\nnp.random.rand(50)\nnp.set_printoptions(precision=2)\n"
               "np.seterr(all='raise')")
    assert runner.run(draw).stdout == first
    assert "[0.33333333] warn" in first


def test_default_device_dtype_and_print_options_do_not_leak(runner):
    samples = [
        Sample("first.md", 3, "import torch\ntorch.set_default_device('meta')\n"
                              "torch.set_default_dtype(torch.float64)\n"
                              "torch.set_printoptions(precision=1, linewidth=20, sci_mode=True)\n"
                              "print('ok')", "ok"),
        Sample("second.md", 5, "import torch\nx = torch.arange(4) / 3\nprint(x.device, x.dtype)\n"
                               "print(x)\nprint(x.tolist()[1])",
               "cpu torch.float32\ntensor([0.0000, 0.3333, 0.6667, 1.0000])\n0.3333333432674408"),
    ]
    assert run_samples(samples, runner) == []


def test_other_torch_switches_do_not_leak(runner):
    probe = ("import torch\nprint(torch.is_grad_enabled(), torch.are_deterministic_algorithms_enabled(),"
             " torch.is_anomaly_enabled(), torch.get_float32_matmul_precision(),"
             " torch.get_num_threads())")
    fresh = runner.run(probe).stdout
    other_threads = 2 if fresh.split()[-1] == "1" else 1
    runner.run("import torch\ntorch.set_grad_enabled(False)\ntorch.use_deterministic_algorithms(True)\n"
               "torch.autograd.set_detect_anomaly(True)\ntorch.set_float32_matmul_precision('medium')\n"
               f"torch.set_num_threads({other_threads})")
    assert runner.run(probe).stdout == fresh


def test_modes_entered_by_hand_get_a_fresh_worker(runner):
    probe = "import torch\nx = torch.ones(2) / 3\nprint(x.device, x.dtype, torch.is_inference_mode_enabled())"
    fresh = runner.run(probe).stdout
    result = runner.run("import torch\ntorch.device('meta').__enter__()\n"
                        "torch.autocast('cpu').__enter__()\ntorch.inference_mode().__enter__()")
    assert (result.error, result.exit_status) == (None, None)
    assert runner.run(probe).stdout == fresh == "cpu torch.float32 False\n"


def test_environment_directory_and_import_path_do_not_leak(runner):
    probe = "import os, sys\nprint(os.environ.get('QUIZAPP_PROBE'), os.getcwd(), sys.path[-1])"
    fresh = runner.run(probe).stdout
    result = runner.run("import os, sys\nos.environ['QUIZAPP_PROBE'] = 'set'\nos.chdir('/')\n"
                        "sys.path.append('/nowhere')")
    assert (result.error, result.exit_status) == (None, None)
    assert runner.run(probe).stdout == fresh
    assert fresh.split()[0] == "None" and "/nowhere" not in fresh


def test_exception_reports_type_message_and_sample_line(runner):
    result = runner.run("x = 1\ny = 2\nprint(x / (y - 2))")
    assert result.error == "ZeroDivisionError: division by zero"
    assert result.error_line == 3


def test_system_exit_and_stray_fd_writes_do_not_break_the_worker(runner):
    assert runner.run("raise SystemExit(3)").error == "SystemExit: 3"
    assert runner.run("import os\nos.write(1, b'not protocol\\n')\nprint('ok')").stdout == "ok\n"
    assert runner.run("print(input.__name__)").stdout == "input\n"


def test_warnings_and_stderr_are_not_part_of_the_output(runner):
    noisy = "import sys, warnings\nwarnings.warn('careful')\nprint('err', file=sys.stderr)\nprint(1)"
    assert runner.run(noisy) == runner.run("print(1)")


def test_crashing_the_worker_is_an_error_not_a_hang(runner):
    result = runner.run("import os\nos._exit(7)")
    assert (result.exit_status, result.stdout, result.timed_out) == (7, "", False)
    assert runner.run("print('back')").stdout == "back\n"


def test_ending_the_worker_is_reported_in_plain_words(runner):
    samples = [Sample("exits.md", 4, "import os\nos._exit(7)", "7"),
               Sample("crashes.md", 6, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", "")]
    assert [str(problem) for problem in run_samples(samples, runner)] == [
        "exits.md:4: the sample ended the worker process (exit status 7)",
        "crashes.md:6: the sample ended the worker process (killed by signal 9)",
    ]


def test_output_comparison_ignores_trailing_whitespace_only():
    assert compare_output("a  \nb\n\n", "a\nb") is None
    assert canonicalize_output("x \n\n\n") == ["x"]
    assert compare_output(" a\n", "a") is not None
    message = compare_output("1\n2\n", "1\n3")
    assert message is not None and "output line 2" in message and "'3'" in message
    assert "<nothing>" in compare_output("1\n", "1\n2")


def test_run_samples_reports_each_failure_at_the_fence_line(runner):
    samples = [
        Sample("ok.md", 10, "print(6)", "6"),
        Sample("mismatch.md", 11, "print(6)", "7"),
        Sample("raises.md", 12, "print(1)\n[][0]", "1"),
    ]
    problems = run_samples(samples, runner)
    assert [(p.path, p.line) for p in problems] == [("mismatch.md", 11), ("raises.md", 12)]
    assert "expected '7', got '6'" in problems[0].message
    assert "IndexError: list index out of range at sample line 2" in problems[1].message


def test_check_bank_runs_samples_of_valid_cards(bank, runner):
    good = card_text("good-card")
    wrong = card_text("wrong-output").replace("(3, 1)\n```", "(1, 3)\n```")
    root = bank({"good-card.md": good, "wrong-output.md": wrong})
    report = check_bank(root, runner=runner)
    assert (report.files, report.cards, report.samples_run) == (2, 2, 2)
    (problem,) = report.problems
    assert problem.path.endswith("wrong-output.md")
    assert problem.line == line_of(wrong, "```python")
    assert "expected '(1, 3)', got '(3, 1)'" in problem.message
    assert check_bank(root, run=False).problems == ()


def test_timeout_is_reported_and_the_worker_restarted(bank):
    slow = card_text("slow-card").replace("import torch\n", "import time\ntime.sleep(30)\n")
    root = bank({"slow-card.md": slow})
    with SampleRunner(time_limit=1.0) as short:
        (problem,) = check_bank(root, runner=short).problems
        assert short.run("print('after')").stdout == "after\n"
    assert problem.message == "sample did not finish within 1 s"
    assert problem.line == line_of(slow, "```python")
    assert problem.path.endswith("slow-card.md")
