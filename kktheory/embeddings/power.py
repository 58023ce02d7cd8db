"""Approximate kernel k-means by the power method (Wang, Gittens & Mahoney 2019, Alg. 1).

1. Draw a Gaussian P ∈ R^{n×c} (c = the run's m);
2. repeat t times: P ← K·P;
3. U = orth(P) (n × c, orthonormal columns);
4. C = K·U, W = Uᵀ·K·U;
5. B with B Bᵀ = (C W⁺ Cᵀ)_s — computed as in Alg. 2 with no truncation of W
   (:func:`~kktheory.embeddings.projection.rank_restricted` with ℓ = c).

As t grows span(U) tends to the top-c eigenspace of K and B Bᵀ to K_s, the KPCA
approximation (Theorem 4: t = O(log(n/ε)/ε) iterations suffice for a 1 + ε + k/s ratio).
Out of sample b(x) = Mᵀ Uᵀ κ(X, x) with B = K U M: a projection embedding (``residual``).

Parameters: ``s`` (integer or ``k`` default | ``sqrt_kc`` | ``half_c`` | ``c``, s ≤ c),
``t`` (iterations, default 1), ``eig_cutoff`` (relative cutoff for W⁺).
Deviations: P is re-orthonormalised (thin QR) after every product K·P — the same
subspace in exact arithmetic, but without it the columns of K^t P collapse onto the top
eigenvector in floating point; t = 0 is allowed (U = orth(P): Nyström with a Gaussian
sketch), the paper asks t ≥ 1.

Stored arrays: the Gaussian P (n × c) is recorded, not stored: ``sketch_P_rng_state``
and ``sketch_P_shape`` = (c, n), P = ``rng.standard_normal((c, n))``ᵀ/√c, the first draw of
``component_rng(seed, "sketch")``; :meth:`kktheory.embeddings.sketching_matrices.Gaussian.redraw`
(``name="sketch_P"``) draws it again bit for bit.

Cost: K in O(n²d) time and n² memory (checked against the budget first: small n only),
t + 1 products K·U in O(n²c), QR in O(nc²) each; memory n² + O(nc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, SketchConfig
from kktheory.embeddings.linalg import resolve_rank
from kktheory.embeddings.projection import (
    KernelProjection,
    check_eig_cutoff,
    rank_restricted,
    require_kernel_matrix,
)
from kktheory.embeddings.sketching_matrices import Gaussian


@dataclass
class PowerConfig(SketchConfig):
    name: str = "power"
    s: Any = "k"  # target rank: integer or k | sqrt_kc | half_c | c (c = m), s ≤ c
    t: int = 1  # power iterations
    eig_cutoff: float = 1e-12  # drop eigenvalues of W below eig_cutoff * λ_max


@SKETCHES.register("power", PowerConfig)
class PowerMethod(KernelProjection):
    """Rank-s Nyström approximation of K from t power iterations (Wang Alg. 1)."""

    not_from_landmark_rows = "its subspace comes from products with all of K (P ← K·P)"

    capabilities = Capabilities(projection=True, rank_restricted=True)

    def validate(self, m: int) -> None:
        p = self.params
        s = resolve_rank(p.s, "sketch.s", self.ctx.k, m)
        if s > m:
            raise ConfigError("sketch.s", p.s, f"s ≤ c = m = {m} (resolved s={s})")
        if isinstance(p.t, bool) or not isinstance(p.t, int) or p.t < 0:
            raise ConfigError("sketch.t", p.t, "an integer ≥ 0")
        check_eig_cutoff("sketch.eig_cutoff", p.eig_cutoff)
        require_kernel_matrix(
            self.ctx.n, self.ctx.dtype, self.ctx.budget, "the power method multiplies by K",
            "use sketch=nystrom_rr for large n",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "PowerMethod":
        p = self.params
        s = resolve_rank(p.s, "sketch.s", self.ctx.k, m)
        require_kernel_matrix(
            len(X), kernel.dtype, self.ctx.budget, "the power method multiplies by K",
            "use sketch=nystrom_rr for large n",
        )
        K = kernel.matrix(X, X, self.ctx.budget)
        P = Gaussian(len(X), m, rng)
        self.P_arrays_ = {f"sketch_{name}": a for name, a in P.arrays().items()}
        U = np.linalg.qr(P.P)[0]
        for _ in range(p.t):
            U = np.linalg.qr(K @ U)[0]
        C = np.asarray(K @ U, dtype=np.float64)
        M, B = rank_restricted(C, U.T @ C, m, s, p.eig_cutoff)
        self.set_map(X, kernel, None, U @ M, train_features=B.astype(kernel.dtype, copy=False))
        self.info_.update(s=s, s_used=int(B.shape[1]))
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The record of the Gaussian P (module docstring)."""
        return self.P_arrays_
