"""Sketching matrices P ∈ R^{n×c} of Wang, Gittens & Mahoney (2019), §2 and Table 2.

The Nyström approximation of an SPSD matrix K from a sketching matrix P is C W⁺ Cᵀ with
C = K·P and W = Pᵀ·K·P (Wang §3.1). Available P (``SKETCHING_MATRICES``):

================  ==========================================================  ============
``uniform``       column sampling, P[i_j, j] = √(n/c); i_1..i_c a prefix of     K·P: O(ncd)
                  one random permutation (without replacement, see below)
``leverage``      column sampling with replacement, i_j ~ p_i = ℓ_i/s with ℓ_i   O(n²s)
                  the row leverage scores of V_s (K_s = V_s Λ_s V_sᵀ), P[i_j, j]
                  = 1/√(c·p_{i_j})
``gaussian``      P = G/√c, G_ij ~ N(0, 1) i.i.d.                               O(n²c)
``srht``          P = D·H_N·R/√c (:class:`kktheory.embeddings.transforms.SRHT`), K zero-   O(n² log n)
                  padded to N = next power of two ≥ n
``countsketch``   one nonzero ±1 per row of P, in a uniformly random column     O(n²)
================  ==========================================================  ============

Column selection rescales the selected column i by 1/√(c·p_i) (Wang §2). The scaling of
P does not change C W⁺ Cᵀ when W has full rank, but it does change which directions the
truncation W_ℓ of Wang's Alg. 2 keeps, so it is applied as printed. Deviation: Wang
describes uniform sampling as i.i.d. with replacement; we draw it without replacement
(duplicated columns add nothing to span(C) and only waste the budget c), like the
``nystrom`` sketch, so that ``uniform`` with c columns is the first c of one permutation.

Every matrix exposes ``right(A)`` = A·P (A with n columns), ``left(M)`` = P·M (M with c
rows), ``support()`` (the rows of P that may be nonzero), ``left_on_support(M)`` (those
rows of P·M; column sampling never forms the other n − c), ``dense()`` (tests, small n) and
``arrays()``, its randomness as a run stores it (names prefixed ``sketch_`` by the sketch):
column sampling ``P_scale`` (c; the sampled indices are the sketch's landmarks), SRHT
``P_signs`` (n) and ``P_columns`` (c), CountSketch ``P_signs`` and ``P_buckets`` (n each),
Gaussian the record of its draw, ``P_rng_state`` and ``P_shape``
(:class:`kktheory.seeding.NormalDraw`; :meth:`Gaussian.redraw`).
``kernel_sketch(kernel, X, budget, K)`` returns C = K·P: column sampling evaluates only
the c sampled kernel columns, every other P needs the full n×n kernel matrix K (Wang
Table 2's time column), which the caller forms after checking the memory budget.
Randomness is drawn in a prefix-consistent order where the construction allows
(permutation prefixes, i.i.d. sequences, Gaussian columns drawn one after another).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from kktheory.kernels.functions import Kernel
from kktheory.seeding import NormalDraw
from kktheory.embeddings.transforms import SRHT, fwht

SKETCHING_MATRICES = ("uniform", "leverage", "gaussian", "srht", "countsketch")


def needs_full_kernel(name: str) -> bool:
    """True for the sketching matrices whose C = K·P needs all of K (all but uniform)."""
    return name != "uniform"


class SketchingMatrix:
    """An n × c sketching matrix applied without forming it where possible."""

    def __init__(self, n: int, c: int) -> None:
        self.n, self.c = n, c

    def right(self, A: np.ndarray) -> np.ndarray:
        """A·P for A with n columns."""
        raise NotImplementedError

    def left(self, M: np.ndarray) -> np.ndarray:
        """P·M for M with c rows (n × M.shape[1])."""
        raise NotImplementedError

    def support(self) -> np.ndarray | None:
        """Sorted indices of the rows of P that may be nonzero (None: all rows)."""
        return None

    def left_on_support(self, M: np.ndarray) -> np.ndarray:
        """(P·M)[support()] — all n rows when the support is None."""
        support = self.support()
        PM = self.left(M)
        return PM if support is None else PM[support]

    def dense(self) -> np.ndarray:
        """P as a dense n × c float64 matrix."""
        return self.left(np.eye(self.c))

    def arrays(self) -> dict[str, np.ndarray]:
        """The randomness of P, as a run stores it (module docstring)."""
        raise NotImplementedError

    def kernel_sketch(
        self, kernel: Kernel, X: np.ndarray, budget: int, K: np.ndarray | None
    ) -> np.ndarray:
        """C = K·P (n × c, float64); K = κ(X, X) must be given for this P."""
        if K is None:
            raise ValueError(f"{type(self).__name__}: C = K·P needs the full kernel matrix K")
        return np.asarray(self.right(K), dtype=np.float64)


class ColumnSampling(SketchingMatrix):
    """P[idx_j, j] = scale_j: selects (and rescales) columns idx of the matrix it multiplies."""

    def __init__(self, n: int, idx: np.ndarray, scale: np.ndarray) -> None:
        super().__init__(n, len(idx))
        self.idx = np.asarray(idx, dtype=np.int64)
        self.scale = np.asarray(scale, dtype=np.float64)

    @classmethod
    def uniform(cls, n: int, c: int, rng: np.random.Generator) -> "ColumnSampling":
        """c columns uniformly without replacement (a permutation prefix), scale √(n/c)."""
        return cls(n, rng.permutation(n)[:c], np.full(c, np.sqrt(n / c)))

    @classmethod
    def weighted(
        cls, n: int, c: int, probabilities: np.ndarray, rng: np.random.Generator
    ) -> "ColumnSampling":
        """c i.i.d. draws with P(i) = p_i, scale 1/√(c·p_i) (Wang §2)."""
        p = np.asarray(probabilities, dtype=np.float64)
        idx = draw_with_replacement(p, c, rng)
        return cls(n, idx, 1.0 / np.sqrt(c * p[idx] / p.sum()))

    def right(self, A: np.ndarray) -> np.ndarray:
        return np.asarray(A)[:, self.idx] * self.scale

    def left(self, M: np.ndarray) -> np.ndarray:
        M = np.asarray(M, dtype=np.float64)
        out = np.zeros((self.n, M.shape[1]))
        np.add.at(out, self.idx, M * self.scale[:, None])
        return out

    def support(self) -> np.ndarray:
        return np.unique(self.idx)

    def left_on_support(self, M: np.ndarray) -> np.ndarray:
        """(P·M)[support()] without the n × M.shape[1] array: |support| rows, the same sums."""
        support, inverse = np.unique(self.idx, return_inverse=True)
        M = np.asarray(M, dtype=np.float64)
        out = np.zeros((len(support), M.shape[1]))
        np.add.at(out, inverse.reshape(-1), M * self.scale[:, None])
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        """``P_scale`` (c): P[idx_j, j] = scale_j (idx: the sketch's landmarks)."""
        return {"P_scale": self.scale}

    def kernel_sketch(
        self, kernel: Kernel, X: np.ndarray, budget: int, K: np.ndarray | None
    ) -> np.ndarray:
        """The c sampled kernel columns, rescaled, in the kernel's dtype; only O(ncd) when K
        is not given."""
        cols = K[:, self.idx] if K is not None else kernel.matrix(X, X[self.idx], budget)
        cols *= self.scale.astype(cols.dtype)
        return cols


class Gaussian(SketchingMatrix):
    """P = G/√c with G_ij ~ N(0, 1); column j is the j-th draw of n normals:
    P = ``rng.standard_normal((c, n))``ᵀ/√c, recorded by ``draw`` (not by its n·c entries)."""

    def __init__(self, n: int, c: int, rng: np.random.Generator) -> None:
        super().__init__(n, c)
        self.draw, N = NormalDraw.take(rng, (c, n))
        self.P = N.T / np.sqrt(c)

    def arrays(self) -> dict[str, np.ndarray]:
        """``P_rng_state`` and ``P_shape`` = (c, n): the record of the draw."""
        return self.draw.arrays("P")

    @staticmethod
    def redraw(arrays: dict[str, np.ndarray], name: str = "P") -> np.ndarray:
        """P (n × c) from the record stored under ``name``, bit for bit as drawn."""
        N = NormalDraw.from_arrays(arrays, name).redraw()
        return N.T / np.sqrt(N.shape[0])

    def right(self, A: np.ndarray) -> np.ndarray:
        return np.asarray(A) @ self.P

    def left(self, M: np.ndarray) -> np.ndarray:
        return self.P @ np.asarray(M, dtype=np.float64)


class SubsampledHadamard(SketchingMatrix):
    """P = D·H_N·R/√c restricted to its first n rows (see :class:`kktheory.embeddings.transforms.SRHT`).

    Entry (i, j) is signs_i·H_N[i, cols_j]/√c, so P·M = signs ⊙ (H_N·E)[:n]/√c with E the
    N × r matrix whose rows cols_j are the rows of M: one fast Walsh–Hadamard transform.
    """

    def __init__(self, n: int, c: int, rng: np.random.Generator) -> None:
        super().__init__(n, c)
        self.srht = SRHT(n, c, rng)

    def arrays(self) -> dict[str, np.ndarray]:
        """``P_signs`` (n) and ``P_columns`` (c): P = D·H_N[:n, columns]/√c."""
        return {f"P_{name}": a for name, a in self.srht.arrays().items()}

    def right(self, A: np.ndarray) -> np.ndarray:
        return self.srht.right(A)

    def left(self, M: np.ndarray) -> np.ndarray:
        M = np.asarray(M, dtype=np.float64)
        E = np.zeros((self.srht.N, M.shape[1]))
        E[self.srht.cols] = M
        return fwht(E)[: self.n] * self.srht.signs[:, None] / np.sqrt(self.c)


class CountSketch(SketchingMatrix):
    """P[i, h(i)] = σ_i with h(i) uniform in 0..c−1 and σ_i = ±1 (Clarkson & Woodruff 2013)."""

    def __init__(self, n: int, c: int, rng: np.random.Generator) -> None:
        super().__init__(n, c)
        self.buckets = rng.integers(0, c, size=n)
        self.signs = rng.choice(np.array([-1.0, 1.0]), size=n)
        self.P = sp.csr_matrix((self.signs, (np.arange(n), self.buckets)), shape=(n, c))

    def arrays(self) -> dict[str, np.ndarray]:
        """``P_signs`` and ``P_buckets`` (n each): P[i, buckets_i] = signs_i."""
        return {"P_signs": self.signs, "P_buckets": np.asarray(self.buckets)}

    def right(self, A: np.ndarray) -> np.ndarray:
        return np.asarray(self.P.T @ np.asarray(A).T).T

    def left(self, M: np.ndarray) -> np.ndarray:
        return np.asarray(self.P @ np.asarray(M, dtype=np.float64))


def draw_with_replacement(p: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` i.i.d. indices with P(i) ∝ p_i, by inversion of the cumulative sum.

    One uniform per draw, in order, so the first m of a longer draw equal a draw of m
    (nested landmark sets for a list of m).
    """
    cdf = np.cumsum(np.asarray(p, dtype=np.float64))
    if not cdf[-1] > 0:
        raise ValueError("sampling probabilities must have a positive sum")
    idx = np.searchsorted(cdf / cdf[-1], rng.random(size), side="right")
    return np.minimum(idx, len(cdf) - 1)


def rank_leverage_scores(V: np.ndarray) -> np.ndarray:
    """ℓ_i = ‖V[i, :]‖², the row leverage scores of an orthonormal V (Σ ℓ_i = rank)."""
    return np.einsum("ij,ij->i", V, V)


def make_sketching_matrix(
    name: str,
    n: int,
    c: int,
    rng: np.random.Generator,
    leverage: np.ndarray | None = None,
) -> SketchingMatrix:
    """The sketching matrix ``name`` of size n × c; ``leverage`` are the scores ℓ_i that
    ``leverage`` sampling needs (:func:`rank_leverage_scores` of the top-s eigenvectors)."""
    if name == "uniform":
        return ColumnSampling.uniform(n, c, rng)
    if name == "leverage":
        if leverage is None:
            raise ValueError("leverage sampling needs the leverage scores")
        return ColumnSampling.weighted(n, c, leverage, rng)
    if name == "gaussian":
        return Gaussian(n, c, rng)
    if name == "srht":
        return SubsampledHadamard(n, c, rng)
    if name == "countsketch":
        return CountSketch(n, c, rng)
    raise ValueError(f"unknown sketching matrix {name!r}: one of {', '.join(SKETCHING_MATRICES)}")
