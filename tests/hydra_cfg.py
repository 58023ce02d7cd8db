"""Compose a run config the way ``python run.py`` does (shared by tests, not collected)."""

from __future__ import annotations

from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

from kktheory.cli import CONFIG_DIR


def make_cfg(*overrides: str) -> DictConfig:
    """The composed config for these command-line overrides (full keys)."""
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return compose("config", overrides=list(overrides))
