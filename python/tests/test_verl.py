"""verl's own interaction machinery (verl 0.7.1 from PyPI, installed with ``--no-deps``) driving episodes through
:class:`pdl_env.verl_interaction.CogSimInteraction` against the real server.

verl's package ``__init__`` imports torch and its data protocol, too heavy for CI on CPU, so the test loads verl's
own ``verl/interactions/base.py`` and ``verl/interactions/utils/interaction_registry.py`` from the installed
distribution under their real module names (a bare ``verl`` package stands in for the parent) — the same class
and the same YAML loader a verl rollout uses, without the rest of verl.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import types
from importlib import metadata
from pathlib import Path

import pytest

from conftest import Server

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "verl" / "cogsim_interaction.yaml"


def load_verl_module(name: str) -> types.ModuleType:
    """Loads ``name`` (a module of the installed verl) from its file, with bare parent packages."""
    dist = metadata.distribution("verl")
    root = Path(str(dist.locate_file("verl")))
    parts = name.split(".")
    for i in range(1, len(parts)):
        parent = ".".join(parts[:i])
        if parent not in sys.modules:
            package = types.ModuleType(parent)
            package.__path__ = [str(root.joinpath(*parts[1:i]))]
            sys.modules[parent] = package
    spec = importlib.util.spec_from_file_location(name, root.joinpath(*parts[1:]).with_suffix(".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def verl_base() -> type:
    if metadata.version("verl") != "0.7.1":
        pytest.fail("these tests pin verl 0.7.1 (the last release with verl.interactions); see .ci/run")
    base = load_verl_module("verl.interactions.base")
    sys.modules.pop("pdl_env.verl_interaction", None)  # import the adapter against verl's class
    return base.BaseInteraction  # type: ignore[no-any-return]


def test_adapter_is_a_verl_interaction_and_plays_episodes(server: Server, verl_base: type, tmp_path: Path) -> None:
    registry = load_verl_module("verl.interactions.utils.interaction_registry")
    config = tmp_path / "interaction.yaml"
    config.write_text(EXAMPLE.read_text().replace("http://127.0.0.1:8000", server.url))
    interactions = registry.initialize_interactions_from_config(str(config))
    interaction = interactions["cogsim"]
    from pdl_env.verl_interaction import CogSimInteraction

    assert isinstance(interaction, CogSimInteraction) and isinstance(interaction, verl_base)

    async def rollout(index: int) -> tuple[float, list[float], bool]:
        instance = await interaction.start_interaction(None, name="cogsim", index=index)
        observation = interaction.first_observation(instance)
        from pdl_env import observation_to_messages

        messages = observation_to_messages(observation)
        scores: list[float] = []
        done = False
        for turn in range(40):
            messages.append({"role": "assistant", "content": f"[Question] What would help you most, step {turn}?"})
            done, reply, score, info = await interaction.generate_response(instance, messages)
            scores.append(score)
            assert reply and "reward" in info
            messages.append({"role": "user", "content": reply})
            if done:
                assert info["terminal"] is not None
                break
        total = await interaction.calculate_score(instance)
        await interaction.finalize_interaction(instance)
        return total, scores, done

    async def main() -> list[tuple[float, list[float], bool]]:
        return await asyncio.gather(rollout(0), rollout(1))  # two trajectories in flight at once

    for total, scores, done in asyncio.run(main()):
        assert done
        assert total == pytest.approx(sum(scores))
        assert 0.0 <= total <= 1.0  # CSTPO: the terminal utility


def test_a_label_the_task_lacks_is_dropped_and_the_turn_played(server: Server, verl_base: type) -> None:
    from pdl_env import observation_to_messages
    from pdl_env.verl_interaction import CogSimInteraction

    interaction = CogSimInteraction({"name": "cogsim", "url": server.url, "task": "esconv", "rng_seed": 0})

    async def main() -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
        instance = await interaction.start_interaction(None, index=0)
        messages = observation_to_messages(interaction.first_observation(instance))
        messages.append({"role": "assistant", "content": "[NotALabel] How have you been feeling this week?"})
        done, reply, _, refused = await interaction.generate_response(instance, messages)
        assert not done and reply
        state = interaction._episodes[instance].last.observation  # the history after the refused label
        messages += [{"role": "user", "content": reply}, {"role": "assistant", "content": "[Question] What helps?"}]
        _, _, _, kept = await interaction.generate_response(instance, messages)
        await interaction.finalize_interaction(instance)
        return refused, kept, state

    refused, kept, state = asyncio.run(main())
    assert refused["strategy_refused"] == "NotALabel"
    assert kept["strategy_refused"] is None
    history = state["history"]
    assert isinstance(history, list) and history[-2]["text"] == "How have you been feeling this week?"
    assert history[-2].get("strategy", "") in ("", None)
