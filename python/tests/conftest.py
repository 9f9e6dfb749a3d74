"""Starts the real environment server (``node --import tsx cli/serve.ts``, as ``npm run serve``) on a free loopback port for the tests."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 120.0


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)  # the group this fixture started (the server and its workers)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_server(*args: str, env: dict[str, str] | None = None) -> Server:
    """Starts ``node --import tsx cli/serve.ts --port 0 ARGS`` and waits for its ``listening on`` line."""
    process = subprocess.Popen(
        ["node", "--import", "tsx", "cli/serve.ts", "--port", "0", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    lines: "queue.Queue[str]" = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        line = lines.get(timeout=START_TIMEOUT_S)
    except queue.Empty:
        Server("", process).stop(signal.SIGKILL)
        raise RuntimeError("the server did not start")
    if not line.startswith("listening on "):
        Server("", process).stop(signal.SIGKILL)
        raise RuntimeError(f"unexpected server output: {line!r}")
    return Server(line.split()[2], process)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """The shared server: ESConv and CB, 4 sessions at most, 3 s idle timeout, 64 KiB messages, critic allowed."""
    s = start_server(
        "--task", "esconv,cb", "--max-sessions", "4", "--idle-timeout", "3",
        "--max-message-bytes", "65536", "--allow-critic",
    )
    yield s
    s.stop()
