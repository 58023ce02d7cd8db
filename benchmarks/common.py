"""Helpers shared by the benchmark scripts: the machine line, timing, MNIST, composed configs."""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parent.parent
ROWS_DIR = ROOT / "paper_figs" / "rows"  # the committed rows (benchmark records beside them)
sys.path.insert(0, str(ROOT))

from kktheory.machine.memory import cpu_count  # noqa: E402


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; the platform's processor string elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine() -> str:
    """One line: CPU model, CPUs, RAM, load average (other jobs share the machine)."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    ram = psutil.virtual_memory().total / 2**30
    return f"{cpu_model()}, {cpu_count()} CPUs, {ram:.1f} GiB RAM, load average {load}"


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """(fn(), wall-clock seconds)."""
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def mnist_train(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n MNIST training images (float64 pixels / 255) and labels, via the mnist data set."""
    from kktheory.datasets import DATASETS
    from kktheory.seeding import component_rng

    entry = DATASETS.get("mnist")
    data = entry.impl(entry.config_cls(), n, 1, 10, component_rng(seed, "data"))
    return data.X_train, data.y_train


def compose(*overrides: str):
    """The run config ``python run.py <overrides>`` would compose."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from kktheory.run.sweeps import CONFIG_DIR
    from kktheory.cli import expand_shorthand
    from kktheory.cli import DEFAULT_GROUPS

    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=expand_shorthand(list(overrides), DEFAULT_GROUPS))
