"""CSTPO's sparse complete-branch sampling through the server (paper §3.3, §B.2), as chat-format rows for a
trainer (fields in docs/trainer-export.md).

One main trajectory is played with the actor, with a checkpoint token kept before each chosen decision; at each,
every alternative action (strategy, utterance) is played from a fork of the checkpoint and continued with the
actor to the end of the episode. Per checkpoint t with continuations of returns G (γ = 1, from t), the
hierarchical advantages are those of src/rl/advantages.ts:

- ``u`` (Û(X_t, K)): the mean return of the continuations with strategy K at t;
- ``v`` (V(X_t)): the critic's value when a ``critic`` is given, else the mean return of all continuations at t;
- ``A_K = Û(X_t, K) − V(X_t)`` (strategy advantage), ``A_U = G − Û(X_t, K)`` (utterance advantage).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Optional

from .chat import observation_to_messages
from .client import EnvClient

Action = tuple[str, str]
"""(strategy, utterance)."""
Actor = Callable[[dict[str, Any]], Action]
"""The policy: observation -> action (e.g. an LLM prompted with ``observation_to_messages``)."""


def _play(client: EnvClient, first: dict[str, Any], actor: Actor, forced: Optional[Action], limit: int) -> float:
    observation = first
    total = 0.0
    for turn in range(limit):
        strategy, utterance = forced if (forced is not None and turn == 0) else actor(observation)
        result = client.step(utterance, strategy=strategy)
        total += float(result.reward or 0.0)
        observation = result.observation
        if result.done:
            return total
    raise RuntimeError(f"the episode did not end within {limit} turns")


def sample_branches(
    url: str,
    reset: dict[str, Any],
    actor: Actor,
    checkpoints: Iterable[int],
    alternatives: Callable[[dict[str, Any], int], list[Action]],
    token: Optional[str] = None,
    critic: Optional[Callable[[dict[str, Any]], float]] = None,
    max_turns: int = 200,
) -> list[dict[str, Any]]:
    """Plays one main trajectory and its branches; returns one ``trajectory`` row and one ``branch`` row per
    continuation (the main one included, ``main: true``).

    Args:
        url: the server. reset: the episode's key (``seed``, ``task``, ``seed_id`` / ``repeat`` or ``index``).
        actor: the policy for the main path and every continuation's tail.
        checkpoints: decision indices t to branch at (beyond the episode's end are ignored).
        alternatives: the actions to try at t besides the main one (e.g. S − 1 other strategies × R realizations).
        critic: V(X_t) from the observation; without it V is the mean of the continuations' returns.
    """
    wanted = set(checkpoints)
    main_actions: list[Action] = []
    rewards: list[float] = []
    at: dict[int, tuple[str, dict[str, Any]]] = {}
    with EnvClient(url, token=token) as client:
        result = client.reset(**reset)
        first_observation = result.observation
        observation = result.observation
        while True:
            t = len(main_actions)
            if t in wanted:
                at[t] = (client.checkpoint(), observation)
            action = actor(observation)
            main_actions.append(action)
            result = client.step(action[1], strategy=action[0])
            rewards.append(float(result.reward or 0.0))
            observation = result.observation
            if result.done:
                break
            if t + 1 >= max_turns:
                raise RuntimeError(f"the episode did not end within {max_turns} turns")
        state = client.state()
    returns_to_go = [sum(rewards[t:]) for t in range(len(rewards))]
    messages = observation_to_messages(observation)
    prefix = len(observation_to_messages(first_observation))
    rows: list[dict[str, Any]] = [
        {
            "kind": "trajectory",
            "messages": messages,
            "prefix_messages": prefix,
            "strategies": [a[0] for a in main_actions],
            "turn_rewards": rewards,
            "return": sum(rewards),
            "reward": sum(rewards),
            "task": state["task"],
            "seed_id": state["seed_id"],
            "repeat": state["repeat"],
            "seed": state["seed"],
            "protocol": state["protocol"],
            "simulator_version": state["simulator_version"],
        }
    ]
    for t in sorted(at):
        token_t, obs_t = at[t]
        continuations: list[tuple[Action, float, bool]] = [(main_actions[t], returns_to_go[t], True)]
        for alternative in alternatives(obs_t, t):
            with EnvClient(url, token=token) as branch:
                start = branch.reset(checkpoint=token_t)
                continuations.append((alternative, _play(branch, start.observation, actor, alternative, max_turns), False))
        all_returns = [g for _, g, _ in continuations]
        v = critic(obs_t) if critic is not None else sum(all_returns) / len(all_returns)
        shared = observation_to_messages(obs_t)
        for (strategy, utterance), g, main in continuations:
            same = [g2 for (s2, _), g2, _ in continuations if s2 == strategy]
            u = sum(same) / len(same)
            rows.append(
                {
                    "kind": "branch",
                    "shared_prefix": shared,
                    "checkpoint_turn": t,
                    "strategy": strategy,
                    "utterance": utterance,
                    "return": g,
                    "main": main,
                    "returns": all_returns,
                    "v": v,
                    "u": u,
                    "v_source": "critic" if critic is not None else "branch-mean",
                    "A_K": u - v,
                    "A_U": g - u,
                    "task": state["task"],
                    "seed_id": state["seed_id"],
                    "repeat": state["repeat"],
                    "seed": state["seed"],
                    "protocol": state["protocol"],
                    "simulator_version": state["simulator_version"],
                }
            )
    return rows
