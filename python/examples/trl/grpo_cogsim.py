"""GRPO with TRL against the Cog-Sim environment server: the model talks to the simulated user through the
``say`` tool (one dialogue turn per call) and is rewarded with the episode's return.

    npm run serve -- --task esconv --workers 4 --port 8000 &
    pip install "trl[vllm]" ./python          # TRL with environment_factory support (1.x)
    PDL_ENV_URL=http://127.0.0.1:8000 python3 python/examples/trl/grpo_cogsim.py --model Qwen/Qwen2.5-0.5B-Instruct

Each dataset row is an episode key (``index``); TRL passes the row's columns to ``CogSimTrlEnv.reset``.
The server is asked for ``/health`` before the model loads: an error (none listening, a refused token) is one line
``grpo_cogsim: CODE: message`` on stderr, exit 1; a bad option, or trl or datasets missing, exits 2.
"""

from __future__ import annotations

import argparse
import os

from pdl_env import CogSimTrlEnv, EnvServerError, get_reward, http_get

PROG = "grpo_cogsim"


def positive_int(text: str) -> int:
    """An integer ≥ 1 (argparse type): anything else is a usage error, exit 2."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 1, got {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True)
    parser.add_argument("--episodes", type=positive_int, default=64, help="episodes (rows), at least 1; default 64")
    parser.add_argument("--task", default="esconv")
    parser.add_argument("--output-dir", default="runs/trl-cogsim")
    args = parser.parse_args()
    url = os.environ.get("PDL_ENV_URL", "http://127.0.0.1:8000")
    try:
        http_get(url, "/health", os.environ.get("PDL_ENV_TOKEN"))
    except EnvServerError as e:
        parser.exit(1, f"{PROG}: {e.code}: {e.message}\n")
    try:
        from datasets import Dataset
        from trl import GRPOConfig, GRPOTrainer
    except ImportError as e:
        parser.exit(2, f"{PROG}: this example needs {e.name}: pip install \"trl[vllm]\" datasets\n")

    prompt = (
        "You are talking with a person through the `say` tool, one turn per call, until the conversation ends. "
        "Help them toward the goal you are given."
    )
    dataset = Dataset.from_list(
        [{"prompt": [{"role": "user", "content": prompt}], "index": i, "task": args.task} for i in range(args.episodes)]
    )
    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=get_reward,
        train_dataset=dataset,
        args=GRPOConfig(output_dir=args.output_dir, num_generations=4, max_completion_length=1024, logging_steps=1),
        environment_factory=CogSimTrlEnv,
    )
    trainer.train()


if __name__ == "__main__":
    main()
