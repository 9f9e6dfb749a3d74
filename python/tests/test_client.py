"""The Python client against the real server: every message type, fork / restore, the limits, typed errors."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import threading
import time

import pytest
from websockets.sync.server import ServerConnection, serve

from conftest import REPO, Server, start_server
from pdl_env import (
    PROTOCOL_VERSION,
    AsyncEnvClient,
    ConnectionLostError,
    EnvClient,
    EnvServerError,
    http_get,
    http_post,
)

HIDDEN = ('"cognitive"', '"changeLog"', '"private"', '"profile"', '"rng"', '"sim_state"', '"critic"')


def no_hidden_state(value: object) -> bool:
    text = json.dumps(value)
    return not any(key in text for key in HIDDEN)


def play(client: EnvClient, turns: int = 40) -> list[float]:
    rewards = []
    for i in range(turns):
        result = client.step(f"Turn {i}: how are you feeling about that?", strategy="Question")
        rewards.append(result.reward)
        assert isinstance(result.user_utterance, str) and result.user_utterance
        assert no_hidden_state(result.observation)
        if result.done:
            return rewards
    raise AssertionError("the episode did not end within the horizon")


def test_http_routes(server: Server) -> None:
    assert http_get(server.url, "/health") == {"status": "healthy"}
    meta = http_get(server.url, "/metadata")
    assert meta["protocol_version"] == PROTOCOL_VERSION
    assert meta["simulator_version"].startswith("cogsim-")
    assert [t["name"] for t in meta["tasks"]] == ["esconv", "cb"]
    schema = http_get(server.url, "/schema")
    assert set(schema) == {"action", "observation", "state"}
    assert "utterance" in schema["action"]["properties"]
    assert http_get(server.url, "/state")["step_count"] == 0
    first = http_post(server.url, "/reset", {"seed": 1, "task": "cb", "index": 0})
    assert first["done"] is False and first["reward"] is None
    nxt = http_post(
        server.url,
        "/step",
        {"action": {"strategy": "inquire", "utterance": "Could you do 80?"}, "checkpoint": first["checkpoint"]},
    )
    assert nxt["observation"]["turn"] == 1 and no_hidden_state(nxt["observation"])
    state = http_post(server.url, "/state", {"checkpoint": nxt["checkpoint"]})
    assert state["step_count"] == 1 and state["task"] == "cb" and no_hidden_state(state)
    with pytest.raises(EnvServerError) as err:
        http_post(server.url, "/step", {"action": {"utterance": "hi"}})
    assert err.value.code == "VALIDATION_ERROR"
    with pytest.raises(EnvServerError) as err:
        http_get(server.url, "/nowhere")
    assert err.value.code == "NOT_FOUND"


def test_websocket_messages(server: Server) -> None:
    with EnvClient(server.url) as client:
        first = client.reset(seed=3, seed_id=None, index=2, episode_id="ep-1")
        assert first.reward is None and first.done is False and first.user_utterance is None
        assert first.observation["task"] == "esconv" and no_hidden_state(first.observation)
        rewards = play(client)
        assert all(r == 0 for r in rewards[:-1])  # CSTPO: the terminal utility comes last
        assert 0.0 <= rewards[-1] <= 1.0
        state = client.state()
        assert state["episode_id"] == "ep-1" and state["step_count"] == len(rewards) and state["done"]
        assert no_hidden_state(state)
        with pytest.raises(EnvServerError) as err:
            client.step("anyone there?")
        assert err.value.code == "SESSION_ERROR"
        ppdpp = client.reset(protocol="ppdpp", seed_id=first.observation["seedId"])
        assert ppdpp.done is False
        step = client.step("What feels hardest right now?", strategy="Question")
        assert step.metadata["turnJudgment"]["labels"] and -1.0 <= float(step.reward or 0) <= 1.0


def test_checkpoint_restore_and_fork(server: Server) -> None:
    with EnvClient(server.url) as client:
        client.reset(seed=5, index=1)
        client.step("That sounds like a lot to carry.", strategy="Reflection of feelings")
        token = client.checkpoint()
        a = client.step("What would help most this week?", strategy="Question")
        restored = client.restore(token)
        assert restored.observation["turn"] == 1
        b = client.step("What would help most this week?", strategy="Question")
        assert (a.user_utterance, a.reward, a.done) == (b.user_utterance, b.reward, b.done)
        client.restore(token)
        with client.fork() as sibling:
            c = sibling.step("What would help most this week?", strategy="Question")
            assert c.user_utterance == a.user_utterance
            assert sibling.state()["step_count"] == 2
        with pytest.raises(EnvServerError) as err:
            client.restore(token[:-6] + "AAAAAA")
        assert err.value.code == "CHECKPOINT_INVALID"


def test_critic_scope_is_explicit(server: Server) -> None:
    with EnvClient(server.url, scope="critic") as critic:
        critic.reset(seed=0)
        step = critic.step("How are you holding up?")
        assert "cognitive" in step.metadata["critic"]["state"]
        assert "cognitive" in critic.state()["sim_state"]
    with EnvClient(server.url) as policy:
        policy.reset(seed=0)
        assert "critic" not in policy.step("How are you holding up?").metadata


def test_bad_messages(server: Server) -> None:
    with EnvClient(server.url) as client:
        ws = client._ws  # raw frames the typed client never sends
        ws.send("{not json")
        assert json.loads(ws.recv(timeout=10))["data"]["code"] == "INVALID_JSON"
        ws.send(json.dumps({"type": "teleport"}))
        assert json.loads(ws.recv(timeout=10))["data"]["code"] == "UNKNOWN_TYPE"
        with pytest.raises(EnvServerError) as err:
            client.reset(sede=1)
        assert err.value.code == "VALIDATION_ERROR"
        with pytest.raises(EnvServerError) as err:
            client.reset(task="p4g")
        assert err.value.code == "UNKNOWN_SEED"
        assert client.reset().done is False  # the session survives its bad messages


def test_version_mismatch_is_refused(server: Server) -> None:
    with EnvClient(server.url, simulator_version="cogsim-000000000000") as client:
        with pytest.raises(EnvServerError) as err:
            client.reset()
        assert err.value.code == "VERSION_MISMATCH"
    with EnvClient(server.url) as client:
        with pytest.raises(EnvServerError) as err:
            client.reset(protocol_version=PROTOCOL_VERSION + 1)
        assert err.value.code == "VERSION_MISMATCH"


def test_refused_session_keeps_its_code_after_the_close(server: Server) -> None:
    # A refused session (close 4409): the error frame's code, then the same code once only the close is left.
    with EnvClient(server.url, simulator_version="cogsim-000000000000") as client:
        for _ in range(2):
            with pytest.raises(EnvServerError) as err:
                client.reset()
            assert err.value.code == "VERSION_MISMATCH"
            assert not isinstance(err.value, ConnectionLostError)

    async def refused_twice() -> list[str]:
        client = await AsyncEnvClient.connect(server.url, simulator_version="cogsim-000000000000")
        codes = []
        for _ in range(2):
            try:
                await client.reset()
            except EnvServerError as err:
                codes.append(err.code)
        await client.close()
        return codes

    assert asyncio.run(refused_twice()) == ["VERSION_MISMATCH", "VERSION_MISMATCH"]


@pytest.mark.parametrize(
    ("reason", "code"),
    [("", "SESSION_REFUSED"), ("SCOPE_FORBIDDEN", "SCOPE_FORBIDDEN"), ("go away", "SESSION_REFUSED")],
)
def test_refusal_without_an_error_frame(reason: str, code: str) -> None:
    # A server that closes with 4409 and sends no error frame: the code the close reason names, else SESSION_REFUSED.
    def refuse(ws: ServerConnection) -> None:
        ws.close(4409, reason)

    with serve(refuse, "127.0.0.1", 0) as fake:
        port = fake.socket.getsockname()[1]
        threading.Thread(target=fake.serve_forever, daemon=True).start()
        with EnvClient(f"http://127.0.0.1:{port}", timeout=10) as client:
            with pytest.raises(EnvServerError) as err:
                client.reset()
        fake.shutdown()
    assert err.value.code == code
    assert err.value.details["close_code"] == 4409
    assert not isinstance(err.value, ConnectionLostError)


def test_session_limit(server: Server) -> None:
    opened: list[EnvClient] = []
    try:
        refused = None
        for _ in range(6):
            client = EnvClient(server.url)
            opened.append(client)
            try:
                client.reset()
            except EnvServerError as err:
                refused = err
                break
        assert refused is not None and refused.code == "CAPACITY_REACHED"
        assert len(opened) <= 5
    finally:
        for client in opened:
            client.close()
    time.sleep(0.3)


def test_idle_timeout(server: Server) -> None:
    with EnvClient(server.url) as client:
        client.reset()
        time.sleep(4.0)
        with pytest.raises(EnvServerError) as err:
            client.step("still there?")
        assert err.value.code == "SESSION_IDLE_TIMEOUT"
        with pytest.raises(ConnectionLostError):  # the code is reported once; the connection stays closed
            client.state()


def test_message_size_bound(server: Server) -> None:
    with EnvClient(server.url) as client:
        client.reset()
        with pytest.raises(EnvServerError) as err:
            client.step("x" * 100_000)
        assert err.value.code == "PAYLOAD_TOO_LARGE"
    with pytest.raises(EnvServerError) as err:
        http_post(server.url, "/reset", {"episode_id": "y" * 100_000})
    assert err.value.code == "PAYLOAD_TOO_LARGE"


def test_calls_after_an_oversized_message_are_connection_closed(server: Server) -> None:
    # The server closes the connection (1009) on an oversized frame: PAYLOAD_TOO_LARGE once, then CONNECTION_CLOSED.
    with EnvClient(server.url) as client:
        client.reset()
        with pytest.raises(EnvServerError) as err:
            client.step("x" * 100_000)
        assert err.value.code == "PAYLOAD_TOO_LARGE"
        for _ in range(2):
            with pytest.raises(ConnectionLostError) as lost:
                client.state()
            assert lost.value.code == "CONNECTION_CLOSED" and "PAYLOAD_TOO_LARGE" in lost.value.message

    async def oversized_then_more() -> list[str]:
        client = await AsyncEnvClient.connect(server.url)
        await client.reset()
        codes = []
        for call in (client.step("x" * 100_000), client.state(), client.reset()):
            try:
                await call
            except EnvServerError as error:
                codes.append(error.code)
        await client.close()
        return codes

    assert asyncio.run(oversized_then_more()) == ["PAYLOAD_TOO_LARGE", "CONNECTION_CLOSED", "CONNECTION_CLOSED"]


def test_server_killed_mid_episode() -> None:
    own = start_server("--task", "esconv")
    try:
        client = EnvClient(own.url, timeout=20)
        client.reset()
        client.step("How have you been?")
        own.stop(signal.SIGKILL)
        started = time.monotonic()
        with pytest.raises(ConnectionLostError):
            client.step("Are you still there?")
        assert time.monotonic() - started < 20
        client.close()
        with pytest.raises(ConnectionLostError):
            EnvClient(own.url, timeout=5)
    finally:
        own.stop(signal.SIGKILL)


def test_token_required_off_loopback() -> None:
    token = "a-long-enough-test-token"
    own = start_server("--task", "cb", "--host", "0.0.0.0", env={"PDL_ENV_TOKEN": token})
    try:
        url = own.url.replace("0.0.0.0", "127.0.0.1")
        with pytest.raises(EnvServerError) as err:
            EnvClient(url)
        assert err.value.code == "UNAUTHORIZED" and token not in str(err.value)
        with EnvClient(url, token=token) as client:
            assert client.reset().done is False
        assert http_get(url, "/metadata", token=token)["tasks"][0]["name"] == "cb"
    finally:
        own.stop()


def test_sigterm_while_two_workers_still_load_their_task_exits_cleanly() -> None:
    # The stop reaches the primary before any worker listens: each worker stops once started, none is left behind.
    process = subprocess.Popen(
        ["node", "--import", "tsx", "cli/serve.ts", "--port", "0", "--task", "esconv", "--workers", "2"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    own = Server("", process)
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith("[serve] started 2 workers")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        own.stop(signal.SIGKILL)


def test_sigterm_with_two_workers_refuses_new_work_and_exits_cleanly() -> None:
    own = start_server("--task", "esconv", "--workers", "2")
    try:
        clients = [EnvClient(own.url, timeout=20) for _ in range(2)]  # one per worker, round robin
        for client in clients:
            client.reset()
            client.step("How have you been?")
        # A token sealed by one worker restores on the other: the workers share the key.
        token = clients[0].checkpoint()
        assert clients[1].restore(token).observation["turn"] == 1
        own.process.send_signal(signal.SIGTERM)  # the primary: it tells each worker to shut down
        assert own.process.wait(timeout=30) == 0
        for client in clients:
            with pytest.raises(EnvServerError) as err:
                client.step("Are you still there?")
            assert err.value.code in ("SHUTTING_DOWN", "CONNECTION_CLOSED")
            client.close()
    finally:
        own.stop(signal.SIGKILL)
