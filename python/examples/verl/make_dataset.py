"""Writes a verl dataset for the Cog-Sim interaction: one row per episode index, its prompt the dialogue after
reset (chat messages) and its ``extra_info.interaction_kwargs`` the episode's key.

    python3 python/examples/verl/make_dataset.py --url http://127.0.0.1:8000 --episodes 256 --out runs/cogsim.parquet

Writes Parquet when pandas (with pyarrow) is installed, as verl reads; JSONL otherwise (``--out x.jsonl``).
"""

from __future__ import annotations

import argparse
import json

from pdl_env import EnvClient, observation_to_messages


def rows(url: str, episodes: int, task: str, seed: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    with EnvClient(url) as client:
        for index in range(episodes):
            first = client.reset(task=task, index=index, seed=seed)
            out.append(
                {
                    "data_source": f"cogsim/{task}",
                    "prompt": observation_to_messages(first.observation),
                    "ability": "dialogue",
                    "reward_model": {"style": "interaction", "ground_truth": ""},
                    "extra_info": {
                        "index": index,
                        "interaction_kwargs": {"name": "cogsim", "index": index, "task": task, "seed": seed},
                    },
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--task", default="esconv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=64)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    data = rows(args.url, args.episodes, args.task, args.seed)
    if args.out.endswith(".jsonl"):
        with open(args.out, "w", encoding="utf-8") as f:
            for row in data:
                f.write(json.dumps(row) + "\n")
    else:
        import pandas as pd  # verl's own dependency

        pd.DataFrame(data).to_parquet(args.out)
    print(f"{len(data)} rows written to {args.out}")


if __name__ == "__main__":
    main()
