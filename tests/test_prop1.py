"""Yin et al. Prop. 1 (eq. 6; Calandriello & Rosasco's Prop. 2), decided by enumeration.

Eq. (6) says that kernel k-means, min over partitions ν of
W(ν) = (1/n) Σ_j Σ_{i∈C_j} ‖Φ_i − mean_{C_j} Φ‖², equals k-means on the kernel columns k_i
(the columns of K). Written with kernel values, for every partition

    W(ν)   = (1/n) Σ_j [ Σ_{i∈C_j} K_ii  − (1/|C_j|) Σ_{i,s∈C_j} K_is ],
    W_K(ν) = (1/n) Σ_j [ Σ_{i∈C_j} K²_ii − (1/|C_j|) Σ_{i,s∈C_j} K²_is ]   (k_iᵀk_s = (K²)_is),

so k-means on the columns of K minimises W with K² in place of K; the columns of K^½ give W
itself (their inner products are K). On 12 points of Yin's mixture (§5.1: 3 centres in
{−1, 1}⁸, N(centre, I), the kernel exp(−‖x − x′‖²/8)) every one of the 86,526 partitions into
3 non-empty clusters is scored both ways, independently of the package: the K^½ columns agree
with W to rounding, the K columns give another function — its minimum 13 % lower and its
minimising partition not kernel k-means'. What the catalogue's Prop. 1 controls show (k-means
on the kernel columns far from kernel k-means at n = 10,000) is this identity failing, not
sampling noise.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.linalg import sqrtm


def _mixture(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.choice([-1.0, 1.0], (k, 8))
    return centres[np.repeat(np.arange(k), n // k)] + rng.standard_normal((n, 8))


def _partitions(n: int, k: int) -> np.ndarray:
    """Every partition of n points into k non-empty clusters once (labels in order of first use)."""
    out = []
    for rest in itertools.product(range(k), repeat=n - 1):
        lab = (0, *rest)
        firsts = [lab.index(j) for j in range(k) if j in lab]
        if len(firsts) == k and firsts == sorted(firsts):
            out.append(lab)
    return np.array(out)


def _objective(M: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """(1/n) Σ_j [Σ_{i∈C_j} M_ii − (1/|C_j|) 1ᵀ M_{C_j} 1] for each row of ``labels``."""
    n = M.shape[0]
    total = np.full(len(labels), np.trace(M))
    for j in range(k):
        z = (labels == j).astype(float)
        total -= np.einsum("pi,ij,pj->p", z, M, z) / z.sum(axis=1)
    return total / n


def test_eq6_holds_for_the_columns_of_k_half_and_fails_for_those_of_k():
    n, k = 12, 3
    X = _mixture(n, k, seed=2)
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 8)
    labels = _partitions(n, k)
    assert len(labels) == 86526  # S(12, 3), the Stirling number of the second kind
    w = _objective(K, labels, k)
    half = np.real(sqrtm(K))
    def cols(F: np.ndarray, p: int) -> float:  # k-means' objective on the rows of F, partition p
        return sum(((F[labels[p] == j] - F[labels[p] == j].mean(0)) ** 2).sum() for j in range(k)) / n

    some = np.random.default_rng(0).choice(len(labels), 50, replace=False)
    # brute force on the embeddings themselves, for a sample of partitions: K^½ columns are W, K columns W_K
    assert np.allclose([cols(half, p) for p in some], w[some], atol=1e-12)
    w_k = _objective(K @ K, labels, k)
    assert np.allclose([cols(K, p) for p in some], w_k[some], atol=1e-12)
    # the two minimisations differ in value and in the partition they choose
    assert w_k.min() < 0.9 * w.min()
    assert not np.array_equal(labels[np.argmin(w_k)], labels[np.argmin(w)])
    assert w[np.argmin(w_k)] > w.min()  # k-means on the columns of K is not kernel k-means' optimum
