"""A TRL ``environment_factory`` class over the environment server (GRPOTrainer's multi-turn environments).

TRL builds one instance per rollout, calls ``reset(**row)`` with the dataset row's columns (its return, the
dialogue so far, is appended to the prompt), exposes the public methods with docstrings as tools the model calls,
and scores the rollout with reward functions that receive the ``environments``. Here the one tool is
:meth:`CogSimTrlEnv.say` — one dialogue turn — and :func:`get_reward` returns each environment's task return.

Server address: ``PDL_ENV_URL`` (default ``http://127.0.0.1:8000``); token: ``PDL_ENV_TOKEN`` when set.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from .client import EnvClient, StepResult
from .errors import EnvServerError

_RESET_KEYS = ("seed_id", "repeat", "index", "task", "seed", "protocol", "episode_id")


class CogSimTrlEnv:
    """One Cog-Sim session per rollout; the tool ``say`` plays one actor turn."""

    def __init__(self, url: Optional[str] = None, token: Optional[str] = None, timeout: float = 120.0) -> None:
        self.url = url or os.environ.get("PDL_ENV_URL", "http://127.0.0.1:8000")
        self.token = token if token is not None else os.environ.get("PDL_ENV_TOKEN")
        self.timeout = timeout
        self._client: Optional[EnvClient] = None
        self.reward = 0.0
        self.done = False
        self.last: Optional[StepResult] = None

    def reset(self, **kwargs: Any) -> str:
        """Starts the row's episode (columns seed_id / repeat / index / task / seed / protocol); returns the
        dialogue so far as text."""
        if self._client is not None:
            self._client.close()
        self._client = EnvClient(self.url, token=self.token, timeout=self.timeout)
        params = {k: v for k, v in kwargs.items() if k in _RESET_KEYS and v is not None}
        self.last = self._client.reset(**params)
        self.reward = 0.0
        self.done = False
        lines = [f"{t['speaker']}: {t['text']}" for t in self.last.observation.get("history") or []]
        view = self.last.observation.get("actorView") or {}
        return f"You are the {view.get('role', 'actor')}. Goal: {view.get('goal', '')}\n" + "\n".join(lines)

    def say(self, utterance: str, strategy: str = "") -> str:
        """Say one turn to the user and hear the reply.

        Args:
            utterance: what you say to the user in this turn.
            strategy: the dialogue strategy this turn uses (a label of the task, e.g. Question), or empty; a
                label the task lacks is dropped, and the reply says so.

        Returns:
            The user's reply, or a note that the conversation has ended.
        """
        if self.done:
            return "The conversation has ended."
        if self._client is None:
            raise ValueError("reset() first")
        note = ""
        try:
            self.last = self._client.step(utterance, strategy=strategy)
        except EnvServerError as error:
            # The model named a strategy the task lacks: the server refused the step and changed nothing. The turn
            # is played without a label (the user never reads labels) and the tool result says so, so the model
            # can learn the task's labels instead of the rollout failing.
            if error.code != "ENV_ACTION_INVALID" or not strategy:
                raise
            self.last = self._client.step(utterance, strategy="")
            note = f'\n(Note: "{strategy}" is not a strategy of this task; the turn was played without one.)'
        self.reward += float(self.last.reward or 0.0)
        self.done = self.last.done
        reply = (self.last.user_utterance or "") + note
        if self.done:
            self._client.close()
            self._client = None
            return f"{reply}\n(The conversation has ended.)"
        return reply


def get_reward(environments: list[CogSimTrlEnv], **kwargs: Any) -> list[float]:
    """TRL reward function: each rollout's task return (CSTPO: terminal utility; PPDPP: sum of turn rewards)."""
    return [env.reward for env in environments]
