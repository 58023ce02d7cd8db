"""The polynomial kernel κ(x, y) = (⟨x, y⟩ + c)^p (``kernel.degree`` p ≥ 1, ``kernel.coef0``
c ≥ 0, so that κ is positive semi-definite): the GEMM, then c added and the p-th power taken
in place; κ(x, x) = (‖x‖² + c)^p from row chunks."""

from __future__ import annotations

import math

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import KERNELS, Kernel, KernelConfig, KernelFamily, row_sq_norms


class Polynomial(KernelFamily):
    """(⟨x, y⟩ + c)^p (module docstring)."""

    fields = ("degree", "coef0")

    def validate(self, cfg: KernelConfig) -> None:
        if cfg.degree < 1:
            raise ConfigError("kernel.degree", cfg.degree, "an integer ≥ 1")
        if not (math.isfinite(cfg.coef0) and cfg.coef0 >= 0):
            raise ConfigError("kernel.coef0", cfg.coef0, "a finite number ≥ 0 (κ must be PSD)")

    def make(self, cfg: KernelConfig, X_train: np.ndarray, dtype: str, spread: float | None) -> Kernel:
        return Kernel("polynomial", degree=int(cfg.degree), coef0=float(cfg.coef0), dtype=dtype)

    def finish(self, kernel: Kernel, G: np.ndarray, X: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
        G += kernel.coef0
        if kernel.degree != 1:
            np.power(G, kernel.degree, out=G)
        return G

    def paired(self, kernel: Kernel, g: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        return ((g + kernel.coef0) ** kernel.degree).astype(np.float64)

    def diag(self, kernel: Kernel, X: np.ndarray) -> np.ndarray:
        return (row_sq_norms(X) + kernel.coef0) ** kernel.degree


KERNELS.register("polynomial", KernelConfig)(Polynomial())
