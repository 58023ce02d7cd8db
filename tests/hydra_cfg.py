"""Compose a run config the way ``python run.py`` does (shared by tests, not collected)."""

from __future__ import annotations

from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

from kktheory.run.sweeps import CONFIG_DIR


def make_cfg(*overrides: str) -> DictConfig:
    """The composed config for these command-line overrides (full keys), in float64 unless
    they say otherwise: the tests check the mathematics against float64 brute force, and
    tests/test_float32.py bounds the float32 default's distance to float64."""
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return compose("config", overrides=["dtype=float64", *overrides])
