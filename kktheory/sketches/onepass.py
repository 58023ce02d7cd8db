"""One-pass SRHT eigendecomposition of K (Pourkamali-Anaraki & Becker 2016, Algorithm 1).

With rank r, oversampling l and r' = r + l:

1. Ω = D·H·R ∈ R^{n×r'}: random signs, Walsh–Hadamard, r' columns sampled uniformly
   without replacement (:class:`kktheory.transforms.SRHT`). The paper's H is n × n,
   which exists for few n: n is zero-padded to the next power of two N (Ω is the first n
   rows of the N × r' SRHT); ``transform=dct`` uses the orthonormal DCT of order n;
2. W = K·Ω (= (Rᵀ H D K)ᵀ, K symmetric) in ONE pass over row blocks of K (rows of K are
   its columns), each block computed on the fly and dropped;
3. Q ∈ R^{n×r}: the r leading left singular vectors of W (the paper allows QR or the r
   leading singular vectors; only the latter gives Q with r columns when l > 0);
4. B ∈ R^{r×r} solves B·(QᵀΩ) = QᵀW in the least-squares sense (r' ≥ r equations per
   row): B = (QᵀW)(QᵀΩ)⁺, computed by ``lstsq``; it estimates QᵀKQ without a second pass;
5. B ← (B + Bᵀ)/2, B = VΣVᵀ; negative eigenvalues (B is not PSD in general, and the
   paper leaves Σ^{1/2} undefined for them) are clipped to 0 and counted
   (``n_clipped_eigs``, with their total modulus ``clipped_eig_sum``; round-off
   negatives of a rank-deficient B count too);
6. Y = Σ^{1/2}VᵀQᵀ ∈ R^{r×n}; the features of the training points are the rows of
   Yᵀ = Q·V·Σ^{1/2} (n × r), and K ≈ YᵀY. k-means runs on them (step 7).

If range(K) ⊂ range(Q) (e.g. r ≥ rank K and Ω of full rank on range(K), which holds
almost surely when r' ≥ r ≥ rank K), then B = QᵀKQ exactly and YᵀY = K.

Sketch size: the run's m is r' (the number of sampled SRHT columns; memory O(r'n), like
Nyström's m columns; Pourkamali Table 1: "our method takes the equivalent of m = 12
columns" for r = 2, l = 10). r is the option ``rank`` (default k), so l = m − r ≥ 0.
With ``oversampling`` set, r' = rank + oversampling and the run's m is ignored;
``resolve_m`` (the row's ``m_used``) reports the r' used either way.

New points (not part of the paper, which only embeds the training set): the Nyström-like
extension y(x) = Σ^{-1/2}VᵀQᵀκ(X, x) (0 on clipped directions). For a training point
x_i, Σ^{-1/2}VᵀQᵀk_i = Σ^{-1/2}VᵀBQᵀe_i = y_i whenever K = QQᵀKQQᵀ, so the extension agrees
with the training features when the sketch is exact. Directions with eigenvalue below
1e-12·λ_max get 0 (their inverse square root would only amplify round-off). Risk
evaluation only needs the training labels.

Cost: W in O(n²d + n²log n) time (one pass, blocks sized by the memory budget); the SVD
of W in O(nr'²); the rest O(nr·r' + r'³). Memory O(r'n): K is never held whole.
Nested sketches: Ω's columns are a prefix of one permutation, so a list of m shares one
pass over K (W for a smaller r' is a column prefix of W for the largest, rescaled).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from kktheory import memory
from kktheory.errors import ConfigError
from kktheory.kernels import Kernel
from kktheory.sketches.base import SKETCHES, Sketch, SketchConfig, SketchContext
from kktheory.sketches.linalg import fix_signs, map_kernel_rows
from kktheory.transforms import SRHT, TRANSFORMS

#: eigenvalues of B below this fraction of the largest are treated as 0 by ``transform``
EIG_CUTOFF = 1e-12


@dataclass
class OnePassConfig(SketchConfig):
    name: str = "onepass"
    rank: Optional[int] = None  # r, the feature dimension; None: the number of clusters k
    oversampling: Optional[int] = None  # l; None: r' = m (the run's sketch size), l = m − r
    transform: str = "hadamard"  # Ω = D·H·R (paper) | dct


@SKETCHES.register("onepass", OnePassConfig)
class OnePass(Sketch):
    """Pourkamali-Anaraki & Becker Alg. 1: features Yᵀ = Q·V·Σ^{1/2} from one pass over K.

    Stored arrays: Ω's randomness, ``sketch_signs`` (n, the diagonal of D, ±1.0) and
    ``sketch_columns`` (r', the sampled columns of H, in order): Ω = D·H_N[:n, columns]/√r'
    (Hadamard, N the next power of two ≥ n) or D·C_nᵀ[:, columns]·√(n/r') (DCT).
    """

    def rank(self) -> int:
        return self.params.rank if self.params.rank is not None else self.ctx.k

    def resolve_m(self, m: int) -> int:
        """r' = m, or rank + oversampling when ``oversampling`` is set."""
        if self.params.oversampling is not None:
            return self.rank() + self.params.oversampling
        return m

    def validate(self, m: int) -> None:
        p, n, r = self.params, self.ctx.n, self.rank()
        if p.transform not in TRANSFORMS:
            raise ConfigError("sketch.transform", p.transform, f"one of {', '.join(TRANSFORMS)}")
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
        c = self.resolve_m(m)
        memory.require(
            24 * n * c, self.ctx.budget,
            f"the one-pass sketch (W = KΩ, its singular vectors and the features: 3 × {n}×{c})",
            "use a smaller n or m",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "OnePass":
        srht = SRHT(len(X), self.resolve_m(m), rng, self.params.transform)
        return self._fit(X, kernel, srht, self.sketch_columns(X, kernel, srht))

    @classmethod
    def fit_nested(
        cls,
        params: OnePassConfig,
        ctx: SketchContext,
        X: np.ndarray,
        kernel: Kernel,
        ms: Sequence[int],
        make_rng: Callable[[], np.random.Generator],
    ) -> Iterator[tuple[int, "OnePass"]]:
        """One SRHT with the largest r' and one pass over K for the whole list of m."""
        probe = cls(params, ctx)
        r_max = max(probe.resolve_m(m) for m in ms)
        srht = SRHT(len(X), r_max, make_rng(), params.transform)
        W = probe.sketch_columns(X, kernel, srht)
        for m in ms:
            c = probe.resolve_m(m)
            W_c = W[:, :c] * math.sqrt(r_max / c)
            yield m, cls(params, ctx)._fit(X, kernel, srht.prefix(c), W_c)

    def sketch_columns(self, X: np.ndarray, kernel: Kernel, srht: SRHT) -> np.ndarray:
        """W = K·Ω (n × r', float64) in one pass over row blocks of K."""
        W = map_kernel_rows(kernel, X, X, self.ctx.budget, srht.right, srht.c, desc="onepass W = KΩ")
        return W.astype(np.float64, copy=False)

    def _fit(self, X: np.ndarray, kernel: Kernel, srht: SRHT, W: np.ndarray) -> "OnePass":
        r = self.rank()
        U = np.linalg.svd(W, full_matrices=False)[0]
        Q = U[:, :r]  # r leading left singular vectors of W
        QtOmega = srht.right(Q.T).astype(np.float64)  # QᵀΩ, r × r'
        QtW = Q.T @ W  # r × r'
        B = np.linalg.lstsq(QtOmega.T, QtW.T, rcond=None)[0].T  # B·(QᵀΩ) ≈ QᵀW
        B = (B + B.T) / 2.0
        lam, V = np.linalg.eigh(B)
        lam, V = lam[::-1], V[:, ::-1]
        negative = lam < 0
        self.kernel, self.X_fit_, self.srht_ = kernel, X, srht
        self.eigvals_ = np.maximum(lam, 0.0)
        self.QV_ = fix_signs(Q @ V)  # n × r, orthonormal columns
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
        if X is self.X_fit_:
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
