"""Client and trainer adapters for the proactive-dialogue-lab environment server (``npm run serve``).

- :class:`EnvClient` / :class:`AsyncEnvClient`: OpenEnv-protocol sessions (reset / step / state / close,
  plus checkpoint / restore / fork), typed errors (:class:`EnvServerError` with a ``code``).
- :class:`CogSimInteraction` (``pdl_env.verl_interaction``): a verl ``BaseInteraction``.
- :class:`CogSimTrlEnv` and :func:`get_reward` (``pdl_env.trl_env``): a TRL ``environment_factory``.
"""

from .chat import observation_to_messages, parse_turn, system_prompt
from .client import PROTOCOL_VERSION, AsyncEnvClient, EnvClient, StepResult, http_get, http_post
from .errors import ConnectionLostError, EnvServerError, ReplyTimeoutError
from .trl_env import CogSimTrlEnv, get_reward

__all__ = [
    "PROTOCOL_VERSION",
    "AsyncEnvClient",
    "CogSimTrlEnv",
    "ConnectionLostError",
    "EnvClient",
    "EnvServerError",
    "ReplyTimeoutError",
    "StepResult",
    "get_reward",
    "http_get",
    "http_post",
    "observation_to_messages",
    "parse_turn",
    "system_prompt",
]
