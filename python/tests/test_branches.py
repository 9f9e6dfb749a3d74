"""CSTPO branch sampling through the server: shared prefixes, forked continuations, returns and advantages."""

from __future__ import annotations

import json

import pytest

from conftest import Server
from pdl_env import EnvClient
from pdl_env.branches import sample_branches

SCRIPT = [
    ("Question", "What has been the hardest part of this week?"),
    ("Reflection of feelings", "It sounds like you have been carrying that alone."),
    ("Providing Suggestions", "Maybe one small step tomorrow, like calling a friend?"),
]


def actor(observation: dict[str, object]) -> tuple[str, str]:
    return SCRIPT[int(observation["turn"]) % len(SCRIPT)]  # type: ignore[call-overload]


def alternatives(observation: dict[str, object], t: int) -> list[tuple[str, str]]:
    return [("Affirmation and Reassurance", "You are doing more than you think."), ("Question", "What helps, usually?")]


def test_branch_rows(server: Server) -> None:
    key = {"seed": 9, "index": 3, "protocol": "ppdpp"}
    rows = sample_branches(server.url, key, actor, checkpoints=[0, 2], alternatives=alternatives)
    main, branches = rows[0], rows[1:]
    assert main["kind"] == "trajectory" and main["return"] == pytest.approx(sum(main["turn_rewards"]))
    assert len(branches) == 2 * 3  # per checkpoint: the main continuation and two alternatives
    for t in (0, 2):
        here = [r for r in branches if r["checkpoint_turn"] == t]
        own = [r for r in here if r["main"]]
        assert len(own) == 1 and own[0]["return"] == pytest.approx(sum(main["turn_rewards"][t:]))
        assert all(r["shared_prefix"] == here[0]["shared_prefix"] for r in here)
        assert len(here[0]["shared_prefix"]) == main["prefix_messages"] + 2 * t
        for r in here:
            assert r["v"] == pytest.approx(sum(r["returns"]) / 3)
            assert r["A_K"] + r["A_U"] == pytest.approx(r["return"] - r["v"])
        questions = [r for r in here if r["strategy"] == "Question"]
        if t == 0:  # the main action at t = 0 is a Question too: Û is their mean
            assert len(questions) == 2 and questions[0]["u"] == pytest.approx(sum(q["return"] for q in questions) / 2)
    assert "cognitive" not in json.dumps(rows)
    # A forked continuation equals the same actions played from the start.
    alt = next(r for r in branches if r["checkpoint_turn"] == 0 and r["strategy"] == "Affirmation and Reassurance")
    with EnvClient(server.url) as client:
        observation = client.reset(**key).observation
        total, first = 0.0, True
        while True:
            strategy, utterance = (alt["strategy"], alt["utterance"]) if first else actor(observation)
            first = False
            step = client.step(utterance, strategy=strategy)
            total += step.reward or 0.0
            observation = step.observation
            if step.done:
                break
    assert total == pytest.approx(alt["return"])
