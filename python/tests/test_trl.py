"""The TRL adapter against the real server: ``reset`` per dataset row, the ``say`` tool per turn, ``get_reward``
as the task's return. (TRL itself needs torch and is not installed in CI; verl's interaction is the trainer
package in the loop, see test_verl.py.)"""

from __future__ import annotations

import inspect

from conftest import Server
from pdl_env import CogSimTrlEnv, EnvClient, get_reward


def test_environment_factory_plays_rows_and_rewards_the_return(server: Server) -> None:
    envs = [CogSimTrlEnv(url=server.url), CogSimTrlEnv(url=server.url)]
    for row, env in enumerate(envs):
        prompt = env.reset(index=row, task="cb", seed=4, unused_column="ignored")
        assert "Goal:" in prompt
        turns = 0
        while not env.done:
            reply = env.say("Would you take 85 if I pick it up today?", strategy="Propose price")
            assert reply
            turns += 1
            assert turns <= 40
        assert env.say("hello?") == "The conversation has ended."
    rewards = get_reward(envs)
    assert len(rewards) == 2 and all(0.0 <= r <= 1.0 for r in rewards)
    # The same episode played with the plain client gives the same return.
    with EnvClient(server.url) as client:
        client.reset(index=0, task="cb", seed=4)
        total = 0.0
        while True:
            step = client.step("Would you take 85 if I pick it up today?", strategy="Propose price")
            total += step.reward or 0.0
            if step.done:
                break
    assert rewards[0] == total


def test_a_strategy_the_task_lacks_is_dropped_and_said_in_the_reply(server: Server) -> None:
    env = CogSimTrlEnv(url=server.url)
    env.reset(index=0, task="cb", seed=4)
    reply = env.say("Would you take 85 if I pick it up today?", strategy="Haggle hard")
    assert reply.endswith('(Note: "Haggle hard" is not a strategy of this task; the turn was played without one.)')
    assert env.last is not None and env.last.observation["history"][-2]["text"].startswith("Would you take 85")
    assert env.last.observation["history"][-2].get("strategy", "") in ("", None)
    kept = env.say("Could you do 80?", strategy="Propose price")
    assert "(Note:" not in kept


def test_tool_is_documented_for_tool_calling() -> None:
    doc = inspect.getdoc(CogSimTrlEnv.say) or ""
    assert "Args:" in doc and "utterance:" in doc and "Returns:" in doc
    public = [n for n, _ in inspect.getmembers(CogSimTrlEnv, inspect.isfunction) if not n.startswith("_")]
    assert public == ["reset", "say"]
