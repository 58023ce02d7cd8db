"""Random Fourier features for the Gaussian kernel (Rahimi & Recht 2007), with the rank
reduction of Wang, Gittens & Mahoney (2019), §5.1.

For κ(x, y) = exp(−‖x − y‖²/(2σ²)) (σ = ``kernel.sigma``), Bochner's theorem gives
κ(x, y) = E[2 cos(ωᵀx + b) cos(ωᵀy + b)] with ω ~ N(0, σ^{-2} I_d) and b ~ U[0, 2π], so
with D i.i.d. draws (ω_j, b_j) the features

    z(x) = √(2/D) [cos(ω_jᵀx + b_j)]_{j=1..D}

give an unbiased estimate z(x)ᵀz(y) of κ(x, y) with O(1/√D) error (Rahimi & Recht 2007,
Claim 1). D is the run's sketch size m (Wang compares Nyström and RFM at the same c).

Reduction (Wang §5.1, "to make the comparison fair"): with R = [z(x_1), …, z(x_n)]ᵀ
(n × D) and V_s its top-s right singular vectors, the features are B = R·V_s (so that
B·Bᵀ = (R·Rᵀ)_s). ``s``: null (no reduction, Wang's s = c), an integer, ``k`` or
``sqrt_kc`` (⌈√(k·D)⌉), Wang's three choices. New points get z(x)·V_s.

Gaussian kernel only: any other kernel is a ConfigError (raised at fit, since the
sketch's validate() does not see the kernel config).

Cost: O(nDd) time for R, O(nD²) for the reduction; memory O(nD). Nested sketches: the ω_j
and the b_j come from two independent child streams of the sketch generator, each drawn
in order, so the first D features are the same for any larger D.

Stored arrays: the phases ``sketch_phase`` (D) as they are; the frequencies (D × d) as the
record of their draw, ``sketch_omega_rng_state`` and ``sketch_omega_shape`` = (D, d):
Ω = ``omega_rng.standard_normal((D, d))``/σ with ``omega_rng, phase_rng =
rng.spawn(2)`` the children of the sketch generator (:class:`kktheory.seeding.NormalDraw`);
:meth:`RandomFourierFeatures.redraw` draws Ω again bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel, row_chunks
from kktheory.seeding import NormalDraw
from kktheory.embeddings.base import SKETCHES, Sketch, SketchConfig
from kktheory.embeddings.linalg import reduce_rank, resolve_rank


@dataclass
class RFFConfig(SketchConfig):
    name: str = "rff"
    s: Any = None  # reduced dimension: null (no reduction) | integer | k | sqrt_kc


def require_gaussian(kernel_name: str) -> None:
    """Random Fourier features exist here for the Gaussian kernel only."""
    if kernel_name != "gaussian":
        raise ConfigError(
            "kernel.name", kernel_name,
            "sketch=rff needs the gaussian kernel (random Fourier features of exp(−‖x−y‖²/(2σ²)))",
        )


@SKETCHES.register("rff", RFFConfig)
class RandomFourierFeatures(Sketch):
    """z(x) = √(2/D) cos(Ωx + b), optionally reduced to s dimensions (Wang §5.1)."""

    not_from_landmark_rows = "no fit from landmark rows is written for it (its map needs x and its frequencies only)"

    def target_dim(self, m: int) -> int:
        return resolve_rank(self.params.s, "sketch.s", self.ctx.k, m, hi=m)

    def validate(self, m: int) -> None:
        if self.ctx.kernel is not None:
            require_gaussian(self.ctx.kernel)
        self.target_dim(m)
        memory.require(
            2 * np.dtype(self.ctx.dtype).itemsize * self.ctx.n * m, self.ctx.budget,
            f"random Fourier features ({self.ctx.n}×{m}, {self.ctx.dtype}, and a reduced copy)",
            "use a smaller n or m",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "RandomFourierFeatures":
        require_gaussian(kernel.name)
        omega_rng, phase_rng = rng.spawn(2)
        self.kernel = kernel
        self.omega_draw_, N = NormalDraw.take(omega_rng, (m, X.shape[1]))
        self.omega_ = N / kernel.sigma  # D × d
        self.phase_ = phase_rng.uniform(0.0, 2.0 * math.pi, size=m)
        self.X_fit_ = X
        Z = self.fourier_features(X)
        s = self.target_dim(m)
        self.V_ = None
        if s < m:
            Z, self.V_ = reduce_rank(Z, s)
        self.features_ = Z
        self.info_ = {"rff_s": int(s)}
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The phases and the record of the frequencies' draw (module docstring)."""
        return {"sketch_phase": self.phase_, **self.omega_draw_.arrays("sketch_omega")}

    @staticmethod
    def redraw(arrays: dict[str, np.ndarray], sigma: float) -> np.ndarray:
        """Ω (D × d) from a run's stored arrays and its ``kernel_sigma``, bit for bit."""
        return NormalDraw.from_arrays(arrays, "sketch_omega").redraw() / sigma

    def fourier_features(self, X: np.ndarray) -> np.ndarray:
        """z(x) for every row of X (len(X) × D, in the kernel's dtype), computed in float64
        over row chunks (the cosine of large arguments needs float64)."""
        Z = np.empty((len(X), len(self.phase_)), dtype=self.kernel.dtype)
        start = 0
        for chunk in row_chunks(X):
            block = chunk @ self.omega_.T
            block += self.phase_
            np.cos(block, out=block)
            block *= math.sqrt(2.0 / len(self.phase_))
            Z[start : start + len(chunk)] = block
            start += len(chunk)
        return Z

    def transform(self, X: np.ndarray) -> np.ndarray:
        """z(x), or z(x)·V_s after reduction, for every row of X."""
        if self.on_training_rows(X):
            return self.features_
        Z = self.fourier_features(X)
        if self.V_ is not None:
            Z = Z @ self.V_.astype(Z.dtype, copy=False)
        return Z
