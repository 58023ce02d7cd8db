"""ROS sketch of Yin, Liu, Wang & Meng (2022), Example 2 of Algorithm 1 (eq. 12).

As printed (``order=sample_first``, default): R = S·Q with Q uniform sampling of m
landmarks (see :mod:`kktheory.embeddings.yin`) and S = D·A ∈ R^{m×m}, D a diagonal of i.i.d.
Rademacher signs and A an orthogonal matrix with bounded entries:

- ``transform=hadamard`` (Yin's choice): A = H_m/√m, H_m the Sylvester–Hadamard matrix;
  needs m a power of two (anything else is a ConfigError naming the nearest valid m and
  the DCT alternative). Applied by the fast Walsh–Hadamard transform
  (:func:`kktheory.embeddings.transforms.fwht`), O(m log m) per column, never a dense matrix.
- ``transform=dct`` (default, so that ``m=sqrt_n`` works): A = the orthonormal DCT-II
  (:func:`kktheory.embeddings.transforms.dct`, scipy.fft), any m, O(m log m) per column.

Features k̃_i = D·A·κ(landmarks, x_i). Cost: K̂ in O(nmd), S·K̂ in O(nm log m) time;
memory O(nm). JL scale m/n.

Deviation worth knowing: because S = D·A is orthogonal and applied after the sampling,
‖S·Q·(k_i − k_j)‖ = ‖Q·(k_i − k_j)‖ — the printed ROS sketch is an isometry of the
``yin_nystrom`` features, so k-means (distance based) sees the same geometry and returns the
same partition up to floating point. The ROS sketch of the kernel-sketching literature
(Yang, Pilanci & Wainwright 2017, "Randomized sketches for kernels", whose title Yin's
echoes) mixes all n coordinates before sampling; it is offered as ``order=mix_first``:
R = √(N/m)·P·A_N·D with D an n × n Rademacher diagonal, A_N = H_N/√N (n zero-padded to
N = next power of two) or the orthonormal DCT of order N = n, and P sampling m of the N
coordinates uniformly without replacement (:class:`kktheory.embeddings.transforms.SRHT`). It needs
one pass over all of K in row blocks (K is never held): O(n²d + n²log n) time, O(nm)
memory; E‖R v‖² = ‖v‖², so its JL scale is 1; any m ≤ n for either transform.

Nested sketches: sample_first draws the landmark permutation, then m_max signs (D for size
m is the first m of them; H_m is the leading block of H_{2m}, the DCT is taken per m);
mix_first draws one SRHT whose sampled coordinates are a prefix of one permutation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import SKETCHES, NestedFit, SketchConfig
from kktheory.embeddings.linalg import map_kernel_rows
from kktheory.embeddings.yin import SampledSketch
from kktheory.embeddings.transforms import SRHT, TRANSFORMS, is_power_of_two, orthonormal

ORDERS = ("sample_first", "mix_first")


@dataclass
class ROSConfig(SketchConfig):
    name: str = "ros"
    transform: str = "dct"  # hadamard (Yin's choice, m a power of two) | dct (any m)
    order: str = "sample_first"  # sample_first: R = D·A·Q as printed | mix_first: R = P·A_N·D


def nearest_powers_of_two(m: int, n: int) -> list[int]:
    """The powers of two just below and just above m that are valid sketch sizes (≤ n)."""
    below = 1 << (m.bit_length() - 1)
    above = below << 1
    return [v for v in (below, above) if 1 <= v <= n] or [below]


@SKETCHES.register("ros", ROSConfig)
class ROS(SampledSketch):
    """Yin Example 2, S = D·A (``order=sample_first``), or the mix-first ROS variant.

    Stored arrays — sample_first: ``landmarks`` (m) and ``sketch_signs`` (m, the diagonal
    of D, ±1.0), so that k̃_i = D·A·K̂_{:,i}; mix_first: ``sketch_signs`` (n, the diagonal
    of D) and ``sketch_columns`` (m, the coordinates of A_N·D·k_i kept, in order), so that
    k̃_i = √(N/m)·(A_N·D·k_i)[columns] (A_N = H_N/√N with k_i zero-padded to N, or the
    orthonormal DCT-II of order N = n).
    """

    def validate(self, m: int) -> None:
        p = self.params
        if p.transform not in TRANSFORMS:
            raise ConfigError("sketch.transform", p.transform, f"one of {', '.join(TRANSFORMS)}")
        if p.order not in ORDERS:
            raise ConfigError("sketch.order", p.order, f"one of {', '.join(ORDERS)}")
        if p.order == "sample_first" and p.transform == "hadamard" and not is_power_of_two(m):
            valid = " or ".join(str(v) for v in nearest_powers_of_two(m, self.ctx.n))
            raise ConfigError(
                "m", m,
                f"sketch=ros with transform=hadamard needs m a power of two (nearest valid m: "
                f"{valid}); or use transform=dct, which takes any m",
            )
        super().validate(m)

    @classmethod
    def landmark_rows_only(cls, params: Any) -> str | None:
        if params.order == "sample_first":
            return None
        return "order=mix_first mixes all n coordinates of each k_i (order=sample_first mixes the m sampled ones)"

    # -- order=sample_first: S = D·A on the m sampled coordinates ------------------------
    def draw(self, n: int, m_max: int, rng: np.random.Generator) -> np.ndarray:
        """The diagonal of D for every m ≤ m_max (a prefix of one sign sequence)."""
        return np.where(rng.random(m_max) < 0.5, -1.0, 1.0)

    def set_mixing(self, draw: np.ndarray, m: int) -> None:
        self.signs_ = draw[:m]

    def mix(self, K_nm: np.ndarray) -> np.ndarray:
        """(D·A·K̂)ᵀ, A applied along the m landmark coordinates by a fast transform."""
        AK = orthonormal(K_nm.T, self.params.transform)  # A·K̂, m × n
        return np.ascontiguousarray((AK * self.signs_.astype(AK.dtype)[:, None]).T)

    # -- order=mix_first: R = P·A_N·D on all n coordinates ---------------------------------
    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "ROS":
        if self.params.order == "sample_first":
            return super().fit(X, kernel, m, rng)
        return self._fit_mixed(X, kernel, SRHT(len(X), m, rng, self.params.transform), None)

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "ROS"]]:
        """sample_first: shared K̂; mix_first: one SRHT and one pass over K for the list."""
        params, ctx, X, kernel, ms, make_rng = job
        if params.order == "sample_first":
            yield from super().nested(job)
            return
        m_max = max(ms)
        srht = SRHT(len(X), m_max, make_rng(), params.transform)
        F = cls(params, ctx)._fit_mixed(X, kernel, srht, None).transform(X)
        for m in ms:
            F_m = F[:, :m] * np.asarray(math.sqrt(m_max / m), dtype=F.dtype)
            yield m, cls(params, ctx)._fit_mixed(X, kernel, srht.prefix(m), F_m)

    def _fit_mixed(
        self, X: np.ndarray, kernel: Kernel, srht: SRHT, F_train: np.ndarray | None
    ) -> "ROS":
        self.kernel, self.X_fit_, self.n_fit_ = kernel, X, len(X)
        self.srht_ = srht
        self.F_train_ = F_train
        return self

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Features of the rows of X (len(X) × m)."""
        if self.params.order == "sample_first":
            return super().transform(X)
        if self.F_train_ is not None and self.on_training_rows(X):
            return self.F_train_
        return map_kernel_rows(
            self.kernel, X, self.X_fit_, self.ctx.budget, self.srht_.right, self.srht_.c,
            desc="ros (mix_first)",
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The signs of D and the landmarks or sampled coordinates (class docstring)."""
        if self.params.order == "sample_first":
            return {**super().arrays(), "sketch_signs": np.asarray(self.signs_, dtype=np.float64)}
        return {f"sketch_{name}": a for name, a in self.srht_.arrays().items()}

    def jl_scale(self) -> float:
        """m/n for sample_first (Q sampling, S orthogonal); 1 for mix_first."""
        if self.params.order == "sample_first":
            return super().jl_scale()
        return 1.0
