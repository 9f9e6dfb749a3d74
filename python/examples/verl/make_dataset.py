"""Writes a verl dataset for the Cog-Sim interaction: one row per episode index, its prompt the dialogue after
reset (chat messages) and its ``extra_info.interaction_kwargs`` the episode's key.

    python3 python/examples/verl/make_dataset.py --url http://127.0.0.1:8000 --episodes 256 --out runs/cogsim.parquet

Writes Parquet (as verl reads), which needs pandas with pyarrow, checked before connecting; ``--out x.jsonl``
writes JSONL without them. It reads the episodes from a running server (``npm run serve`` in the project root
starts one on port 8000). A server error (none listening, an unknown task, …) is one line
``make_dataset: CODE: message`` on stderr, exit 1; a bad option, and an ``--out`` that is a folder or in a folder
that does not exist, exit 2 before connecting.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
from typing import Optional

from pdl_env import EnvClient, EnvServerError, observation_to_messages

PROG = "make_dataset"


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


def positive_int(text: str) -> int:
    """An integer ≥ 1 (argparse type): anything else is a usage error, exit 2."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 1, got {text!r}")
    return value


def missing_parquet_package() -> Optional[str]:
    """The first of pandas and pyarrow (what ``DataFrame.to_parquet`` uses) that cannot be imported, or None."""
    for name in ("pandas", "pyarrow"):
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def main() -> None:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--task", default="esconv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=positive_int, default=64, help="episodes (rows), at least 1; default 64")
    parser.add_argument("--out", required=True, help="a .jsonl file, or any other name for Parquet")
    args = parser.parse_args()
    if os.path.isdir(args.out):
        parser.exit(2, f"{PROG}: --out {args.out} is a folder: give the name of a file in it\n")
    folder = os.path.dirname(args.out) or "."
    if not os.path.isdir(folder):
        parser.exit(2, f"{PROG}: --out {args.out}: the folder {folder} does not exist (create it first)\n")
    parquet = not args.out.endswith(".jsonl")
    if parquet:
        missing = missing_parquet_package()
        if missing is not None:
            parser.exit(
                2,
                f"{PROG}: a Parquet output needs {missing}: pip install pandas pyarrow, "
                f"or write JSONL (--out {os.path.splitext(args.out)[0]}.jsonl)\n",
            )
    try:
        data = rows(args.url, args.episodes, args.task, args.seed)
    except EnvServerError as e:
        parser.exit(1, f"{PROG}: {e.code}: {e.message}\n")
    if parquet:
        import pandas as pd  # verl's own dependency

        pd.DataFrame(data).to_parquet(args.out)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            for row in data:
                f.write(json.dumps(row) + "\n")
    print(f"{len(data)} rows written to {args.out}")


if __name__ == "__main__":
    main()
