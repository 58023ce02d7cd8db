"""How the catalogue's figures look: the plotting style, colours and markers, bands with
their 95 % intervals, and :func:`save_figure` (PNG and PDF side by side)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 130,
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "legend.fontsize": 8.5,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
}

#: one colour and marker per method across every figure of the report
PALETTE = {
    "exact": ("black", "s"),
    "kernel k-means": ("black", "s"),
    "nystrom": ("tab:blue", "o"),
    "nystrom_rls": ("tab:cyan", "v"),
    "nystrom_rr": ("tab:blue", "o"),
    "nystrom_liu": ("tab:purple", "D"),
    "yin_nystrom": ("tab:green", "^"),
    "subgaussian": ("tab:orange", "P"),
    "ros": ("tab:red", "X"),
    "gaussian": ("tab:brown", "*"),
    "kpca": ("black", "s"),
    "onepass": ("tab:red", "X"),
    "rff": ("tab:orange", "P"),
    "two_step": ("tab:gray", "d"),
    "spectral_nystrom": ("tab:olive", "v"),
    "kernel_columns": ("tab:pink", "h"),
}


def color_marker(key: str, i: int = 0) -> tuple[str, str]:
    """Colour and marker of a method (fallback: matplotlib's cycle)."""
    if key in PALETTE:
        return PALETTE[key]
    return f"C{i % 10}", "os^vDPX*dh"[i % 10]


def pyplot():
    """matplotlib.pyplot with the non-interactive Agg backend and the report style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save_figure(fig: Any, out_dir: Path, name: str) -> list[Path]:
    """Write ``name.png`` and ``name.pdf`` into out_dir; close the figure."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.pdf"]
    for p in paths:
        fig.savefig(p, bbox_inches="tight", metadata={"CreationDate": None} if p.suffix == ".pdf" else None)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths


def legend_below(fig: Any, axes: Any, ncol: int = 4) -> None:
    """One legend for the whole figure, below its panels, so that no legend covers data:
    every distinct label of ``axes`` (in the order first drawn), ``ncol`` to a line, and the
    panels laid out above it."""
    seen: dict[str, Any] = {}
    for ax in np.ravel(axes):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    lines = math.ceil(len(seen) / ncol)
    fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=min(ncol, len(seen)), frameon=False)
    fig.tight_layout(rect=(0, (0.3 * lines + 0.1) / fig.get_size_inches()[1], 1, 1))  # 0.3 inch a line


def band(ax: Any, x: np.ndarray, s: pd.DataFrame, label: str, key: str, i: int = 0,
         errorbars: bool = False) -> None:
    """Mean line with its confidence band (or error bars) from a :func:`mean_ci` frame."""
    color, marker = color_marker(key, i)
    if errorbars:
        ax.errorbar(x, s["mean"], yerr=[s["mean"] - s["lo"], s["hi"] - s["mean"]], color=color,
                    marker=marker, ms=5, capsize=3, label=label, lw=1.4)
    else:
        ax.plot(x, s["mean"], color=color, marker=marker, ms=5, label=label, lw=1.4)
        ax.fill_between(x, s["lo"], s["hi"], color=color, alpha=0.18, lw=0)


def grid_ticks(ax: Any, values: Any, axis: str = "x", apart: float = 1.35) -> None:
    """Major ticks at the grid values with plain integer labels (for log axes), no minor ticks;
    no two labels closer than a factor ``apart`` (a wide axis with few points may ask less)."""
    from matplotlib.ticker import NullLocator

    vals = sorted({int(round(v)) for v in values if np.isfinite(v) and v > 0})
    if len(vals) > 9:  # keep labels apart: every other value
        vals = vals[::2]
    kept: list[int] = []
    for v in reversed(vals):  # and no two labels closer than a factor `apart` (e.g. 400 beside 500):
        if not kept or apart * v <= kept[-1]:  # from the largest down, so a grid's ends keep theirs
            kept.append(v)
    vals = kept[::-1]
    set_ticks, set_labels, ax_obj = (
        (ax.set_xticks, ax.set_xticklabels, ax.xaxis) if axis == "x" else (ax.set_yticks, ax.set_yticklabels, ax.yaxis)
    )
    set_ticks(vals)
    set_labels([f"{v:,}" for v in vals])
    ax_obj.set_minor_locator(NullLocator())


def sqrt_n_line(ax: Any, n: float, label: bool = True) -> None:
    """The vertical line at m = √n."""
    ax.axvline(math.sqrt(n), color="0.35", ls="--", lw=1.1,
               label=f"m = √n = {math.sqrt(n):.0f}" if label else None)
