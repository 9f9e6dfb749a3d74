"""The chat view of an observation: a labelled actor turn reads ``[Label] text``; an unlabelled one (no strategy, or
``none``: a policy that plans none) reads as its text alone, as ``export-chat`` writes it."""

from __future__ import annotations

from pdl_env.chat import observation_to_messages


def test_unlabelled_actor_turns_get_no_prefix() -> None:
    observation = {
        "actorView": {"role": "supporter", "goal": "help"},
        "history": [
            {"speaker": "actor", "text": "How are you?", "strategy": "Question"},
            {"speaker": "user", "text": "Tired."},
            {"speaker": "actor", "text": "That sounds hard.", "strategy": "none"},
            {"speaker": "actor", "text": "Go on.", "strategy": ""},
            {"speaker": "actor", "text": "I am here."},
        ],
    }
    contents = [m["content"] for m in observation_to_messages(observation)[1:]]
    assert contents == ["[Question] How are you?", "Tired.", "That sounds hard.", "Go on.", "I am here."]
    bare = [m["content"] for m in observation_to_messages(observation, with_labels=False)[1:]]
    assert bare[0] == "How are you?"
