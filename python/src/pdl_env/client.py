"""Clients of the environment server (``npm run serve``): one WebSocket session each, OpenEnv's frames.

:class:`EnvClient` is synchronous (TRL's environment_factory, scripts), :class:`AsyncEnvClient` asynchronous
(verl's interactions). Both speak OpenEnv's WebSocket protocol (``reset`` / ``step`` / ``state`` / ``close``) plus
this server's ``checkpoint`` / ``restore``; ``fork()`` opens a sibling session continued from a checkpoint.
Every failure is an :class:`~pdl_env.errors.EnvServerError` with a ``code``; a reply that does not come within
``timeout`` seconds is a ``TIMEOUT``, a server that went away a ``CONNECTION_CLOSED`` — never a hang.

The action is ``{"strategy": label, "utterance": text}``; the observation holds the actor's view, the dialogue
(``history``), public ``events``, ``turn`` / ``remaining``, the user's reply (``userUtterance``) and ``metadata``
(Gymnasium's ``terminated`` / ``truncated``, the judge's ``turnJudgment`` / ``terminal`` verdicts).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Optional
from urllib.parse import urlencode, urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection as SyncConnection
from websockets.sync.client import connect as sync_connect

from .errors import (
    CLOSE_CODE_ERRORS,
    REFUSED_CLOSE_CODE,
    ConnectionLostError,
    EnvServerError,
    ReplyTimeoutError,
)

PROTOCOL_VERSION = 1
"""The protocol version this client speaks; the server refuses another (``VERSION_MISMATCH``)."""


@dataclass
class StepResult:
    """OpenEnv's reset/step reply: the observation, the reward (None after reset) and done."""

    observation: dict[str, Any]
    reward: Optional[float]
    done: bool
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def user_utterance(self) -> Optional[str]:
        """The user's reply to the last action (None after reset)."""
        value = self.observation.get("userUtterance")
        return value if isinstance(value, str) else None

    @staticmethod
    def from_data(data: dict[str, Any]) -> "StepResult":
        observation = dict(data.get("observation") or {})
        reward = data.get("reward")
        return StepResult(
            observation=observation,
            reward=None if reward is None else float(reward),
            done=bool(data.get("done", False)),
            metadata=dict(observation.get("metadata") or {}),
        )


def _ws_url(base_url: str, scope: str, simulator_version: Optional[str]) -> str:
    parts = urlsplit(base_url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    query: dict[str, str] = {"protocol_version": str(PROTOCOL_VERSION)}
    if scope != "policy":
        query["scope"] = scope
    if simulator_version is not None:
        query["simulator_version"] = simulator_version
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/ws", urlencode(query), ""))


def _headers(token: Optional[str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _reply(raw: str | bytes, expected: str) -> dict[str, Any]:
    frame = json.loads(raw)
    if frame.get("type") == "error":
        data = frame.get("data") or {}
        raise EnvServerError(str(data.get("code", "UNKNOWN")), str(data.get("message", "")), data)
    if frame.get("type") != expected:
        raise EnvServerError("PROTOCOL_ERROR", f"expected a {expected} frame, got {frame.get('type')!r}")
    data = frame.get("data")
    return data if isinstance(data, dict) else {}


_ERROR_CODE = re.compile(r"[A-Z][A-Z0-9_]*")


def _lost(err: ConnectionClosed, last: Optional[EnvServerError] = None) -> EnvServerError:
    """The error of a closed connection. ``last``: the last error this session raised (an error frame or a close).

    A close 4409 (the session refused at the upgrade) raises the refusal's code on every call: the error frame's,
    else the close reason's (the server sets it to the code), else ``SESSION_REFUSED``. Another close with a code
    (1001 / 1009 / 1013 / 4408) raises its code once; once that code was raised (by the close or by the error frame
    just before it), later calls raise ``CONNECTION_CLOSED``: the client does not reconnect.
    """
    code = err.rcvd.code if err.rcvd is not None else None
    reason = err.rcvd.reason if err.rcvd is not None else ""
    if code == REFUSED_CLOSE_CODE:
        if last is not None:
            return EnvServerError(last.code, last.message, {**last.details, "close_code": code})
        refused = reason if _ERROR_CODE.fullmatch(reason) else CLOSE_CODE_ERRORS[code]
        said = f" ({reason})" if reason else ""
        return EnvServerError(refused, f"the server refused the session: close {code}{said}", {"close_code": code})
    if code is not None and code in CLOSE_CODE_ERRORS:
        known = CLOSE_CODE_ERRORS[code]
        if last is not None and (last.code == known or isinstance(last, ConnectionLostError)):  # already raised
            return ConnectionLostError(
                f"the connection was closed by the server after the earlier {known} error; "
                "this client does not reconnect: open a new one",
                code,
            )
        return EnvServerError(known, reason or f"connection closed ({code})", {"close_code": code})
    return ConnectionLostError(f"the server closed the connection ({code if code is not None else 'no close frame'})", code)


def _refused(err: InvalidStatus) -> EnvServerError:
    status = err.response.status_code
    try:
        body = json.loads(err.response.body or b"{}")
    except ValueError:
        body = {}
    return EnvServerError(str(body.get("code", f"HTTP_{status}")), str(body.get("message", f"HTTP {status}")))


def _action(strategy: str, utterance: str) -> dict[str, Any]:
    return {"strategy": strategy, "utterance": utterance}


class EnvClient:
    """A synchronous session. Use as a context manager, or call :meth:`close`.

    The connection is never reopened: once the server closed it, a call raises the close's code once (e.g.
    ``PAYLOAD_TOO_LARGE``), then ``CONNECTION_CLOSED``; open a new client to go on.

    Args:
        base_url: the server, e.g. ``http://127.0.0.1:8000``.
        token: the shared token (servers bound off loopback require one).
        scope: ``policy`` (default) or ``critic`` (hidden state; the server must allow it).
        timeout: seconds to wait for the connection and for each reply.
        simulator_version: refuse to run against another simulator version.
    """

    def __init__(
        self,
        base_url: str,
        token: Optional[str] = None,
        scope: str = "policy",
        timeout: float = 60.0,
        simulator_version: Optional[str] = None,
    ) -> None:
        self.base_url = base_url
        self.token = token
        self.scope = scope
        self.timeout = timeout
        self.simulator_version = simulator_version
        # The last error raised from the server (an error frame or a close): a session refused at the upgrade
        # (close 4409) raises its code again; after another close's code, later calls raise CONNECTION_CLOSED.
        self._error: Optional[EnvServerError] = None
        try:
            # Entered at once: the connection lives as long as this client (closed by `close`).
            self._ws: SyncConnection = sync_connect(
                _ws_url(base_url, scope, simulator_version),
                additional_headers=_headers(token),
                open_timeout=timeout,
                max_size=None,
            ).__enter__()
        except InvalidStatus as err:
            raise _refused(err) from err
        except (OSError, TimeoutError, InvalidHandshake) as err:
            raise ConnectionLostError(f"cannot connect to {base_url}: {err}") from err

    def _ask(self, frame: dict[str, Any], expected: str) -> dict[str, Any]:
        try:
            self._ws.send(json.dumps(frame))
        except ConnectionClosed:
            pass  # a reply (an error frame) may still be buffered: read it below
        try:
            raw = self._ws.recv(timeout=self.timeout)
        except ConnectionClosed as err:
            self._error = _lost(err, self._error)
            raise self._error from err
        except TimeoutError as err:
            raise ReplyTimeoutError(f"no reply to {frame['type']} within {self.timeout} s") from err
        try:
            return _reply(raw, expected)
        except EnvServerError as err:
            self._error = err
            raise

    def reset(self, **params: Any) -> StepResult:
        """Start an episode: ``seed`` (the run's rng seed), ``task``, ``seed_id``, ``repeat`` or ``index``,
        ``protocol``, ``episode_id``, or ``checkpoint`` (a fork)."""
        data = {k: v for k, v in params.items() if v is not None}
        return StepResult.from_data(self._ask({"type": "reset", "data": data}, "observation"))

    def step(self, utterance: str, strategy: str = "") -> StepResult:
        """Say one actor turn; returns the user's reply, the reward and done."""
        return StepResult.from_data(self._ask({"type": "step", "data": _action(strategy, utterance)}, "observation"))

    def state(self) -> dict[str, Any]:
        """OpenEnv's state: episode_id, step_count, the episode key (and sim_state in the critic scope)."""
        return self._ask({"type": "state"}, "state")

    def checkpoint(self) -> str:
        """A sealed token of the whole episode state (opaque; valid on every worker of this server run)."""
        return str(self._ask({"type": "checkpoint"}, "checkpoint")["checkpoint"])

    def restore(self, checkpoint: str) -> StepResult:
        """Continue this session from a checkpoint token."""
        return StepResult.from_data(
            self._ask({"type": "restore", "data": {"checkpoint": checkpoint}}, "observation")
        )

    def fork(self) -> "EnvClient":
        """A new session (its own connection) continued from this session's current state."""
        token = self.checkpoint()
        other = EnvClient(self.base_url, self.token, self.scope, self.timeout, self.simulator_version)
        other.reset(checkpoint=token)
        return other

    def close(self) -> None:
        """Send OpenEnv's ``close`` frame and close the connection (never raises)."""
        try:
            self._ws.send(json.dumps({"type": "close"}))
        except ConnectionClosed:
            pass
        self._ws.close()

    def __enter__(self) -> "EnvClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncEnvClient:
    """An asynchronous session; create with ``await AsyncEnvClient.connect(...)`` (same arguments as
    :class:`EnvClient`)."""

    def __init__(self, ws: AsyncConnection, base_url: str, token: Optional[str], scope: str, timeout: float) -> None:
        self._ws = ws
        self.base_url = base_url
        self.token = token
        self.scope = scope
        self.timeout = timeout
        self._error: Optional[EnvServerError] = None  # as EnvClient's

    @classmethod
    async def connect(
        cls,
        base_url: str,
        token: Optional[str] = None,
        scope: str = "policy",
        timeout: float = 60.0,
        simulator_version: Optional[str] = None,
    ) -> "AsyncEnvClient":
        try:
            ws = await async_connect(
                _ws_url(base_url, scope, simulator_version),
                additional_headers=_headers(token),
                open_timeout=timeout,
                max_size=None,
            )
        except InvalidStatus as err:
            raise _refused(err) from err
        except (OSError, TimeoutError, InvalidHandshake) as err:
            raise ConnectionLostError(f"cannot connect to {base_url}: {err}") from err
        return cls(ws, base_url, token, scope, timeout)

    async def _ask(self, frame: dict[str, Any], expected: str) -> dict[str, Any]:
        import asyncio

        try:
            await self._ws.send(json.dumps(frame))
        except ConnectionClosed:
            pass
        try:
            raw = await asyncio.wait_for(self._ws.recv(), timeout=self.timeout)
        except ConnectionClosed as err:
            self._error = _lost(err, self._error)
            raise self._error from err
        except asyncio.TimeoutError as err:
            raise ReplyTimeoutError(f"no reply to {frame['type']} within {self.timeout} s") from err
        try:
            return _reply(raw, expected)
        except EnvServerError as err:
            self._error = err
            raise

    async def reset(self, **params: Any) -> StepResult:
        """As :meth:`EnvClient.reset`."""
        data = {k: v for k, v in params.items() if v is not None}
        return StepResult.from_data(await self._ask({"type": "reset", "data": data}, "observation"))

    async def step(self, utterance: str, strategy: str = "") -> StepResult:
        """As :meth:`EnvClient.step`."""
        return StepResult.from_data(
            await self._ask({"type": "step", "data": _action(strategy, utterance)}, "observation")
        )

    async def state(self) -> dict[str, Any]:
        """As :meth:`EnvClient.state`."""
        return await self._ask({"type": "state"}, "state")

    async def checkpoint(self) -> str:
        """As :meth:`EnvClient.checkpoint`."""
        return str((await self._ask({"type": "checkpoint"}, "checkpoint"))["checkpoint"])

    async def restore(self, checkpoint: str) -> StepResult:
        """As :meth:`EnvClient.restore`."""
        return StepResult.from_data(
            await self._ask({"type": "restore", "data": {"checkpoint": checkpoint}}, "observation")
        )

    async def close(self) -> None:
        """Send ``close`` and close the connection (never raises)."""
        try:
            await self._ws.send(json.dumps({"type": "close"}))
        except ConnectionClosed:
            pass
        await self._ws.close()


def http_get(base_url: str, route: str, token: Optional[str] = None, timeout: float = 30.0) -> dict[str, Any]:
    """GET one of the HTTP routes (``/health``, ``/metadata``, ``/schema``, ``/state``) as JSON.

    Raises:
        EnvServerError: with the server's code for an error reply; ``CONNECTION_CLOSED`` when unreachable.
    """
    return _http(base_url, route, None, token, timeout)


def http_post(
    base_url: str, route: str, body: dict[str, Any], token: Optional[str] = None, timeout: float = 60.0
) -> dict[str, Any]:
    """POST to ``/reset``, ``/step`` or ``/state`` (stateless: send back the reply's ``checkpoint``)."""
    return _http(base_url, route, body, token, timeout)


def _http(
    base_url: str, route: str, body: Optional[dict[str, Any]], token: Optional[str], timeout: float
) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(
        base_url.rstrip("/") + route,
        data=data,
        method="GET" if body is None else "POST",
        headers={"content-type": "application/json", "x-protocol-version": str(PROTOCOL_VERSION), **_headers(token)},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (caller's URL)
            return dict(json.loads(response.read()))
    except urllib.error.HTTPError as err:
        try:
            payload = json.loads(err.read() or b"{}")
        except ValueError:
            payload = {}
        raise EnvServerError(str(payload.get("code", f"HTTP_{err.code}")), str(payload.get("message", err.reason)), payload) from err
    except (urllib.error.URLError, OSError) as err:
        raise ConnectionLostError(f"cannot reach {base_url}: {err}") from err
