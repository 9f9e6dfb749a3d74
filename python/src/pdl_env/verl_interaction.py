"""A verl ``BaseInteraction`` over the environment server: the primary route for training the actor LLM with
verl's multi-turn rollout (SGLang / vLLM), which calls an interaction after every assistant turn.

Matched against ``verl/interactions/base.py`` of verl 0.7.1 (PyPI; the module is absent from 0.8 and 0.9):
``start_interaction(instance_id, **kwargs) -> str``, ``generate_response(instance_id, messages, **kwargs) ->
(should_terminate_sequence, response_content, current_turn_score, additional_data)``,
``calculate_score(instance_id, **kwargs) -> float``, ``finalize_interaction(instance_id, **kwargs) -> None``.

Config (the ``config:`` block of the interaction YAML, see examples/verl/cogsim_interaction.yaml): ``url``
(default ``http://127.0.0.1:8000``), ``token_env`` (environment variable with the server token), ``task``,
``protocol`` (``cstpo`` | ``ppdpp``), ``rng_seed``, ``timeout``. Per trajectory, the dataset row's
``extra_info.interaction_kwargs`` reach ``start_interaction``: ``seed_id`` and ``repeat``, or ``index``, and
optionally ``task`` / ``seed`` / ``protocol``. An assistant turn's leading ``[Label]`` is its strategy; a label the
task lacks is dropped (the turn is played without one, ``info["strategy_refused"]`` names it). The score of a turn
is the environment's reward for it (CSTPO: 0, then the terminal utility; PPDPP: the per-turn critic reward);
``calculate_score`` is the return so far.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional
from uuid import uuid4

from .chat import last_assistant, parse_turn
from .client import AsyncEnvClient, StepResult
from .errors import EnvServerError

try:  # verl's own base class when verl is importable (it needs torch); the same contract otherwise.
    from verl.interactions.base import BaseInteraction
except ImportError:  # pragma: no cover - exercised where verl is absent

    class BaseInteraction:  # type: ignore[no-redef]
        """Stand-in with verl 0.7.1's constructor, for use without verl installed."""

        def __init__(self, config: dict[str, Any]):
            self.config = config
            self.name: str = config.get("name", "interaction_agent")


@dataclass
class _Episode:
    client: AsyncEnvClient
    last: StepResult
    total: float = 0.0


class CogSimInteraction(BaseInteraction):  # type: ignore[misc, unused-ignore]  # untyped without verl
    """One environment session per trajectory (``instance_id``); the simulated user's reply is the response."""

    def __init__(self, config: dict[str, Any]):
        super().__init__(config)
        self.url: str = str(config.get("url", "http://127.0.0.1:8000"))
        token_env = config.get("token_env")
        self.token: Optional[str] = os.environ.get(str(token_env)) if token_env else None
        self.defaults: dict[str, Any] = {
            k: config[k] for k in ("task", "protocol") if config.get(k) is not None
        }
        if config.get("rng_seed") is not None:
            self.defaults["seed"] = int(config["rng_seed"])
        self.timeout = float(config.get("timeout", 120.0))
        self._episodes: dict[str, _Episode] = {}

    async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
        """Opens a session and resets it to the trajectory's episode (kwargs: seed_id, repeat, index, task, seed,
        protocol)."""
        if instance_id is None:
            instance_id = str(uuid4())
        keys = ("seed_id", "repeat", "index", "task", "seed", "protocol", "episode_id")
        params = {**self.defaults, **{k: v for k, v in kwargs.items() if k in keys and v is not None}}
        client = await AsyncEnvClient.connect(self.url, token=self.token, timeout=self.timeout)
        try:
            first = await client.reset(**params)
        except Exception:
            await client.close()
            raise
        self._episodes[instance_id] = _Episode(client, first)
        return instance_id

    def first_observation(self, instance_id: str) -> dict[str, Any]:
        """The observation after reset (to build the trajectory's prompt, see ``pdl_env.chat``)."""
        return self._episodes[instance_id].last.observation

    async def generate_response(
        self, instance_id: str, messages: list[dict[str, Any]], **kwargs: Any
    ) -> tuple[bool, str, float, dict[str, Any]]:
        """Steps the environment with the last assistant message; returns (done, user reply, turn reward, info)."""
        episode = self._episodes[instance_id]
        text = last_assistant(messages) or ""
        strategy, utterance = parse_turn(text)
        if not utterance:
            utterance = "..."
        refused: Optional[str] = None
        try:
            result = await episode.client.step(utterance, strategy=strategy)
        except EnvServerError as error:
            # A policy model may write a "[Label]" that is not one of the task's strategies. The server refuses such
            # a step and changes nothing; the label is dropped and the utterance played without one, so a rollout
            # goes on (the simulator never reads the label anyway). ``info["strategy_refused"]`` reports it.
            if error.code != "ENV_ACTION_INVALID" or not strategy:
                raise
            refused = strategy
            result = await episode.client.step(utterance, strategy="")
        reward = float(result.reward or 0.0)
        episode.total += reward
        episode.last = result
        info = {
            "reward": reward,
            "return": episode.total,
            "terminated": result.metadata.get("terminated"),
            "truncated": result.metadata.get("truncated"),
            "turn_judgment": result.metadata.get("turnJudgment"),
            "terminal": result.metadata.get("terminal"),
            "strategy_refused": refused,
        }
        return result.done, result.user_utterance or "", reward, info

    # verl's base declares calculate_score(self) and finalize_interaction(self), but its rollout calls them with
    # the instance id, as its own gsm8k interaction declares them: this follows the call.
    async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:  # type: ignore[override, unused-ignore]
        """The episode's return so far (γ = 1): CSTPO's terminal utility once done, PPDPP's sum of turn rewards."""
        return self._episodes[instance_id].total

    async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:  # type: ignore[override, unused-ignore]
        """Closes the session."""
        episode = self._episodes.pop(instance_id, None)
        if episode is not None:
            await episode.client.close()
