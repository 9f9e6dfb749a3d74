"""Chat-format helpers shared by the trainer adapters: an observation as chat messages, and an LLM's turn as an
action.

Roles: the actor (the policy being trained) is ``assistant``; the simulated user is ``user``; the actor's view
(role, goal, item, organisation) is the ``system`` message. Strategy labels ride inside the assistant text as a
leading ``[Label]`` (the simulator never sees them: the server passes only the utterance to it).
"""

from __future__ import annotations

import re
from typing import Any, Optional

_LABEL = re.compile(r"^\s*\[([^\]\n]{1,200})\]\s*(.*)$", re.DOTALL)


def system_prompt(observation: dict[str, Any]) -> str:
    """The actor's instructions from its view: role, goal and the task's public facts."""
    view = dict(observation.get("actorView") or {})
    lines = [f"You are the {view.get('role', 'actor')} in a dialogue. Goal: {view.get('goal', '')}".strip()]
    for key, name in (
        ("itemName", "Item"),
        ("itemDescription", "Description"),
        ("listPrice", "List price"),
        ("targetPrice", "Your target price"),
        ("organisation", "Organisation"),
    ):
        if view.get(key) is not None:
            lines.append(f"{name}: {view[key]}")
    lines.append("Answer with one turn. You may start it with a strategy label in brackets, e.g. [Question].")
    return "\n".join(lines)


def observation_to_messages(observation: dict[str, Any], with_labels: bool = True) -> list[dict[str, str]]:
    """The observation as chat messages: the system prompt, then the dialogue (actor = assistant)."""
    messages = [{"role": "system", "content": system_prompt(observation)}]
    for turn in observation.get("history") or []:
        if turn.get("speaker") == "actor":
            label = turn.get("strategy")
            # An unlabelled turn (no strategy, or "none": a policy that plans none) gets no prefix.
            labelled = bool(label) and label != "none"
            text = f"[{label}] {turn['text']}" if with_labels and labelled else str(turn["text"])
            messages.append({"role": "assistant", "content": text})
        else:
            messages.append({"role": "user", "content": str(turn["text"])})
    return messages


def parse_turn(text: str) -> tuple[str, str]:
    """An assistant turn as ``(strategy, utterance)``: a leading ``[Label]`` is the strategy (else empty)."""
    match = _LABEL.match(text)
    if match:
        return match.group(1).strip(), match.group(2).strip()
    return "", text.strip()


def last_assistant(messages: list[dict[str, Any]]) -> Optional[str]:
    """The content of the last assistant message, or None."""
    for message in reversed(messages):
        if message.get("role") == "assistant":
            content = message.get("content")
            return content if isinstance(content, str) else None
    return None
