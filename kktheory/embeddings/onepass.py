"""One-pass SRHT eigendecomposition of K (Pourkamali-Anaraki & Becker 2016, Algorithm 1).

With rank r, oversampling l and r' = r + l:

1. Ω = D·H·R ∈ R^{n×r'}: random signs, Walsh–Hadamard, r' columns sampled uniformly
   without replacement (:class:`kktheory.embeddings.transforms.SRHT`). The paper's H is n × n,
   which exists for few n: n is zero-padded to the next power of two N (Ω is the first n
   rows of the N × r' SRHT); ``transform=dct`` uses the orthonormal DCT of order n;
2. W = K·Ω (= (Rᵀ H D K)ᵀ, K symmetric) in ONE pass over row blocks of K (rows of K are
   its columns), each block computed on the fly and dropped;
3. Q ∈ R^{n×q}: an orthonormal basis of range(W) (left singular vectors of W), with q
   set by ``reading`` (below);
4. B ∈ R^{q×q} solves B·(QᵀΩ) = QᵀW in the least-squares sense (r' ≥ q equations per
   row): B = (QᵀW)(QᵀΩ)⁺, computed by ``lstsq``; it estimates QᵀKQ without a second pass;
5. B ← (B + Bᵀ)/2, B = VΣVᵀ, eigenvalues in decreasing order; only the r largest
   eigenpairs are kept (Σ_r, V_r: all of them when q = r). Kept eigenvalues that are
   negative (B is not PSD in general, and the paper leaves Σ^{1/2} undefined for them)
   are clipped to 0 and counted (``n_clipped_eigs``, with their total modulus
   ``clipped_eig_sum``; round-off negatives of a rank-deficient B count too). Only the
   kept r eigenvalues are counted: with q = r' the discarded r' − r never reach the
   features, whatever their sign;
6. Y = Σ_r^{1/2}V_rᵀQᵀ ∈ R^{r×n}; the features of the training points are the rows of
   Yᵀ = Q·V_r·Σ_r^{1/2} (n × r), and K ≈ K̂ = YᵀY. k-means runs on them (step 7).

Two readings of step 3 (``reading``). The paper writes Q ∈ R^{n×r} ("by QR decomposition
or r leading left singular vectors of W") and B ∈ R^{r×r}, but the QR of the n × r' matrix
W has r' columns, and the method it cites (Halko, Martinsson & Tropp 2011, §5.5, the
single-pass eigenvalue decomposition) keeps all r' columns and truncates only after the
eigendecomposition of the core:

- ``full_core`` (default): Q = orth(W) with all q = r' columns, B is r' × r', and the
  truncation to rank r happens in step 5. K̂ = Q·V_r Σ_r V_rᵀ·Qᵀ. If range(K) ⊂ range(Q)
  (r' ≥ rank K and Ω of full rank on range(K), which holds almost surely), then
  B = QᵀKQ exactly and K̂ = K_r, the best rank-r approximation of K (its r leading
  eigenpairs);
- ``rank_first``: Q = the q = r leading left singular vectors of W, B is r × r, nothing
  is truncated in step 5. The oversampling only enters the least-squares fit of B; the
  subspace range(Q) is the leading r-dimensional subspace of KΩ, which is not K's
  leading eigenspace in general, so K̂ ≠ K_r even when r' ≥ rank K (K̂ = K only when
  r ≥ rank K).

The paper's numbers support ``full_core``. Its Table 1 (two rings in R², kernel ⟨x, y⟩²,
r = 2, l = 10) reports the same kernel approximation error ‖K − K̂‖_F/‖K‖_F for the
one-pass method as for the exact rank-2 decomposition, 0.40, and the same accuracy, 0.99;
its Fig. 3(a) (segment, r = 2, l = 5) puts the one-pass error "very close to the optimal
exact eigenvalue decomposition". On the Table 1 data rank K = 3 (⟨x, y⟩² on R² has the
three features x₁², √2·x₁x₂, x₂²) ≤ r' = 12, so ``full_core`` gives K_2 exactly, as the
table shows, and ``rank_first`` cannot. Measured at small scale (10 runs each, ``python -m kktheory.reproduce
pourkamali_table1_fig2`` and ``pourkamali_fig3``, ``--scale small``): on the Table 1 data
(n = 4000) ``full_core`` has error 0.400 and accuracy 1.00, equal to the exact rank-2
decomposition's 0.400 and 1.00, while ``rank_first`` has 0.419 and 0.975; on segment
(Fig. 3, r' = 7 < rank K) ``full_core`` has error 0.189 against the exact 0.179, and
``rank_first`` 0.237.

Sketch size: the run's m is r' (the number of sampled SRHT columns; memory O(r'n), like
Nyström's m columns; Pourkamali Table 1: "our method takes the equivalent of m = 12
columns" for r = 2, l = 10). r is the option ``rank`` (default k), so l = m − r ≥ 0.
With ``oversampling`` set, r' = rank + oversampling and the run's m is ignored;
``m_used`` (the row's column) reports the r' used either way.

New points (not part of the paper, which only embeds the training set): the Nyström-like
extension y(x) = Σ_r^{-1/2}V_rᵀQᵀκ(X, x) (0 on clipped directions). For a training point
x_i, Σ_r^{-1/2}V_rᵀQᵀk_i = Σ_r^{-1/2}V_rᵀBQᵀe_i = y_i whenever K = QQᵀKQQᵀ, so the
extension agrees with the training features when the sketch is exact. Directions with
eigenvalue below 1e-12·λ_max get 0 (their inverse square root would only amplify
round-off). Risk evaluation only needs the training labels.

Cost: W in O(n²d + n²log n) time (one pass, blocks sized by the memory budget); the SVD
of W in O(nr'²); the rest O(nr'² + r'n log n + r'³). Memory O(r'n): K is never held
whole. Nested sketches: Ω's columns are a prefix of one permutation, so a list of m shares one
pass over K (W for a smaller r' is a column prefix of W for the largest, rescaled).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Optional

import numpy as np

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, NestedFit, Sketch, SketchConfig
from kktheory.embeddings.linalg import fix_signs, map_kernel_rows
from kktheory.embeddings.transforms import SRHT, TRANSFORMS

#: eigenvalues of B below this fraction of the largest are treated as 0 by ``transform``
EIG_CUTOFF = 1e-12
#: singular values of W below this fraction of the largest are round-off: orth(W) is a basis
#: of range(W), so when rank K < r' (e.g. duplicated points) Q keeps only rank(W) columns
ORTH_CUTOFF = 1e-10
#: step 3: Q with all r' columns, truncated to r after the core (default) | r columns first
READINGS = ("full_core", "rank_first")


@dataclass
class OnePassConfig(SketchConfig):
    name: str = "onepass"
    rank: Optional[int] = None  # r, the feature dimension; None: the number of clusters k
    oversampling: Optional[int] = None  # l; None: r' = m (the run's sketch size), l = m − r
    transform: str = "hadamard"  # Ω = D·H·R (paper) | dct
    reading: str = "full_core"  # Q = orth(W), all r' columns, truncate after the core | rank_first


@SKETCHES.register("onepass", OnePassConfig)
class OnePass(Sketch):
    """Pourkamali-Anaraki & Becker Alg. 1: features Yᵀ = Q·V_r·Σ_r^{1/2} from one pass over K.

    Stored arrays: Ω's randomness, ``sketch_signs`` (n, the diagonal of D, ±1.0) and
    ``sketch_columns`` (r', the sampled columns of H, in order): Ω = D·H_N[:n, columns]/√r'
    (Hadamard, N the next power of two ≥ n) or D·C_nᵀ[:, columns]·√(n/r') (DCT).
    """

    not_from_landmark_rows = "it sketches all of K in one pass (W = KΩ)"

    capabilities = Capabilities(rank_restricted=True)

    def rank(self) -> int:
        return self.params.rank if self.params.rank is not None else self.ctx.k

    def m_used(self, m: int) -> int:
        """r' = m, or rank + oversampling when ``oversampling`` is set."""
        if self.params.oversampling is not None:
            return self.rank() + self.params.oversampling
        return m

    def validate(self, m: int) -> None:
        p, n, r = self.params, self.ctx.n, self.rank()
        if p.transform not in TRANSFORMS:
            raise ConfigError("sketch.transform", p.transform, f"one of {', '.join(TRANSFORMS)}")
        if p.reading not in READINGS:
            raise ConfigError("sketch.reading", p.reading, f"one of {', '.join(READINGS)}")
        if not 1 <= r <= n:
            raise ConfigError("sketch.rank", p.rank, f"an integer in [1, n={n}], or null for k")
        if p.oversampling is not None:
            if not 0 <= p.oversampling <= n - r:
                raise ConfigError(
                    "sketch.oversampling", p.oversampling,
                    f"an integer l ≥ 0 with r + l ≤ n={n} (r={r}), or null for l = m − r",
                )
        elif m < r:
            raise ConfigError(
                "m", m,
                f"sketch=onepass uses m as r' = r + l, so m ≥ rank r={r} is needed "
                "(give a larger m, a smaller sketch.rank, or set sketch.oversampling)",
            )
        c = self.m_used(m)
        memory.require(
            24 * n * c, self.ctx.budget,
            f"the one-pass sketch (W = KΩ, its singular vectors and the features: 3 × {n}×{c})",
            "use a smaller n or m",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "OnePass":
        srht = SRHT(len(X), self.m_used(m), rng, self.params.transform)
        return self._fit(X, kernel, srht, self.sketch_columns(X, kernel, srht))

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "OnePass"]]:
        """One SRHT with the largest r' and one pass over K for the whole list of m."""
        params, ctx, X, kernel, ms, make_rng = job
        probe = cls(params, ctx)
        r_max = max(probe.m_used(m) for m in ms)
        srht = SRHT(len(X), r_max, make_rng(), params.transform)
        W = probe.sketch_columns(X, kernel, srht)
        for m in ms:
            c = probe.m_used(m)
            W_c = W[:, :c] * math.sqrt(r_max / c)
            yield m, cls(params, ctx)._fit(X, kernel, srht.prefix(c), W_c)

    def sketch_columns(self, X: np.ndarray, kernel: Kernel, srht: SRHT) -> np.ndarray:
        """W = K·Ω (n × r', float64) in one pass over row blocks of K."""
        W = map_kernel_rows(kernel, X, X, self.ctx.budget, srht.right, srht.c, desc="onepass W = KΩ")
        return W.astype(np.float64, copy=False)

    def _fit(self, X: np.ndarray, kernel: Kernel, srht: SRHT, W: np.ndarray) -> "OnePass":
        r = self.rank()
        U, sv = np.linalg.svd(W, full_matrices=False)[:2]
        rank_w = int(np.sum(sv > ORTH_CUTOFF * sv.max(initial=0.0)))  # range(W) only: the other
        q = min(srht.c if self.params.reading == "full_core" else r, rank_w)  # columns are round-off
        Q = U[:, :q]  # orth(W), or its r leading directions
        QtOmega = srht.right(Q.T).astype(np.float64)  # QᵀΩ, q × r'
        QtW = Q.T @ W  # q × r'
        B = np.linalg.lstsq(QtOmega.T, QtW.T, rcond=None)[0].T  # B·(QᵀΩ) ≈ QᵀW
        B = (B + B.T) / 2.0
        lam, V = np.linalg.eigh(B)
        lam, V = lam[::-1][:r], V[:, ::-1][:, :r]  # the r largest eigenpairs of the core
        negative = lam < 0
        self.kernel, self.X_fit_, self.srht_ = kernel, X, srht
        pad = r - len(lam)  # rank(W) < r: the missing directions carry eigenvalue 0
        self.eigvals_ = np.concatenate([np.maximum(lam, 0.0), np.zeros(pad)])
        self.QV_ = np.hstack([fix_signs(Q @ V), np.zeros((len(Q), pad))])  # n × r
        self.features_ = (self.QV_ * np.sqrt(self.eigvals_)).astype(kernel.dtype)
        self.info_ = {
            "onepass_rank": r,
            "onepass_oversampling": srht.c - r,
            "n_clipped_eigs": int(negative.sum()),
            "clipped_eig_sum": float(np.abs(lam[negative]).sum()),
        }
        return self

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Rows of Yᵀ = Q·V·Σ^{1/2} for the training set; Σ^{-1/2}VᵀQᵀκ(X_fit, x) otherwise."""
        if self.on_training_rows(X):
            return self.features_
        lam = self.eigvals_
        keep = lam > EIG_CUTOFF * lam.max(initial=0.0)
        inv = np.divide(1.0, np.sqrt(lam), out=np.zeros_like(lam), where=keep)
        T = (self.QV_ * inv).astype(self.kernel.dtype)
        return map_kernel_rows(
            self.kernel, X, self.X_fit_, self.ctx.budget, lambda Kb: Kb @ T, T.shape[1],
            desc="onepass transform",
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The signs and sampled columns of Ω (class docstring)."""
        return {f"sketch_{name}": a for name, a in self.srht_.arrays().items()}
