"""The Gaussian kernel κ(x, y) = exp(−‖x − y‖² / (2σ²)), σ given directly (``bandwidth=fixed``)
or by a rule computed from the training points:


- ``wang`` (Wang, Gittens & Mahoney 2019, eq. 5): σ = β·sqrt((1/n²) Σ_ij ‖x_i − x_j‖²);
- ``yin`` (Yin et al. 2022, §5.2, as printed): κ = exp(−‖x − y‖²/σ_Y²) with
  σ_Y² = Σ_ij ‖x_i − x_j‖² / n. In this module's parameterisation σ² = σ_Y²/2.
  As printed, σ_Y² grows linearly with n (it is 2·Σ_i ‖x_i − x̄‖²), which makes the
  kernel nearly constant for large n; ``yin_n2`` is the variant normalised by n²
  (σ_Y² = mean pairwise squared distance), which we believe was intended.

Σ_ij ‖x_i − x_j‖² = 2n Σ_i ‖x_i − x̄‖² is computed in O(nd), never by pairs.

Blocks: exp(min(⟨x, y⟩/σ² − ‖x‖²/(2σ²) − ‖y‖²/(2σ²), 0)) = exp(−‖x − y‖²/(2σ²)), one GEMM
(Yᵀ scaled by 1/σ² once) and four in-place passes over the block (the min clips round-off
that would make a squared distance negative); κ(x, x) = 1 without reading X.

The identity loses the squared distances below its round-off, about
ROUNDOFF·eps·(‖x‖² + ‖y‖²): a point and itself get d² ≈ 1e-16·‖x‖² instead of 0. That is
harmless unless σ is tiny relative to the data's norms, where exp(−d²/(2σ²)) would turn
the round-off into κ(x, x) < 1 (σ = 1e-8 on unit-scale data: κ(x, x) ≈ 0.6, inconsistent
with ``diag`` = 1). So when the round-off can move κ by more than √eps
(:meth:`Kernel.roundoff_shows`, one scalar test per block), the squared distances below
it are set to 0 — duplicates then get κ = 1 exactly.
"""

from __future__ import annotations

import math

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import KERNELS, Kernel, KernelConfig, KernelFamily, mean_sq_dist_to_mean

BANDWIDTH_RULES = ("fixed", "wang", "yin", "yin_n2")
#: squared distances below ROUNDOFF·eps·(‖x‖² + ‖y‖²) are round-off of the formula
ROUNDOFF = 8.0


def roundoff_shows(kernel: Kernel, dt: np.dtype, sq_sum: float) -> bool:
    """Whether the round-off of ‖x‖² + ‖y‖² − 2⟨x, y⟩ (about ROUNDOFF·eps·(‖x‖² + ‖y‖²))
    can change exp(−d²/(2σ²)) by more than √eps (tiny σ relative to the data's norms)."""
    eps = float(np.finfo(dt).eps)
    return ROUNDOFF * eps * sq_sum / (2.0 * kernel.sigma**2) > math.sqrt(eps)


def resolve_sigma(cfg: KernelConfig, X_train: np.ndarray, spread: float | None = None) -> float:
    """σ of the Gaussian kernel exp(−‖x−y‖²/(2σ²)) for the config's bandwidth rule.

    ``spread`` is :func:`mean_sq_dist_to_mean` of the training points when the caller has
    it already (the Dask backend computes it chunk by chunk); otherwise it is computed here.
    """
    n = len(X_train)
    if cfg.bandwidth == "fixed":
        return float(cfg.sigma)
    if spread is None:
        spread = mean_sq_dist_to_mean(X_train)
    pair_sum = 2.0 * n * n * spread  # Σ_ij ‖x_i − x_j‖²
    if cfg.bandwidth == "wang":
        return float(cfg.beta * np.sqrt(pair_sum / n**2))
    if cfg.bandwidth == "yin":  # σ_Y² = Σ_ij/n (as printed); σ² = σ_Y²/2
        return float(np.sqrt(pair_sum / n / 2.0))
    if cfg.bandwidth == "yin_n2":  # σ_Y² = Σ_ij/n²
        return float(np.sqrt(pair_sum / n**2 / 2.0))
    raise ConfigError("kernel.bandwidth", cfg.bandwidth, f"one of {', '.join(BANDWIDTH_RULES)}")


class Gaussian(KernelFamily):
    """exp(−‖x − y‖²/(2σ²)) (module docstring)."""

    fields = ("bandwidth", "sigma", "beta")

    def used(self, cfg: KernelConfig) -> tuple[str, ...]:
        """``sigma`` only with ``bandwidth=fixed``, ``beta`` only with ``bandwidth=wang``."""
        return tuple(f for f in self.fields if {"sigma": "fixed", "beta": "wang"}.get(f, cfg.bandwidth) == cfg.bandwidth)

    def validate(self, cfg: KernelConfig) -> None:
        if cfg.bandwidth not in BANDWIDTH_RULES:
            raise ConfigError("kernel.bandwidth", cfg.bandwidth, f"one of {', '.join(BANDWIDTH_RULES)}")
        if cfg.bandwidth == "fixed" and not (math.isfinite(cfg.sigma) and cfg.sigma > 0):
            raise ConfigError("kernel.sigma", cfg.sigma, "a positive finite number")
        if cfg.bandwidth == "wang" and not (math.isfinite(cfg.beta) and cfg.beta > 0):
            raise ConfigError("kernel.beta", cfg.beta, "a positive finite number")

    def make(self, cfg: KernelConfig, X_train: np.ndarray, dtype: str, spread: float | None) -> Kernel:
        sigma = resolve_sigma(cfg, X_train, spread)
        if not (np.isfinite(sigma) and sigma > 0):
            raise ConfigError(
                "kernel.bandwidth",
                cfg.bandwidth,
                f"a rule giving σ > 0 (got σ={sigma}: are all training points identical?)",
            )
        return Kernel("gaussian", sigma=sigma, dtype=dtype)

    def prepare(self, kernel: Kernel, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Yᵀ/σ² and ‖y‖²/(2σ²)."""
        dt = Y.dtype
        scale = 1.0 / kernel.sigma**2
        Yt = np.ascontiguousarray(Y.T * np.asarray(scale, dtype=dt))
        half_sq = (np.einsum("ij,ij->i", Y, Y) * (0.5 * scale)).astype(dt, copy=False)
        return Yt, half_sq

    def finish(self, kernel: Kernel, G: np.ndarray, X: np.ndarray, half_sq: np.ndarray | None) -> np.ndarray:
        dt = X.dtype
        half_x = (np.einsum("ij,ij->i", X, X) * (0.5 / kernel.sigma**2)).astype(dt, copy=False)
        G -= half_x[:, None]
        G -= half_sq[None, :]
        # G = −d²/(2σ²): d² ≤ ROUNDOFF·eps·(‖x‖² + ‖y‖²) ⟺ G ≥ −ROUNDOFF·eps·(half_x + half_y)
        top = float(half_x.max(initial=0.0) + half_sq.max(initial=0.0))
        if roundoff_shows(kernel, dt, 2.0 * kernel.sigma**2 * top):
            G[G >= -ROUNDOFF * dt.type(np.finfo(dt).eps) * np.add.outer(half_x, half_sq)] = 0.0
        np.minimum(G, 0.0, out=G)
        np.exp(G, out=G)
        return G

    def paired(self, kernel: Kernel, g: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        dt = X.dtype
        norms = np.einsum("ij,ij->i", X, X) + np.einsum("ij,ij->i", Y, Y)
        sq = norms - 2.0 * g
        if roundoff_shows(kernel, dt, norms.max(initial=0.0)):
            sq[sq <= ROUNDOFF * dt.type(np.finfo(dt).eps) * norms] = 0.0
        np.maximum(sq, 0.0, out=sq)
        return np.exp(sq * (-1.0 / (2.0 * kernel.sigma**2))).astype(np.float64)

    def diag(self, kernel: Kernel, X: np.ndarray) -> np.ndarray:
        return np.ones(len(X))


KERNELS.register("gaussian", KernelConfig)(Gaussian())
