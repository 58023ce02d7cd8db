"""Glue between Hydra's entry point (run.py) and kktheory.experiment.

Hydra is asked to let exceptions through (HYDRA_FULL_ERROR=1) so that every error the user
can fix — ours (:class:`~kktheory.errors.UserError`) or Hydra's and OmegaConf's
composition and type errors — is printed as one line with exit status 2.

In a sweep (``-m``), a job that fails validation prints its line prefixed with the job's
number and overrides, and the other jobs still run; the sweep then ends with status 2
(validation comes before any work, so a failed job costs nothing and writes nothing).

Ctrl-C (SIGINT) and SIGTERM (e.g. a scheduler's preemption) end the process through an
exception, so that the store's temporary files are removed on the way out; only whole run
files remain, and rerunning the same command computes exactly the missing runs. The exit
status is 128 + the signal number (130, 143), with one line saying so. (SIGKILL cannot be
caught: its temporary files are removed by the next run, see :mod:`kktheory.store`.)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from omegaconf import DictConfig, OmegaConf

from kktheory.errors import UserError

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"
EXIT_USER_ERROR = 2
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


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


def default_groups(config_dir: Path = CONFIG_DIR) -> dict[str, str]:
    """Default option of each config group, read from configs/config.yaml."""
    defaults = OmegaConf.load(config_dir / "config.yaml").get("defaults", [])
    return {k: v for item in defaults if isinstance(item, DictConfig) for k, v in item.items()}


DEFAULT_GROUPS = default_groups() if (CONFIG_DIR / "config.yaml").exists() else {}


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
            options = sorted(o for o in e.options or [] if not o.endswith("_schema"))
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
    return f"config error: {first}"


def results_dir_error(exc: OSError, argv: list[str]) -> str | None:
    """One line for a file-system error inside ``results_dir`` (None for any other error)."""
    value = _argv_value("results_dir", argv) or "results"
    root = Path(value).expanduser().absolute()
    path = Path(str(exc.filename or "")).absolute()
    if exc.filename is None or root != path and root not in path.parents:
        return None
    return f"config error: results_dir={value!r}: a folder this user can write to ({path}: {exc.strerror})"


def run_main(main: Callable[[], None], defaults: dict[str, str]) -> int:
    """Run Hydra's main with the shorthand expanded; map user errors to exit status 2."""
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from kktheory.config import expand_shorthand

    os.environ["HYDRA_FULL_ERROR"] = "1"
    sys.argv[1:] = expand_shorthand(sys.argv[1:], defaults)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _raise_terminated) if main_thread else None
    try:
        main()
    except SystemExit as exc:
        return int(exc.code or 0)
    except KeyboardInterrupt as exc:
        print(INTERRUPTED, file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
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
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    return 0


def run_job(cfg: DictConfig) -> None:
    """The body of one Hydra job: run the experiment and print its summary."""
    from hydra.utils import to_absolute_path

    from kktheory.experiment import run
    from kktheory.summary import summary

    from kktheory.threads import hydra_launcher_threads

    results_dir = cfg.results_dir
    OmegaConf.set_struct(cfg, False)
    cfg.results_dir = to_absolute_path(results_dir)
    if cfg.get("threads") is None:  # joblib launcher: share the cores between the jobs
        cfg.threads = hydra_launcher_threads()
    OmegaConf.set_struct(cfg, True)
    try:
        outcome = run(cfg)
    except UserError as exc:
        job = sweep_job()
        if job is None:  # single run: raised past Hydra's job wrapper, which would log it at length
            print(str(exc), file=sys.stderr)
            raise SystemExit(EXIT_USER_ERROR) from None
        # sweep: Hydra records the failure and runs the other jobs, then raises it
        print(f"job {job}: {exc}", file=sys.stderr)
        raise JobFailed(SWEEP_FAILED) from None
    print(summary(outcome.rows, outcome.skipped, results_dir))


def sweep_job() -> str | None:
    """``<number> (<overrides>)`` of the running job in a multirun, None in a single run."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    if not HydraConfig.initialized() or HydraConfig.get().mode != RunMode.MULTIRUN:
        return None
    hc = HydraConfig.get()
    return f"{hc.job.num} ({' '.join(hc.overrides.task)})"
