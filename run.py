"""Hydra entry point: ``python run.py [overrides]`` (see README).

Errors the user can fix — a bad value or type in any config field, an unknown option,
a missing data file, a request above the memory budget — end with one line naming the
field, the value and what is allowed, exit status 2, and no row written.
"""

from __future__ import annotations

import sys

import hydra
from omegaconf import DictConfig

from kktheory.cli import DEFAULT_GROUPS, run_main



@hydra.main(version_base="1.3", config_path="configs", config_name="config")
def main(cfg: DictConfig) -> None:
    from kktheory.cli import run_job

    run_job(cfg)


if __name__ == "__main__":
    sys.exit(run_main(main, DEFAULT_GROUPS))
