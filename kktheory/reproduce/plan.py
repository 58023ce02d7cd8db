"""The plan of a sweep — its jobs with their run ids and configs — composed once and kept in
``<results-dir>/cache/plans`` until a YAML file of experiments/ or configs/, the kktheory
source, the Hydra version, the overrides or the results folder change."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from kktheory.run.sweeps import CONFIG_DIR
from kktheory.errors import UserError
from kktheory.run.sweeps import (
    EXPERIMENTS_DIR, compose_jobs, expand_jobs, fixed_overrides, sweep_params,
)


#: the kktheory source, whose change recomposes a plan
PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: the layout of a plan file (a new layout recomposes)
PLAN_FORMAT = 1


def run_ids(cfg: DictConfig) -> list[str]:
    """The run ids (store file names) of the rows a job config produces."""
    from kktheory.run.config import build_spec
    from kktheory.run.identity import row_identity
    from kktheory.run.store import run_id

    spec = build_spec(cfg)
    return [run_id(row_identity(spec, p)) for p in spec.points]


@dataclass
class PlannedJob:
    """One job of a sweep as reading its rows needs it (no Hydra config object)."""

    overrides: list[str]
    ids: list[str]  # the run ids of its rows ([] when the config is refused)
    config: str  # the composed config, YAML (the rows' job_config)
    setup: dict[str, Any]  # the resolved config, flattened (failure rows, describe_setup)
    error: tuple[str, str] | None = None  # (kind, message) when the config is refused


@dataclass
class Plan:
    """The jobs of a sweep and the keys of its sweep axes (``hydra.sweeper.params``);
    ``composed`` holds the job configs when this process composed them."""

    jobs: list[PlannedJob]
    axes: list[str]
    cache: Path | None = None  # <results_dir>/cache/plans/<config>-<overrides hash> (no suffix)
    composed: list[DictConfig] | None = None

    @property
    def rows_cache(self) -> Path | None:
        """The sweep's rows cache (:func:`kktheory.reproduce.sweep.read_rows`)."""
        return None if self.cache is None else self.cache.with_name(self.cache.name + ".rows.parquet")


def plan_key(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
             experiments_dir: Path = EXPERIMENTS_DIR) -> str:
    """SHA-256 of everything a sweep's plan depends on: the config name, the overrides, the
    results folder (written into every config), the default memory budget (validation
    refuses what exceeds it), the versions of hydra-core and omegaconf, and the content of
    every YAML file of ``experiments_dir`` and configs/ and of every module of the kktheory
    package but the report (schemas, defaults, validation and the row identity)."""
    from importlib.metadata import version

    from kktheory.machine.memory import default_budget_bytes

    h = hashlib.sha256(json.dumps([
        PLAN_FORMAT, cfg_name, list(overrides), str(results_dir), str(experiments_dir), default_budget_bytes(),
        version("hydra-core"), version("omegaconf"),
    ]).encode())
    for root, pattern in ((experiments_dir, "*.yaml"), (CONFIG_DIR, "*.yaml"), (PACKAGE_DIR, "*.py")):
        for f in sorted(root.rglob(pattern)):
            rel = f.relative_to(root)
            if root == PACKAGE_DIR and rel.parts[0] == "report":
                continue
            h.update(f"{root.name}/{rel.as_posix()}\0".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def plan_sweep(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
               experiments_dir: Path = EXPERIMENTS_DIR) -> Plan:
    """The jobs of a sweep with their run ids and configs.

    Read from ``<results_dir>/cache/plans/<cfg_name>-<hash of the overrides>.json.gz`` when
    that file's :func:`plan_key` is the current one; otherwise the jobs are expanded
    (:func:`expand_jobs`) and composed (:func:`compose_jobs`) with Hydra, their run ids
    computed (:func:`run_ids`), and the file rewritten. A changed YAML file, module, Hydra
    version, override or results folder thus recomposes once; the ids are those composing
    gives, because the file holds what composing gave under the same key.
    """
    key = plan_key(cfg_name, results_dir, overrides, experiments_dir)
    digest = hashlib.sha256(json.dumps(list(overrides)).encode()).hexdigest()[:12]
    cache = results_dir / "cache" / "plans" / f"{cfg_name}-{digest}"
    path = cache.with_name(cache.name + ".json.gz")
    try:
        stored = json.loads(gzip.decompress(path.read_bytes()))
        if stored["key"] == key:
            jobs = [PlannedJob(**{**j, "error": tuple(j["error"]) if j["error"] else None}) for j in stored["jobs"]]
            return Plan(jobs, stored["axes"], cache)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no plan, or an unreadable one: compose
    params = sweep_params(cfg_name, fixed_overrides(overrides), experiments_dir)
    jobs = expand_jobs(cfg_name, overrides, experiments_dir, params)
    cfgs = compose_jobs(cfg_name, jobs, results_dir, experiments_dir)
    plan = Plan([plan_job(job, cfg) for job, cfg in zip(jobs, cfgs)], list(params), cache, cfgs)
    blob = gzip.compress(json.dumps({"key": key, "axes": plan.axes, "jobs": [asdict(j) for j in plan.jobs]}).encode())
    write_atomic(path, blob)
    return plan


def plan_job(job: Sequence[str], cfg: DictConfig) -> PlannedJob:
    from kktheory.run.identity import flatten

    setup = flatten(OmegaConf.to_container(cfg, resolve=True))
    try:
        ids, error = run_ids(cfg), None
    except UserError as exc:
        ids, error = [], error_of(exc)
    return PlannedJob(list(job), ids, OmegaConf.to_yaml(cfg), setup, error)


def write_atomic(path: Path, blob: bytes) -> None:
    """Write a cache file atomically; a folder that cannot be written leaves no cache."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def log(message: str) -> None:
    """Print a progress line at once (also when stdout is a file)."""
    print(message, flush=True)


class NotInStore(UserError):
    """A job whose rows are missing and were not computed (``--no-run``)."""


def error_of(exc: BaseException) -> tuple[str, str]:
    """(error kind, message) of a job that cannot run: the class of a user error, ``bug:``
    and the class for anything else; the message's first line."""
    kind = type(exc).__name__ if isinstance(exc, UserError) else f"bug:{type(exc).__name__}"
    return kind, str(exc).splitlines()[0] if str(exc) else kind
