"""Rank-restricted Nyström embedding (Wang, Gittens & Mahoney 2019, Algorithm 2, §5.1).

With a sketching matrix P ∈ R^{n×c} (c = the run's m), C = K·P and W = Pᵀ·K·P:

1. W_ℓ = U_{W,ℓ} Λ_{W,ℓ} U_{W,ℓ}ᵀ, the top-ℓ eigenpairs of W (ℓ = ``ell``, default
   ⌈c/2⌉, Wang §5.1: "small singular values in W can lead to instability");
   R = C U_{W,ℓ} Λ_{W,ℓ}^{-1/2}, so R Rᵀ = C W_ℓ⁺ Cᵀ;
2. B = R V_s with V_s the top-s right singular vectors of R: B Bᵀ = (C W_ℓ⁺ Cᵀ)_s;
3. k-means on the rows of B (the base class).

s (``s``) and ℓ (``ell``) are integers or rules (``k``, ``sqrt_kc``, ``half_c``, ``c``;
:func:`~kktheory.sketches.projection.resolve_rank`), with 1 ≤ s ≤ ℓ ≤ c. Wang's
Theorem 2 concerns ℓ = c (no truncation, ``ell=c``); Alg. 2's truncation is a heuristic
the paper states has no theory.

P (``P``): ``uniform`` (default), ``leverage`` (row leverage scores of the top-s
eigenvectors of K, by Lanczos), ``gaussian``, ``srht``, ``countsketch`` — Wang Table 2,
built by :mod:`kktheory.sketching_matrices`. All but ``uniform`` need the whole n×n
kernel matrix (C = K·P): the run is refused up front when it does not fit the memory
budget.

Out of sample, B is the coordinate map of a projection in the RKHS: with Z = Φᵀ P the
sketched directions, C W_ℓ⁺ Cᵀ = Φ Π Φᵀ for the projection Π onto the top-ℓ principal
directions of Z, and b(x) = V_sᵀ Λ_{W,ℓ}^{-1/2} U_{W,ℓ}ᵀ Pᵀ κ(X, x) = Aᵀ κ(X_S, x) with
A = P·U_{W,ℓ} Λ_{W,ℓ}^{-1/2} V_s restricted to the rows S where P is nonzero (the sampled
landmarks for column sampling). So ``residual`` is defined.

Stored arrays: P's randomness (:mod:`kktheory.sketching_matrices`, names prefixed
``sketch_``): uniform and leverage ``landmarks`` (c sampled indices, with repeats for
leverage) and ``sketch_P_scale`` (c); srht ``sketch_P_signs`` (n) and ``sketch_P_columns``
(c); countsketch ``sketch_P_signs`` and ``sketch_P_buckets`` (n each); gaussian the record
``sketch_P_rng_state``, ``sketch_P_shape`` of P = ``rng.standard_normal((c, n))``ᵀ/√c, the
first draw of the sketch generator for that c (:meth:`Gaussian.redraw
<kktheory.sketching_matrices.Gaussian.redraw>` draws it again).

Cost: uniform O(ncd + c³ + nc²) time, O(nc) memory; other P add K (O(n²d) time, n² memory)
and the product K·P (Table 2's time column). Deviations: uniform sampling is without
replacement (see :mod:`kktheory.sketching_matrices`); eigenvalues of W below
``eig_cutoff``·λ_max are dropped even inside the top ℓ.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory import memory
from kktheory.errors import ConfigError
from kktheory.kernels import Kernel
from kktheory.sketches.base import SKETCHES, NestedFit, SketchConfig
from kktheory.sketches.linalg import resolve_rank
from kktheory.sketches.projection import (
    KernelProjection,
    check_eig_cutoff,
    rank_restricted,
    require_kernel_matrix,
)
from kktheory.sketching_matrices import (
    SKETCHING_MATRICES,
    ColumnSampling,
    SketchingMatrix,
    make_sketching_matrix,
    needs_full_kernel,
    rank_leverage_scores,
)
from kktheory.spectrum import top_eigenpairs


@dataclass
class NystromRRConfig(SketchConfig):
    name: str = "nystrom_rr"
    P: str = "uniform"  # sketching matrix: uniform | leverage | gaussian | srht | countsketch
    s: Any = "k"  # target rank: integer or k | sqrt_kc | half_c | c
    ell: Any = "half_c"  # truncation of W: integer or k | sqrt_kc | half_c | c
    eig_cutoff: float = 1e-12  # drop eigenvalues of W below eig_cutoff * λ_max


@SKETCHES.register("nystrom_rr", NystromRRConfig)
class NystromRR(KernelProjection):
    """Rank-restricted Nyström features B with BBᵀ = (C W_ℓ⁺ Cᵀ)_s (Wang Alg. 2)."""

    not_from_landmark_rows = "its rank restriction needs the kernel columns of all n rows together"

    rank_restricted = True

    def ranks(self, c: int) -> tuple[int, int]:
        """(s, ℓ) for sketch size c."""
        s = resolve_rank(self.params.s, "sketch.s", self.ctx.k, c)
        ell = resolve_rank(self.params.ell, "sketch.ell", self.ctx.k, c)
        return s, ell

    def validate(self, m: int) -> None:
        p = self.params
        if p.P not in SKETCHING_MATRICES:
            raise ConfigError("sketch.P", p.P, f"one of {', '.join(SKETCHING_MATRICES)}")
        s, ell = self.ranks(m)
        if ell > m:
            raise ConfigError("sketch.ell", p.ell, f"ell ≤ c = m = {m} (resolved ell={ell})")
        if s > ell:
            raise ConfigError(
                "sketch.s", p.s,
                f"s ≤ ell (resolved s={s}, ell={ell}, c = m = {m}): raise m, lower sketch.s "
                "or set sketch.ell",
            )
        check_eig_cutoff("sketch.eig_cutoff", p.eig_cutoff)
        n = self.ctx.n
        memory.require(
            3 * n * m * 8, self.ctx.budget,
            f"the rank-restricted Nyström sketch (C = K·P, its kernel columns and R: 3 × {n}×{m})",
            "use a smaller n or m",
        )
        if needs_full_kernel(p.P):
            require_kernel_matrix(
                self.ctx.n, self.ctx.dtype, self.ctx.budget,
                f"sketch.P={p.P} forms C = K·P from all of K", "use sketch.P=uniform for large n",
            )

    def sketching_matrix(
        self, X: np.ndarray, kernel: Kernel, c: int, rng: np.random.Generator, K: np.ndarray | None
    ) -> SketchingMatrix:
        """P for sketch size c (leverage: scores of the top-s eigenvectors of K)."""
        leverage = None
        if self.params.P == "leverage":
            s, _ = self.ranks(c)
            _, V = top_eigenpairs(kernel, X, s, self.ctx.budget, rng, K)
            leverage = rank_leverage_scores(V)
        return make_sketching_matrix(self.params.P, len(X), c, rng, leverage)

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "NystromRR":
        K = self.full_kernel(X, kernel)
        P = self.sketching_matrix(X, kernel, m, rng, K)
        return self.fit_sketch(X, kernel, P, P.kernel_sketch(kernel, X, self.ctx.budget, K))

    def full_kernel(self, X: np.ndarray, kernel: Kernel) -> np.ndarray | None:
        """K = κ(X, X) when P needs it (after the memory check), else None."""
        if not needs_full_kernel(self.params.P):
            return None
        require_kernel_matrix(
            len(X), kernel.dtype, self.ctx.budget,
            f"sketch.P={self.params.P} forms C = K·P from all of K", "use sketch.P=uniform for large n",
        )
        return kernel.matrix(X, X, self.ctx.budget)

    def fit_sketch(
        self, X: np.ndarray, kernel: Kernel, P: SketchingMatrix, C: np.ndarray
    ) -> "NystromRR":
        """Steps 1–2 of Alg. 2 from P and C = K·P."""
        s, ell = self.ranks(P.c)
        W = P.right(C.T).T  # Pᵀ C = Pᵀ K P
        M, B = rank_restricted(C, W, ell, s, self.params.eig_cutoff)
        support = P.support()
        coef = P.left(M)
        if support is not None:
            coef = coef[support]
        self.set_map(X, kernel, support, coef, train_features=B.astype(kernel.dtype, copy=False))
        if isinstance(P, ColumnSampling):
            self.landmarks_ = P.idx
        self.P_arrays_ = {f"sketch_{name}": a for name, a in P.arrays().items()}
        self.info_.update(s=s, ell=ell, s_used=int(B.shape[1]))
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """``landmarks`` (column sampling) and P's other arrays (module docstring)."""
        return {**super().arrays(), **self.P_arrays_}

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "NystromRR"]]:
        """Uniform P: one permutation and one K_{n,c_max} for all c (prefixes).
        Other P: K formed once, a fresh P per c from the same stream."""
        params, ctx, X, kernel, ms, make_rng = job
        probe = cls(params, ctx)
        n = len(X)
        if params.P == "uniform":
            P_max = ColumnSampling.uniform(n, max(ms), make_rng())
            K_cols = kernel.matrix(X, X[P_max.idx], ctx.budget)
            for c in ms:
                P = ColumnSampling(n, P_max.idx[:c], np.full(c, np.sqrt(n / c)))
                C = K_cols[:, :c] * P.scale.astype(K_cols.dtype)  # the run's dtype
                yield c, cls(params, ctx).fit_sketch(X, kernel, P, C)
            return
        K = probe.full_kernel(X, kernel)
        for c in ms:
            sketch = cls(params, ctx)
            P = sketch.sketching_matrix(X, kernel, c, make_rng(), K)
            yield c, sketch.fit_sketch(X, kernel, P, P.kernel_sketch(kernel, X, ctx.budget, K))
