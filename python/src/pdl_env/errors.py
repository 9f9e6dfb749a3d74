"""Typed errors of the environment client.

Every failure a trainer sees is an :class:`EnvServerError` with a stable ``code``: the server's own codes
(``VALIDATION_ERROR``, ``CAPACITY_REACHED``, ``VERSION_MISMATCH``, ``SESSION_ERROR``, ``CHECKPOINT_INVALID``,
``SHUTTING_DOWN``, ``SESSION_IDLE_TIMEOUT``, ``UNAUTHORIZED``, …) or the client's (``CONNECTION_CLOSED`` when the
server went away, ``TIMEOUT`` when it did not answer in time, ``SESSION_REFUSED`` for a close 4409 that names no
code).
"""

from __future__ import annotations

from typing import Any, Optional


class EnvServerError(Exception):
    """An error reply of the server, or a transport failure, with its stable ``code``."""

    def __init__(self, code: str, message: str, details: Optional[dict[str, Any]] = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}


class ConnectionLostError(EnvServerError):
    """The connection closed before the reply came (server killed, restarted, or the network broke), or a call
    came after the server had closed it on an earlier error (the client does not reconnect).

    ``close_code`` is the WebSocket close code when one was received (1006: no close frame at all).
    """

    def __init__(self, message: str, close_code: Optional[int] = None) -> None:
        super().__init__("CONNECTION_CLOSED", message, {"close_code": close_code})
        self.close_code = close_code


class ReplyTimeoutError(EnvServerError):
    """No reply within the client's timeout."""

    def __init__(self, message: str) -> None:
        super().__init__("TIMEOUT", message)


REFUSED_CLOSE_CODE = 4409
"""The close code of a session refused at the upgrade (``VERSION_MISMATCH``, ``SCOPE_FORBIDDEN``, a bad scope's
``VALIDATION_ERROR``, ``SHUTTING_DOWN``): the error frame sent just before it, and the close reason, name the code."""

# WebSocket close codes the server uses, and the error code each stands for. For 4409 that is the fallback when
# neither the error frame before the close nor its reason names the refusal's own code.
CLOSE_CODE_ERRORS: dict[int, str] = {
    1001: "SHUTTING_DOWN",
    1009: "PAYLOAD_TOO_LARGE",
    1013: "CAPACITY_REACHED",
    4408: "SESSION_IDLE_TIMEOUT",
    REFUSED_CLOSE_CODE: "SESSION_REFUSED",
}
