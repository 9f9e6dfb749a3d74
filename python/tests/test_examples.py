"""The example scripts (python/examples), run as a user runs them: a bad option exits 2 at parsing, a Parquet
output without pandas/pyarrow is one line before connecting (exit 2), and a server error (none listening, an
unknown task) is one line ``PROG: CODE: message`` on stderr with exit 1, never a traceback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from conftest import Server

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MAKE_DATASET = EXAMPLES / "verl" / "make_dataset.py"
GRPO_COGSIM = EXAMPLES / "trl" / "grpo_cogsim.py"


def closed_url() -> str:
    """The URL of a loopback port nothing listens on (bound for a free number, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def run(script: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120, env=env
    )


def one_line(stderr: str, prefix: str) -> None:
    assert "Traceback" not in stderr
    assert stderr.startswith(prefix), stderr
    assert stderr.count("\n") == 1, stderr


def test_make_dataset_refuses_episodes_below_one(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    for bad in ("-1", "0", "x"):
        r = run(MAKE_DATASET, "--episodes", bad, "--url", closed_url(), "--out", str(out))
        assert r.returncode == 2, r.stderr
        assert "argument --episodes: must be an integer ≥ 1" in r.stderr
        assert "Traceback" not in r.stderr
    assert not out.exists()


def test_make_dataset_parquet_without_pandas_is_one_line_before_connecting(tmp_path: Path) -> None:
    stub = tmp_path / "stub"
    stub.mkdir()
    (stub / "pandas.py").write_text("raise ModuleNotFoundError(\"No module named 'pandas'\", name='pandas')\n")
    env = {"PYTHONPATH": str(stub), "PATH": "/usr/bin:/bin"}
    out = tmp_path / "d.parquet"
    # Nothing listens at the URL: exit 2 (not the server error's 1) shows the check came first.
    r = run(MAKE_DATASET, "--episodes", "2", "--url", closed_url(), "--out", str(out), env=env)
    assert r.returncode == 2, r.stderr
    one_line(r.stderr, "make_dataset: a Parquet output needs pandas: pip install pandas pyarrow")
    assert f"--out {tmp_path / 'd.jsonl'}" in r.stderr
    assert not out.exists()


def test_make_dataset_refuses_an_out_folder_or_a_missing_folder_before_connecting(tmp_path: Path) -> None:
    # Nothing listens at the URL: exit 2 (not the server error's 1) shows the check came first.
    folder = run(MAKE_DATASET, "--episodes", "2", "--url", closed_url(), "--out", str(tmp_path))
    assert folder.returncode == 2, folder.stderr
    one_line(folder.stderr, f"make_dataset: --out {tmp_path} is a folder: give the name of a file in it")
    missing = tmp_path / "no" / "d.jsonl"
    r = run(MAKE_DATASET, "--episodes", "2", "--url", closed_url(), "--out", str(missing))
    assert r.returncode == 2, r.stderr
    one_line(r.stderr, f"make_dataset: --out {missing}: the folder {tmp_path / 'no'} does not exist")
    assert not (tmp_path / "no").exists()


def test_make_dataset_without_server_is_one_line(tmp_path: Path) -> None:
    url = closed_url()
    out = tmp_path / "d.jsonl"
    r = run(MAKE_DATASET, "--episodes", "2", "--url", url, "--out", str(out))
    assert r.returncode == 1
    one_line(r.stderr, f"make_dataset: CONNECTION_CLOSED: cannot connect to {url}")
    assert r.stdout == ""
    assert not out.exists()


def test_make_dataset_server_error_is_one_line_and_rows_are_written(server: Server, tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    bad = run(MAKE_DATASET, "--episodes", "2", "--task", "nope", "--url", server.url, "--out", str(out))
    assert bad.returncode == 1
    one_line(bad.stderr, "make_dataset: ")
    assert bad.stderr.split(": ")[1].isupper(), bad.stderr  # the error's code
    assert not out.exists()
    good = run(MAKE_DATASET, "--episodes", "2", "--task", "cb", "--url", server.url, "--out", str(out))
    assert good.returncode == 0, good.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["extra_info"]["index"] for r in rows] == [0, 1]
    assert good.stdout == f"2 rows written to {out}\n"


def test_grpo_cogsim_without_server_is_one_line_and_refuses_episodes_below_one() -> None:
    url = closed_url()
    r = run(GRPO_COGSIM, "--model", "none", env={"PDL_ENV_URL": url, "PATH": "/usr/bin:/bin"})
    assert r.returncode == 1
    one_line(r.stderr, f"grpo_cogsim: CONNECTION_CLOSED: cannot reach {url}")
    bad = run(GRPO_COGSIM, "--model", "none", "--episodes", "0")
    assert bad.returncode == 2
    assert "argument --episodes: must be an integer ≥ 1" in bad.stderr


def test_grpo_cogsim_without_trl_or_datasets_is_one_line(server: Server, tmp_path: Path) -> None:
    stub = tmp_path / "stub"
    stub.mkdir()
    (stub / "datasets.py").write_text("raise ModuleNotFoundError(\"No module named 'datasets'\", name='datasets')\n")
    env = {"PDL_ENV_URL": server.url, "PYTHONPATH": str(stub), "PATH": "/usr/bin:/bin"}
    r = run(GRPO_COGSIM, "--model", "none", env=env)
    assert r.returncode == 2
    one_line(r.stderr, 'grpo_cogsim: this example needs datasets: pip install "trl[vllm]" datasets')
