"""The jobs of an experiment config: what ``python run.py --config-dir experiments
--config-name NAME -m [overrides]`` would run, expanded and composed without launching it.

Shared by :mod:`kktheory.reproduce` (which runs the missing jobs of an entry and reports
it) and :mod:`kktheory.timing` (which times a few of them alternately).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

#: the main config and its groups (``python run.py``'s config path)
CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
#: the experiment configs of the catalogue (``--config-dir experiments``)
EXPERIMENTS_DIR = CONFIG_DIR.parent / "experiments"
SCALES = ("small", "paper")


def config_name(name: str, scale: str) -> str:
    """The experiment config of an entry at a scale."""
    return name if scale == "paper" else f"{name}_{scale}"


def _searchpath() -> str:
    """The override that puts configs/ (the main config and its groups) on the search path."""
    import kktheory.run.config  # noqa: F401  (registers every schema in Hydra's ConfigStore)

    return f"hydra.searchpath=[file://{CONFIG_DIR}]"


# -- the sweep ----------------------------------------------------------------------------
def sweep_params(cfg_name: str, fixed: Sequence[str] = (),
                 experiments_dir: Path = EXPERIMENTS_DIR) -> dict[str, Any]:
    """The experiment's ``hydra.sweeper.params`` (key → values), with overrides ``fixed``."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(experiments_dir), version_base="1.3"):
        cfg = compose(cfg_name, overrides=[_searchpath(), *fixed], return_hydra_config=True)
    return OmegaConf.to_container(cfg.hydra.sweeper.params) or {}


def fixed_overrides(overrides: Sequence[str]) -> list[str]:
    """The overrides that set one value (not a sweep such as ``seed=0,1``)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return [o.input_line for o in OverridesParser.create().parse_overrides(list(overrides))
            if not o.is_sweep_override()]


def expand_jobs(cfg_name: str, overrides: Sequence[str] = (),
                experiments_dir: Path = EXPERIMENTS_DIR, params: Mapping[str, Any] | None = None) -> list[list[str]]:
    """The job overrides of ``run.py --config-dir experiments --config-name cfg_name -m``.

    The experiment's ``hydra.sweeper.params`` (``params`` when the caller has them, from
    :func:`sweep_params` with the :func:`fixed_overrides`) come first and the command-line
    overrides after them (a key given on both keeps the command line's value), exactly as
    Hydra's BasicSweeper combines them.
    """
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parser = OverridesParser.create()
    if params is None:
        params = sweep_params(cfg_name, fixed_overrides(overrides), experiments_dir)
    arguments = [f"{k}={v}" for k, v in params.items()] + list(overrides)
    parsed = parser.parse_overrides(arguments)
    (batch,) = BasicSweeper.split_arguments(parsed, None)
    return batch


def compose_jobs(cfg_name: str, jobs: Sequence[Sequence[str]], results_dir: Path,
                 experiments_dir: Path = EXPERIMENTS_DIR) -> list[DictConfig]:
    """The composed config of each job, writing to ``results_dir``.

    Hydra composes once per distinct set of config-group choices among the jobs (e.g.
    ``wang/data=mnist``; a key naming a folder of experiments/ or configs/), and the plain
    value overrides (``seed=3``, ``kernel.beta=0.2``) are set on a copy of that config as
    Hydra sets them (:func:`_set_values`), which gives the config Hydra composes from all
    the overrides. A sweep of 400 jobs that differ in the seed composes once instead of
    400 times (0.2–0.5 s each).
    """
    from hydra import compose, initialize_config_dir
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parser = OverridesParser.create()
    composed: dict[tuple[str, ...], DictConfig] = {}
    out = []
    with initialize_config_dir(config_dir=str(experiments_dir), version_base="1.3"):
        for job in jobs:
            parsed = parser.parse_overrides([*job, f"results_dir={results_dir}"])
            values = [o for o in parsed if _is_value(o, experiments_dir)]
            choices = tuple(o.input_line for o in parsed if not _is_value(o, experiments_dir))
            if choices not in composed:
                composed[choices] = compose(cfg_name, overrides=[_searchpath(), *choices])
            out.append(_set_values(composed[choices], values))
    return out


def _is_value(override: Any, experiments_dir: Path) -> bool:
    """A plain ``key=value`` change of a config value (not a config group, not + or ~)."""
    from hydra.core.override_parser.types import OverrideType

    key = override.key_or_group
    return (override.type == OverrideType.CHANGE and override.package is None and not key.startswith("hydra")
            and not any((d / key.replace(".", "/")).is_dir() for d in (experiments_dir, CONFIG_DIR)))


def _set_values(cfg: DictConfig, values: Sequence[Any]) -> DictConfig:
    """A copy of ``cfg`` with the value overrides applied as Hydra applies them
    (``OmegaConf.update(cfg, key, value, merge=True)``, schema types checked)."""
    out = copy.deepcopy(cfg)
    for o in values:
        OmegaConf.update(out, o.key_or_group, o.value(), merge=True)
    return out
