"""Rank-restricted Nyström embedding (Wang, Gittens & Mahoney 2019, Algorithm 2, §5.1).

With a sketching matrix P ∈ R^{n×c} (c = the run's m), C = K·P and W = Pᵀ·K·P:

1. W_ℓ = U_{W,ℓ} Λ_{W,ℓ} U_{W,ℓ}ᵀ, the top-ℓ eigenpairs of W (ℓ = ``ell``, default
   ⌈c/2⌉, Wang §5.1: "small singular values in W can lead to instability");
   R = C U_{W,ℓ} Λ_{W,ℓ}^{-1/2}, so R Rᵀ = C W_ℓ⁺ Cᵀ;
2. B = R V_s with V_s the top-s right singular vectors of R: B Bᵀ = (C W_ℓ⁺ Cᵀ)_s;
3. k-means on the rows of B (the base class).

s (``s``) and ℓ (``ell``) are integers or rules (``k``, ``sqrt_kc``, ``half_c``, ``c``;
:func:`~kktheory.embeddings.projection.resolve_rank`), with 1 ≤ s ≤ ℓ ≤ c. ``s`` may be a
list (Wang's Table 6 sweeps s at one c): the fit is made once at the largest s and every s
of the list is a row, whose map and features are the first s columns of that fit's
(:meth:`NystromRR.variants`) — the top-s right singular vectors of R are the first s of
the top-s_max, so each row is the run of that s alone, without refitting. The rows come
from the largest s to the smallest (each s's features are compacted in place from the
larger's). Wang's
Theorem 2 concerns ℓ = c (no truncation, ``ell=c``); Alg. 2's truncation is a heuristic
the paper states has no theory.

P (``P``): ``uniform`` (default), ``leverage`` (row leverage scores of the top-s
eigenvectors of K, by Lanczos), ``gaussian``, ``srht``, ``countsketch`` — Wang Table 2,
built by :mod:`kktheory.embeddings.sketching_matrices`. All but ``uniform`` need the whole n×n
kernel matrix (C = K·P): the run is refused up front when it does not fit the memory
budget.

Out of sample, B is the coordinate map of a projection in the RKHS: with Z = Φᵀ P the
sketched directions, C W_ℓ⁺ Cᵀ = Φ Π Φᵀ for the projection Π onto the top-ℓ principal
directions of Z, and b(x) = V_sᵀ Λ_{W,ℓ}^{-1/2} U_{W,ℓ}ᵀ Pᵀ κ(X, x) = Aᵀ κ(X_S, x) with
A = P·U_{W,ℓ} Λ_{W,ℓ}^{-1/2} V_s restricted to the rows S where P is nonzero (the sampled
landmarks for column sampling). So ``residual`` is defined.

Stored arrays: P's randomness (:mod:`kktheory.embeddings.sketching_matrices`, names prefixed
``sketch_``): uniform and leverage ``landmarks`` (c sampled indices, with repeats for
leverage) and ``sketch_P_scale`` (c); srht ``sketch_P_signs`` (n) and ``sketch_P_columns``
(c); countsketch ``sketch_P_signs`` and ``sketch_P_buckets`` (n each); gaussian the record
``sketch_P_rng_state``, ``sketch_P_shape`` of P = ``rng.standard_normal((c, n))``ᵀ/√c, the
first draw of the sketch generator for that c (:meth:`Gaussian.redraw
<kktheory.embeddings.sketching_matrices.Gaussian.redraw>` draws it again).

Cost: uniform O(ncd + c³ + nc²) time, O(nc) memory; other P add K (O(n²d) time, n² memory)
and the product K·P (Table 2's time column). Deviations: uniform sampling is without
replacement (see :mod:`kktheory.embeddings.sketching_matrices`); eigenvalues of W below
``eig_cutoff``·λ_max are dropped even inside the top ℓ.

Out of core (uniform P, when C, R and B — 3 × n × c float64 — do not fit the memory
budget; :meth:`NystromRR.streams`): C = K(X, X_S)·diag(√(n/c)) is never held. W = Pᵀ K P
comes from the c landmark rows alone; pass 1 reads the training rows in blocks (rows on
disk too, :class:`~kktheory.datasets.disk_rows.DiskRows`), computes each block C_b of C
and sums the ℓ × ℓ matrix RᵀR = Σ_b (C_b E)ᵀ(C_b E) in float64 (E = U_{W,ℓ} Λ_{W,ℓ}^{-1/2}),
whose top-s eigenvectors are V_s (:meth:`NystromRR.row_statistic`, :meth:`NystromRR.finish_fit`);
pass 2 is the training features B = C·(E V_s), block by block into the n × s output
(:meth:`~kktheory.embeddings.projection.KernelProjection.transform`). Same landmarks and
the same B as in memory up to round-off (V_s's signs are fixed the same way); the kernel
blocks are computed twice (O(2ncd + ncℓ + nℓ² + ncs) time), memory the n × s features, a
kernel block with its R_b and O(c²) (:meth:`NystromRR.streamed_bytes`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, NestedFit, SketchConfig
from kktheory.embeddings.landmark_rows import RowPass
from kktheory.embeddings.linalg import gram_f64, leading_columns_in_place, resolve_rank
from kktheory.embeddings.projection import (
    KernelProjection,
    check_eig_cutoff,
    rank_restricted,
    require_kernel_matrix,
    top_right_singular,
    whitening,
)
from kktheory.embeddings.sketching_matrices import (
    SKETCHING_MATRICES,
    ColumnSampling,
    SketchingMatrix,
    make_sketching_matrix,
    needs_full_kernel,
    rank_leverage_scores,
)
from kktheory.kernels.spectrum import top_eigenpairs


@dataclass
class NystromRRConfig(SketchConfig):
    name: str = "nystrom_rr"
    P: str = "uniform"  # sketching matrix: uniform | leverage | gaussian | srht | countsketch
    s: Any = "k"  # target rank: integer or k | sqrt_kc | half_c | c, or a list of them (one fit, a row each)
    ell: Any = "half_c"  # truncation of W: integer or k | sqrt_kc | half_c | c
    eig_cutoff: float = 1e-12  # drop eigenvalues of W below eig_cutoff * λ_max


@SKETCHES.register("nystrom_rr", NystromRRConfig)
class NystromRR(RowPass, KernelProjection):
    """Rank-restricted Nyström features B with BBᵀ = (C W_ℓ⁺ Cᵀ)_s (Wang Alg. 2)."""

    capabilities = Capabilities(projection=True, rank_restricted=True, rows_in_blocks=True)

    list_field = "s"

    def s_values(self, c: int) -> list[int]:
        """Each target rank s of the run for sketch size c (``s`` may be a list)."""
        s = self.params.s
        if isinstance(s, (list, tuple)) and not s:
            raise ConfigError("sketch.s", [], "an integer, a rule or a non-empty list of them")
        return [resolve_rank(v, "sketch.s", self.ctx.k, c) for v in (s if isinstance(s, (list, tuple)) else [s])]

    def ranks(self, c: int) -> tuple[int, int]:
        """(s, ℓ) for sketch size c; s the largest of a list (what the fit computes)."""
        ell = resolve_rank(self.params.ell, "sketch.ell", self.ctx.k, c)
        return max(self.s_values(c)), ell

    def validate(self, m: int) -> None:
        p = self.params
        if p.P not in SKETCHING_MATRICES:
            raise ConfigError("sketch.P", p.P, f"one of {', '.join(SKETCHING_MATRICES)}")
        s, ell = self.ranks(m)
        if ell > m:
            raise ConfigError("sketch.ell", p.ell, f"ell ≤ c = m = {m} (resolved ell={ell})")
        if isinstance(p.s, (list, tuple)) and (p.P == "leverage" or len(set(self.s_values(m))) < len(p.s)):
            raise ConfigError(
                "sketch.s", list(p.s),
                "a single value with sketch.P=leverage (its P depends on s)" if p.P == "leverage"
                else f"distinct ranks (resolved at c = m = {m}: {self.s_values(m)})",
            )
        if s > ell:
            raise ConfigError(
                "sketch.s", p.s,
                f"s ≤ ell (resolved s={s}, ell={ell}, c = m = {m}): raise m, lower sketch.s "
                "or set sketch.ell",
            )
        check_eig_cutoff("sketch.eig_cutoff", p.eig_cutoff)
        n = self.ctx.n
        if self.streams(m):
            memory.require(
                self.streamed_bytes(m), self.ctx.budget,
                f"the streamed rank-restricted Nyström sketch (the {n}×{s} features, a kernel "
                f"block of {m} columns with its R block, W and RᵀR)",
                "use a smaller n or sketch.s",
            )
        else:
            memory.require(
                self.in_memory_bytes(m), self.ctx.budget,
                f"the rank-restricted Nyström sketch (C = K·P, its kernel columns and R: 3 × {n}×{m})",
                "use a smaller n or m",
            )
        if needs_full_kernel(p.P):
            require_kernel_matrix(
                self.ctx.n, self.ctx.dtype, self.ctx.budget,
                f"sketch.P={p.P} forms C = K·P from all of K", "use sketch.P=uniform for large n",
            )

    def in_memory_bytes(self, c: int) -> int:
        """C, its kernel columns and R held at once: 3 × n × c float64."""
        return 3 * self.ctx.n * c * 8

    def streams(self, c: int) -> bool:
        """Whether sketch size c is fitted out of core (module docstring): uniform P and
        the in-memory arrays above the budget. Runs that fit in memory keep that path."""
        return self.params.P == "uniform" and self.in_memory_bytes(c) > self.ctx.budget

    def streamed_bytes(self, c: int) -> int:
        """What the streamed fit holds at once: the n × s features (the run's dtype; a list
        of s reuses their buffer, :meth:`variants`), one kernel block of c columns (rows
        sized by the budget) and its R_b (ℓ columns), and W, its eigenvectors and E
        (3 × c², float64) with RᵀR and its eigenvectors (3 × ℓ²)."""
        s, ell = self.ranks(c)
        itemsize = np.dtype(self.ctx.dtype).itemsize
        rows = memory.block_rows(c, itemsize, self.ctx.budget, self.ctx.n)
        return self.ctx.n * s * itemsize + rows * (c + ell) * itemsize + 3 * (c * c + ell * ell) * 8

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
        if self.streams(m):
            return self.fit_streamed(X, kernel, P)
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
        return self.set_projection(X, kernel, P, M, B.astype(kernel.dtype, copy=False))

    def fit_streamed(self, X: np.ndarray, kernel: Kernel, P: ColumnSampling) -> "NystromRR":
        """Steps 1–2 of Alg. 2 out of core (module docstring): W from the landmark rows, V_s
        from RᵀR summed over row blocks of C (pass 1); the features B = C·M are the second
        pass, over the same blocks, when they are first asked for (``transform``)."""
        self.fit_on_landmark_rows(X[P.idx], kernel, P.idx, None, len(X))
        return self.finish_fit(self.row_statistic(X), X)

    # -- the fit in two passes over the rows (out of core; the Dask backend's chunks) -------

    @classmethod
    def landmark_rows_only(cls, params: Any) -> str | None:
        """None for uniform P with one s (:meth:`fit_on_landmark_rows`, :meth:`row_statistic`,
        :meth:`finish_fit`); other P need K·P, a list of s the features in one place."""
        if params.P != "uniform":
            return f"sketch.P={params.P} forms C = K·P from all of K"
        if isinstance(params.s, (list, tuple)):
            return "a list of sketch.s takes its rows from the training features held in one place"
        return None

    def draw_landmark_rows(self, n: int, m_max: int, rng: np.random.Generator) -> tuple[np.ndarray, None]:
        """The landmarks of uniform P for the largest c (a permutation prefix, as ``nested``)."""
        self.require_landmark_rows()
        return ColumnSampling.uniform(n, m_max, rng).idx, None

    def fit_on_landmark_rows(
        self, X_landmarks: np.ndarray, kernel: Kernel, landmarks: np.ndarray, draw: None, n: int,
    ) -> "NystromRR":
        """What Alg. 2 needs of the c landmark rows alone: P (uniform, scale √(n/c)),
        W = PᵀKP and E = U_{W,ℓ} Λ_{W,ℓ}^{-1/2}. The fit is finished by :meth:`finish_fit`
        with the sum of :meth:`row_statistic` over the training rows (a list of s too,
        in this process: :meth:`fit_streamed`)."""
        c = len(landmarks)
        P = ColumnSampling(n, np.asarray(landmarks), np.full(c, np.sqrt(n / c)))
        scale = P.scale.astype(kernel.dtype)
        W = (kernel(X_landmarks, X_landmarks) * scale) * P.scale[:, None]  # Pᵀ K P
        _, ell = self.ranks(c)
        self.kernel = kernel
        self.pending_ = (P, np.asarray(X_landmarks), whitening(W, self.params.eig_cutoff, ell))
        return self

    def row_statistic(self, rows: Any) -> np.ndarray:
        """Σ_b (C_b E)ᵀ(C_b E) over the row blocks of ``rows`` (ℓ' × ℓ', float64; C_b =
        κ(rows_b, X_S)·diag(√(n/c))): summed over all training rows it is RᵀR."""
        P, X_S, E = self.pending_
        scale, E = P.scale.astype(self.kernel.dtype), E.astype(self.kernel.dtype)
        G = np.zeros((E.shape[1], E.shape[1]))
        for _, block in self.kernel.row_blocks(rows, X_S, self.ctx.budget, desc="nystrom_rr RᵀR"):
            block *= scale
            G += gram_f64(block @ E)
        return G

    def finish_fit(self, G: np.ndarray, X: np.ndarray | None = None) -> "NystromRR":
        """M = E·V_s with V_s the top-s eigenvectors of G = RᵀR (:func:`top_right_singular`);
        ``X`` the training rows when this process holds them (their features then come from
        ``transform``), None on the Dask backend (computed chunk by chunk)."""
        P, X_S, E = self.pending_
        s, _ = self.ranks(P.c)
        del self.pending_
        M = E @ top_right_singular(G, s, self.params.eig_cutoff)
        return self.set_projection(X, self.kernel, P, M, None, X_S)

    def set_projection(
        self, X: np.ndarray | None, kernel: Kernel, P: SketchingMatrix, M: np.ndarray, B: np.ndarray | None,
        X_landmarks: np.ndarray | None = None,
    ) -> "NystromRR":
        """The map b(x) = Mᵀ Pᵀ κ(X, x) on P's support (module docstring), with the training
        features B = C·M when they were computed (else by ``transform``), and P's arrays.
        ``X_landmarks``: the rows X[P.idx] when X is not held (column sampling)."""
        if X_landmarks is None:
            self.set_map(X, kernel, P.support(), P.left_on_support(M), train_features=B)
        else:  # the support (sorted distinct landmarks) from the landmark rows themselves
            _, first = np.unique(P.idx, return_index=True)
            self.set_map(X_landmarks, kernel, first, P.left_on_support(M), train_features=B)
            self.X_fit_ = X
        if isinstance(P, ColumnSampling):
            self.landmarks_ = P.idx
        self.P_arrays_ = {f"sketch_{name}": a for name, a in P.arrays().items()}
        s, ell = self.ranks(P.c)
        self.c_ = P.c
        self.info_.update(s=s, ell=ell, s_used=int(M.shape[1]))
        return self

    def variants(self) -> Iterator[tuple[Any, "NystromRR"]]:
        """A list of s: the training features B at the largest s, computed once, and for
        each s of the list, from the largest to the smallest, the sketch whose map and
        features are the first s' = min(s, s_used) columns of those. The top-s right
        singular vectors of R are the first s of the top-s_max (same RᵀR, same signs), so
        each is the fit of a run with that s alone (up to round-off in the products).

        The features of each s are moved to the front of B's own buffer
        (:func:`~kktheory.embeddings.linalg.leading_columns_in_place`) when the next s is
        asked for: every s is clustered on a contiguous array without a second buffer (at
        8.1M × 320 float32, B is 10.4 GB; a contiguous copy of the s = 160 prefix would add
        5.2 GB), so a view's features — and any array taken from them — hold only until
        the next view is asked for; a view that has been passed forgets them (its
        ``transform`` computes them again). The computation of B counts in the first row's fit.
        k-means works on each s in place (:func:`~kktheory.embeddings.base.in_larger_buffer`):
        it centres the features and adds the mean back, which round-off need not undo exactly,
        so a smaller s's features carry a few units in the last place of every larger s's
        centring (float32: below 1e-7 relative), of the order of the round-off by which a
        prefix of B already differs from a fit at that s alone."""
        if not isinstance(self.params.s, (list, tuple)):
            yield None, self
            return
        F = np.ascontiguousarray(self.transform(self.X_fit_))
        self.train_features_ = None  # its buffer is reused below; this sketch computes it again if asked
        ranks = sorted(zip(self.s_values(self.c_), self.params.s), key=lambda pair: -pair[0])
        for s, value in ranks:
            r = min(s, F.shape[1])
            F = leading_columns_in_place(F, r)
            view = copy.copy(self)
            view.coef_, view.train_features_, view.train_columns_ = self.coef_[:, :r], F, None
            view.info_ = {**self.info_, "s": s, "s_used": r}
            yield value, view
            view.train_features_ = None

    def arrays(self) -> dict[str, np.ndarray]:
        """``landmarks`` (column sampling) and P's other arrays (module docstring)."""
        return {**super().arrays(), **self.P_arrays_}

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "NystromRR"]]:
        """Uniform P: one permutation for all c (prefixes), and one K_{n,c} for the largest
        c held in memory; a c that streams (:meth:`streams`) reads its own kernel blocks.
        Other P: K formed once, a fresh P per c from the same stream."""
        params, ctx, X, kernel, ms, make_rng = job
        probe = cls(params, ctx)
        n = len(X)
        if params.P == "uniform":
            P_max = ColumnSampling.uniform(n, max(ms), make_rng())
            held = [c for c in ms if not probe.streams(c)]
            K_cols = kernel.matrix(X, X[P_max.idx[: max(held)]], ctx.budget) if held else None
            for c in ms:
                P = ColumnSampling(n, P_max.idx[:c], np.full(c, np.sqrt(n / c)))
                if probe.streams(c):
                    yield c, cls(params, ctx).fit_streamed(X, kernel, P)
                    continue
                C = K_cols[:, :c] * P.scale.astype(K_cols.dtype)  # the run's dtype
                yield c, cls(params, ctx).fit_sketch(X, kernel, P, C)
            return
        K = probe.full_kernel(X, kernel)
        for c in ms:
            sketch = cls(params, ctx)
            P = sketch.sketching_matrix(X, kernel, c, make_rng(), K)
            yield c, sketch.fit_sketch(X, kernel, P, P.kernel_sketch(kernel, X, ctx.budget, K))
