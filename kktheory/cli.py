"""Glue between Hydra's entry point (run.py) and kktheory.run.experiment.

Hydra is asked to let exceptions through (HYDRA_FULL_ERROR=1) so that every error the user
can fix — ours (:class:`~kktheory.errors.UserError`) or Hydra's and OmegaConf's
composition and type errors — is printed as one line with exit status 2.

In a sweep (``-m``), a job that fails validation prints its line prefixed with the job's
number and overrides, and the other jobs still run; the sweep then ends with status 2
(validation comes before any work, so a failed job costs nothing and writes nothing).
A job's summary is prefixed with its number too, so that the lines of parallel jobs
(joblib launcher) can be told apart.

Hydra creates a job's output folder (``hydra.run.dir``, under ``results_dir``: the composed
config in ``.hydra/`` and the job's log) before the job starts; a job that fails removes
what Hydra wrote there and the folders left empty, so a failed run leaves nothing.

The command line is rewritten once before Hydra reads it (:func:`expand_shorthand`): a group
parameter may be given without its group prefix (``python run.py sketch=ros
transform=hadamard``) when exactly one selected option has a field of that name.

The ``*_schema`` entries of each config group are the dataclasses that type its options:
``--help`` does not list them and selecting one (``sketch=ros_schema``) is refused.

Ctrl-C (SIGINT) and SIGTERM (e.g. a scheduler's preemption) end the process through an
exception, so that the store's temporary files are removed on the way out; only whole run
files remain, and rerunning the same command computes exactly the missing runs. The exit
status is 128 + the signal number (130, 143), with one line saying so. (SIGKILL cannot be
caught: its temporary files are removed by the next run, see :mod:`kktheory.run.store`.)
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from kktheory.errors import ConfigError, UserError
from kktheory.run.sweeps import CONFIG_DIR

EXIT_USER_ERROR = 2
SCHEMA_SUFFIX = "_schema"
#: the files Hydra writes into ``<output dir>/<hydra.output_subdir>`` before a job starts
HYDRA_JOB_FILES = ("config.yaml", "hydra.yaml", "overrides.yaml")
#: Hydra's refusal of a sweep (``a=1,2``, ``a=range(3)``) without ``-m``: the override
SWEEP_WITHOUT_M = re.compile(r"(?:Ambiguous value for argument|Sweep parameters) '(.+?)'")
#: Hydra's refusal of two commands at once (e.g. ``-m`` with ``--cfg job``)
ONE_COMMAND = "Only one of --run, --multirun, --cfg, --info and --shell_completion"
INTERRUPTED = (
    "interrupted: every finished run is stored whole; rerun the same command to compute the missing runs"
)


SWEEP_FAILED = (
    "sweep: the jobs above failed and wrote no row; every other job ran. Fix them and rerun "
    "the same command: finished runs are skipped"
)


class JobFailed(UserError):
    """A job of a sweep ended with a user error (already printed); the sweep goes on."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that cleanup runs."""


def default_groups(config_dir: Path = CONFIG_DIR) -> dict[str, str]:
    """Default option of each config group, read from configs/config.yaml."""
    defaults = OmegaConf.load(config_dir / "config.yaml").get("defaults", [])
    return {k: v for item in defaults if isinstance(item, DictConfig) for k, v in item.items()}


DEFAULT_GROUPS = default_groups() if (CONFIG_DIR / "config.yaml").exists() else {}


def group_options(group: str, config_dir: Path = CONFIG_DIR) -> list[str]:
    """The options of a config group: its YAML files (not the ``*_schema`` entries)."""
    return sorted(p.stem for p in (config_dir / group).glob("*.yaml"))


def help_config_groups() -> str:
    """Hydra's list of the application's config groups for ``--help``, without the
    ``*_schema`` entries (resolver ``kktheory_config_groups`` of ``hydra.help.template``)."""
    from hydra.core.global_hydra import GlobalHydra

    hydra = GlobalHydra.instance().hydra
    assert hydra is not None, "Hydra is initialised before it renders --help"
    lines = []
    for group in sorted(hydra.list_all_config_groups()):
        if group != "hydra" and not group.startswith("hydra/"):
            options = sorted(o for o in hydra.config_loader.get_group_options(group) if not o.endswith(SCHEMA_SUFFIX))
            lines.append(f"{group}: {', '.join(options)}")
    return "\n".join(lines)


OmegaConf.register_new_resolver("kktheory_config_groups", help_config_groups, replace=True)


def _argv_value(key: str, argv: list[str]) -> str | None:
    for arg in argv:
        k, sep, v = arg.lstrip("+~").partition("=")
        if sep and k == key:
            return v
    return None


def one_line(exc: BaseException, argv: list[str]) -> str:
    """One line naming the field, the value and what is allowed, for Hydra/OmegaConf errors."""
    from hydra.errors import MissingConfigException

    chain = []
    e: BaseException | None = exc
    while e is not None:
        chain.append(e)
        e = e.__cause__ or e.__context__
    for e in chain:
        if isinstance(e, MissingConfigException) and e.missing_cfg_file:
            group, _, option = str(e.missing_cfg_file).rpartition("/")
            options = sorted(o for o in e.options or [] if not o.endswith(SCHEMA_SUFFIX))
            allowed = f"one of {', '.join(options)}" if options else "an existing option"
            return f"config error: {group or 'config'}={option!r}: {allowed}"
    for e in chain:
        key = getattr(e, "full_key", None)
        if key:
            msg = str(getattr(e, "msg", e)).splitlines()[0]
            value = _argv_value(key, argv)
            if value is None:
                value = getattr(e, "value", None)
            if "not in" in msg:
                return (
                    f"config error: {key}={value!r}: no such field "
                    "(python run.py --cfg job lists the fields of the selected options)"
                )
            return f"config error: {key}={value!r}: {msg}"
    first = " ".join(str(exc).split("\n")[0].split())
    sweep = SWEEP_WITHOUT_M.match(first)
    if sweep:
        return sweep_needs_m(sweep[1])
    return f"config error: {first}"


def sweep_needs_m(override: str) -> str:
    """One line for a sweep given without ``-m`` (Hydra: "Ambiguous value …"), suggesting
    ``-m`` and, for a plain comma list, the list value ``key=[…]`` of one run."""
    key, _, value = override.partition("=")
    line = f"config error: {override}: several values make a sweep: add -m for one job per value (python run.py -m {override})"
    if "," in value and not any(c in value for c in "[](){}"):
        line += f", or {key}=[{value}] for one run with a list value (m and bounds take lists)"
    return line


def results_dir_error(exc: OSError, argv: list[str]) -> str | None:
    """One line for a file-system error inside ``results_dir`` (None for any other error)."""
    value = _argv_value("results_dir", argv) or "results"
    root = Path(value).expanduser().absolute()
    path = Path(str(exc.filename or "")).absolute()
    if exc.filename is None or root != path and root not in path.parents:
        return None
    return f"config error: results_dir={value!r}: a folder this user can write to ({path}: {exc.strerror})"


# -- command-line shorthand ----------------------------------------------------------------
def _selected(argv: list[str], group: str, default: str) -> list[str]:
    for arg in argv:
        if arg.startswith(f"{group}="):
            return [v for v in arg.split("=", 1)[1].split(",") if v]
    return [default]


def _group_fields(group: str, option: str) -> set[str]:
    from kktheory.cluster.clusterers import CLUSTERERS
    from kktheory.datasets import DATASETS
    from kktheory.kernels.functions import KernelConfig
    from kktheory.embeddings import SKETCHES

    registry = {"sketch": SKETCHES, "clustering": CLUSTERERS, "dataset": DATASETS}.get(group)
    if group == "kernel":
        cls = KernelConfig
    elif registry is not None and option in registry.names():
        cls = registry.get(option).config_cls
    else:
        return set()
    return {f for f in cls.__dataclass_fields__ if f != "name"}


def expand_shorthand(argv: list[str], defaults: dict[str, str]) -> list[str]:
    """Let group parameters be given without their group prefix.

    ``python run.py sketch=ros transform=hadamard`` is rewritten to
    ``sketch.transform=hadamard`` when ``transform`` is not a top-level field and exactly
    one selected group option has a field of that name. Anything else is left for Hydra
    (which rejects unknown keys).
    """
    from kktheory.run.config import GROUPS, RunConfig

    top = set(RunConfig.__dataclass_fields__)
    out = []
    for arg in argv:
        key, sep, value = arg.partition("=")
        if sep and key.isidentifier() and key not in top and key != "hydra":
            owners = [
                g for g in GROUPS
                if any(key in _group_fields(g, opt) for opt in _selected(argv, g, defaults[g]))
            ]
            if len(owners) == 1:
                arg = f"{owners[0]}.{key}={value}"
        out.append(arg)
    return out


class SignalRecord:
    """The signals received while a command runs (SIGINT, SIGTERM), each raised as an exception.

    A signal can arrive anywhere, also inside Hydra's or OmegaConf's bookkeeping between two
    jobs, where the exception it raises may be replaced by another one on the way out (an
    ``AttributeError`` from a half-restored config). The record, not the exception's type,
    says that the command was interrupted.
    """

    def __init__(self) -> None:
        self.received: list[int] = []

    def __call__(self, signum: int, frame: object) -> None:
        self.received.append(signum)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def run_main(main: Callable[[], None], defaults: dict[str, str]) -> int:
    """Run Hydra's main with the shorthand expanded; map user errors to exit status 2 and a
    received signal to 128 + its number, whatever exception it ended in."""
    os.environ["HYDRA_FULL_ERROR"] = "1"
    try:  # the first use of the registries: a plugin that cannot join ends here (kktheory.plugins)
        sys.argv[1:] = expand_shorthand(sys.argv[1:], defaults)
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USER_ERROR
    record = SignalRecord()
    main_thread = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, record) for s in (signal.SIGINT, signal.SIGTERM)} if main_thread else {}
    try:
        status = _exit_status(main)
    except BaseException:
        if not record.received:
            raise
        status = None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if record.received:
        print(INTERRUPTED, file=sys.stderr)
        return 128 + record.received[0]
    assert status is not None
    return status


def _exit_status(main: Callable[[], None]) -> int:
    """Run ``main``; the exit status of each way it can end (signals aside)."""
    from hydra.errors import HydraException

    try:
        main()
    except SystemExit as exc:
        return int(exc.code or 0)
    except ValueError as exc:  # Hydra's command-line checks that are not HydraExceptions
        if not str(exc).startswith(ONE_COMMAND):
            raise
        print(
            "config error: -m/--multirun, --cfg, --info, --run, --shell-completion: only one at a "
            "time; to see the config of one job of a sweep, drop -m and give that job's values "
            "(python run.py m=10 --cfg job)",
            file=sys.stderr,
        )
        return EXIT_USER_ERROR
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USER_ERROR
    except (HydraException, OmegaConfBaseException) as exc:
        inner = exc
        while inner is not None and not isinstance(inner, UserError):
            inner = inner.__cause__ or inner.__context__
        print(str(inner) if inner is not None else one_line(exc, sys.argv[1:]), file=sys.stderr)
        return EXIT_USER_ERROR
    except OSError as exc:  # Hydra creates its output folder under results_dir first
        line = results_dir_error(exc, sys.argv[1:])
        if line is None:
            raise
        print(line, file=sys.stderr)
        return EXIT_USER_ERROR
    return 0


def run_job(cfg: DictConfig) -> None:
    """The body of one Hydra job: run the experiment and print its summary."""
    from hydra.utils import to_absolute_path

    from kktheory.run.experiment import run
    from kktheory.run.summary import summary

    from kktheory.machine.threads import hydra_launcher_threads

    results_dir = cfg.results_dir
    OmegaConf.set_struct(cfg, False)
    cfg.results_dir = to_absolute_path(results_dir)
    if cfg.get("threads") is None:  # joblib launcher: share the cores between the jobs
        cfg.threads = hydra_launcher_threads()
    OmegaConf.set_struct(cfg, True)
    try:
        refuse_schemas()
        outcome = run(cfg)
    except (UserError, OmegaConfBaseException) as exc:
        line = str(exc) if isinstance(exc, UserError) else one_line(exc, sys.argv[1:])
        discard_job_dir(cfg.results_dir)
        job = sweep_job()
        if job is None:  # single run: raised past Hydra's job wrapper, which would log it at length
            print(line, file=sys.stderr)
            raise SystemExit(EXIT_USER_ERROR) from None
        # sweep: Hydra records the failure and runs the other jobs, then raises it
        print(f"job {job}: {line}", file=sys.stderr)
        raise JobFailed(SWEEP_FAILED) from None
    text = summary(outcome.rows, outcome.skipped, results_dir)
    number = sweep_job_number()
    print(text if number is None else "\n".join(f"job {number}: {line}" for line in text.splitlines()))


def refuse_schemas() -> None:
    """A ``<group>=<name>_schema`` selection is refused: a schema types the options, it is not one."""
    from hydra.core.hydra_config import HydraConfig

    for group, option in HydraConfig.get().runtime.choices.items():
        if option and str(option).endswith(SCHEMA_SUFFIX) and not group.startswith("hydra"):
            raise ConfigError(
                group, option, f"one of {', '.join(group_options(group))} ({option} is the dataclass typing them)"
            )


def discard_job_dir(results_dir: str) -> None:
    """Remove what Hydra wrote for this job — the composed configs in ``.hydra/`` and the
    job's log file — and then the folders left empty, up to ``results_dir`` itself.

    Only a job folder inside ``results_dir`` (as ``hydra.run.dir`` and ``hydra.sweep.dir``
    of configs/config.yaml put it) is touched, and only Hydra's own files and empty folders
    are removed.
    """
    from hydra.core.hydra_config import HydraConfig

    hc = HydraConfig.get()
    out, root = Path(hc.runtime.output_dir).absolute(), Path(results_dir).absolute()
    if root not in out.parents:
        return
    for handler in list(logging.getLogger().handlers):  # the job's log file
        if isinstance(handler, logging.FileHandler) and out in Path(handler.baseFilename).parents:
            logging.getLogger().removeHandler(handler)
            handler.close()
            Path(handler.baseFilename).unlink(missing_ok=True)
    folders = [out]
    if hc.output_subdir:
        folders.insert(0, out / hc.output_subdir)
        for name in HYDRA_JOB_FILES:
            (out / hc.output_subdir / name).unlink(missing_ok=True)
    folders += [p for p in out.parents if p == root or root in p.parents]
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (or already gone): what is above it stays
            if folder.exists():
                break


def sweep_job_number() -> int | None:
    """The number of the running job in a multirun (Hydra's ``job.num``), None in a single run."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    if not HydraConfig.initialized() or HydraConfig.get().mode != RunMode.MULTIRUN:
        return None
    return int(HydraConfig.get().job.num)


def sweep_job() -> str | None:
    """``<number> (<overrides>)`` of the running job in a multirun, None in a single run."""
    from hydra.core.hydra_config import HydraConfig

    number = sweep_job_number()
    if number is None:
        return None
    return f"{number} ({' '.join(HydraConfig.get().overrides.task)})"


def plugin_error() -> str | None:
    """Load every registry with its plugins — importing :mod:`kktheory.run.config` does, as
    Hydra needs before it composes — and return the one line of a plugin that cannot join
    (:class:`kktheory.plugins.PluginError`), None when all joined. The commands that compose
    configs (``reproduce``, ``timing``) call it first: a broken plugin ends them with that
    line, exit status 2, before anything is run or written."""
    try:
        import kktheory.run.config  # noqa: F401  (its import loads the registries)
    except UserError as exc:
        return str(exc)
    return None


class OneLineParser(argparse.ArgumentParser):
    """argparse with bad arguments reported in one line (exit status 2), without usage."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (--help shows the usage)", file=sys.stderr)
        raise SystemExit(2)
