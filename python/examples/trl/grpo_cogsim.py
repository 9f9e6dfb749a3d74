"""GRPO with TRL against the Cog-Sim environment server: the model talks to the simulated user through the
``say`` tool (one dialogue turn per call) and is rewarded with the episode's return.

    npm run serve -- --task esconv --workers 4 --port 8000 &
    pip install "trl[vllm]" ./python          # TRL with environment_factory support (1.x)
    PDL_ENV_URL=http://127.0.0.1:8000 python3 python/examples/trl/grpo_cogsim.py --model Qwen/Qwen2.5-0.5B-Instruct

Each dataset row is an episode key (``index``); TRL passes the row's columns to ``CogSimTrlEnv.reset``.
"""

from __future__ import annotations

import argparse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True)
    parser.add_argument("--episodes", type=int, default=64)
    parser.add_argument("--task", default="esconv")
    parser.add_argument("--output-dir", default="runs/trl-cogsim")
    args = parser.parse_args()

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from pdl_env import CogSimTrlEnv, get_reward

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
