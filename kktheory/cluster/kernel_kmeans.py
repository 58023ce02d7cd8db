"""Exact kernel k-means: Lloyd's algorithm on the kernel matrix.

For a partition C_1..C_k of the training points with lifted centroids
c_j = (1/|C_j|) Σ_{l∈C_j} φ(x_l), the kernel trick gives (Dhillon, Guan & Kulis 2004;
Yin et al. 2022, eq. 11)

    ‖φ_i − c_j‖² = K_ii − 2 (K B)_ij / |C_j| + (B_jᵀ K B_j) / |C_j|²,

with B the n×k 0/1 membership matrix. One Lloyd iteration assigns every point to its
nearest centroid; the objective f/n = (1/n) Σ_j Σ_{i∈C_j} ‖φ_i − c_j‖²
= (1/n) [Σ_i K_ii − Σ_j B_jᵀ K B_j / |C_j|] never increases.

- Seeding: k-means++ in feature space (Arthur & Vassilvitskii 2007): D² sampling with the
  RKHS distances ‖φ_i − φ_c‖² = K_ii − 2K_ic + K_cc; ``n_local_trials`` candidates per
  centre, the one lowering the potential most kept (the greedy variant scikit-learn uses;
  None means its default 2 + ⌊ln k⌋, 1 is the plain D² sampling of the paper). The first
  assignment is to the nearest seed point.
- Lloyd: U = K B is kept and updated only through the points that moved,
  U ← U + K[:, moved] (B_new − B_old)[moved], so an iteration costs O(n·|moved|·k)
  (stored K) or O(n·|moved|·d) (blocked recomputation) after the first O(n²) product.
- Stopping: labels unchanged (a fixed point), or the objective decreased by at most
  ``tol`` × its value (scikit-learn's ``tol`` is a centre shift relative to the per-
  feature variance, which has no meaning in an infinite-dimensional RKHS), or
  ``max_iter`` iterations.
- Empty clusters: a cluster left without points after an assignment receives the point
  farthest from its own centroid among clusters with at least two points (as
  scikit-learn's Lloyd does); every such re-seeding is counted.
- ``n_init`` restarts from independent seedings; the lowest objective is kept.

K comes from a :class:`~kktheory.kernels.gram.Gram`: stored when it fits the memory budget,
recomputed in blocks otherwise. Memory: K (stored) or one block, plus O(nk).

Local search (:func:`hartigan`): a Lloyd fixed point can often be improved by moving a
single point. Moving x_i from cluster a to cluster b changes n·f by exactly

    Δ_i(a→b) = |C_b|/(|C_b| + 1)·‖φ_i − c_b‖² − |C_a|/(|C_a| − 1)·‖φ_i − c_a‖²

(Hartigan & Wong 1979; Telgarsky & Vattani 2010 for kernel k-means), so a move with
Δ < 0 lowers the objective, and a partition where no single move has Δ < 0 is also a
Lloyd fixed point (Δ ≥ 0 for every b implies ‖φ_i − c_a‖ ≤ ‖φ_i − c_b‖), but not
conversely. ``kernel_kmeans(..., local_search=True)`` runs these moves after Lloyd on
every restart, best improving move per point in order, until none improves.

Certificate (:func:`spectral_lower_bound`): with Y = B·diag(|C_j|)^{−1/2} (orthonormal
columns), n·f = tr K − tr(YᵀKY). The vector 1/√n lies in span(Y), so
span(Y) = span(1/√n) ⊕ span(Y′) with Y′ k − 1 orthonormal columns orthogonal to 1, and
tr(YᵀKY) = 1ᵀK1/n + tr(Y′ᵀK_cY′) with K_c = HKH, H = I − 11ᵀ/n (since HY′ = Y′). Relaxing
Y′ to any n × (k−1) orthonormal frame (Ky Fan) gives, for every partition,

    f ≥ f_lb = (tr K_c − Σ_{i<k} λ_i(K_c))/n,   tr K_c = tr K − 1ᵀK1/n

(Zha, He, Ding, Simon & Gu 2001; Ding & He 2004). It is at least as tight as the uncentred
(tr K − Σ_{i≤k} λ_i(K))/n, since λ_1(K) ≥ 1ᵀK1/n and λ_{i+1}(K) ≥ λ_i(K_c) (interlacing).
It is attained when K_c has rank < k with its top eigenvectors piecewise constant on a
partition (e.g. k tight, well-separated groups under the linear kernel). The top k − 1
eigenvalues come from Lanczos (``scipy.sparse.linalg.eigsh``) on v ↦ H K H v.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse.linalg

from kktheory.errors import ConfigError
from kktheory.kernels.gram import Gram


@dataclass
class KernelKMeansResult:
    """Best restart: labels, objective f/n, iterations, seed indices; counts over all restarts."""

    labels: np.ndarray
    objective: float
    n_iter: int
    seeds: np.ndarray
    n_empty_reseeds: int  # clusters re-seeded because they became empty (all restarts)
    objectives: list[float] = field(default_factory=list)  # objective of every restart
    lloyd_objective: float = math.nan  # the best objective before local search
    moves: int = 0  # single-point moves made by the local search (all restarts)


def default_local_trials(k: int) -> int:
    """scikit-learn's number of k-means++ candidates per centre, 2 + ⌊ln k⌋."""
    return 2 + int(math.log(k))


def check_local_trials(field: str, value: int | None) -> None:
    """``n_local_trials`` is null (the default 2 + ⌊ln k⌋) or an integer ≥ 1 (ConfigError)."""
    if value is not None and (isinstance(value, bool) or value < 1):
        raise ConfigError(field, value, "null or an integer ≥ 1")


def kernel_kmeanspp(
    gram: Gram, k: int, rng: np.random.Generator, n_local_trials: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """k-means++ seeds in the RKHS: (indices of the k seed points, K[:, seeds])."""
    trials = default_local_trials(k) if n_local_trials is None else n_local_trials
    diag = gram.diag
    n = gram.n
    seeds = np.empty(k, dtype=np.int64)
    cols = np.empty((n, k))
    seeds[0] = rng.integers(n)
    cols[:, 0] = gram.columns(seeds[:1])[:, 0]
    closest = np.maximum(diag - 2.0 * cols[:, 0] + diag[seeds[0]], 0.0)
    for c in range(1, k):
        pot = closest.sum()
        if pot > 0:
            cand = np.searchsorted(np.cumsum(closest), rng.random(trials) * pot, side="right")
            cand = np.minimum(cand, n - 1)
        else:  # every point coincides with a seed: any point will do
            cand = rng.integers(n, size=trials)
        cand_cols = gram.columns(cand)
        d = np.maximum(diag[:, None] - 2.0 * cand_cols + diag[cand][None, :], 0.0)
        new = np.minimum(closest[:, None], d)
        best = int(np.argmin(new.sum(axis=0)))
        seeds[c] = cand[best]
        cols[:, c] = cand_cols[:, best]
        closest = new[:, best]
    return seeds, cols


def _fill_empty(labels: np.ndarray, D: np.ndarray, k: int) -> int:
    """Move the farthest points into empty clusters (in place); number of clusters re-seeded."""
    sizes = np.bincount(labels, minlength=k)
    empty = np.flatnonzero(sizes == 0)
    if empty.size == 0:
        return 0
    own = D[np.arange(len(labels)), labels]
    order = np.argsort(-own, kind="stable")
    pos = 0
    for j in empty:
        while sizes[labels[order[pos]]] < 2:
            pos += 1
        i = order[pos]
        sizes[labels[i]] -= 1
        labels[i] = j
        sizes[j] = 1
        pos += 1
    return int(empty.size)


def _one_hot(labels: np.ndarray, k: int) -> np.ndarray:
    B = np.zeros((len(labels), k))
    B[np.arange(len(labels)), labels] = 1.0
    return B


def _objective(diag_sum: float, U: np.ndarray, labels: np.ndarray, sizes: np.ndarray, n: int) -> float:
    """(1/n)[Σ K_ii − Σ_j B_jᵀ K B_j / |C_j|] from U = K B."""
    within = np.bincount(labels, weights=U[np.arange(n), labels], minlength=len(sizes))
    nz = sizes > 0
    return float((diag_sum - np.sum(within[nz] / sizes[nz])) / n)


def lloyd(
    gram: Gram, seed_cols: np.ndarray, seed_diag: np.ndarray, max_iter: int, tol: float
) -> tuple[np.ndarray, float, int, int]:
    """Lloyd on K from seed points: (labels, objective f/n, iterations, empty re-seeds)."""
    n, k = seed_cols.shape
    diag = gram.diag
    D = gram.diag[:, None] - 2.0 * seed_cols + seed_diag[None, :]
    labels = D.argmin(axis=1)
    reseeds = _fill_empty(labels, D, k)
    U = gram.times(_one_hot(labels, k))
    diag_sum = float(diag.sum())
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    obj = _objective(diag_sum, U, labels, sizes, n)
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        S = U / sizes
        q = np.bincount(labels, weights=S[np.arange(n), labels], minlength=k) / sizes
        D = diag[:, None] - 2.0 * S + q[None, :]
        new = D.argmin(axis=1)
        reseeds += _fill_empty(new, D, k)
        moved = np.flatnonzero(new != labels)
        if moved.size == 0:
            break
        delta = _one_hot(new[moved], k) - _one_hot(labels[moved], k)
        U += gram.times(delta, moved)
        labels = new
        sizes = np.bincount(labels, minlength=k).astype(np.float64)
        new_obj = _objective(diag_sum, U, labels, sizes, n)
        decrease = obj - new_obj
        obj = new_obj
        if decrease <= tol * abs(obj):
            break
    return labels, obj, n_iter, reseeds


def hartigan(gram: Gram, labels: np.ndarray, k: int, max_sweeps: int = 100) -> tuple[np.ndarray, float, int]:
    """Single-point moves from a partition until none lowers the objective (module docstring).

    Each sweep evaluates Δ for every point and cluster from U = K·B (O(nk)), then visits the
    points with an improving move, best first, re-checking each with the current U and
    moving it if still improving (U updated with one column of K, O(n)). Returns (labels,
    objective f/n, number of moves). Empty clusters are never created (|C_a| > 1).
    """
    labels = np.asarray(labels, dtype=np.int64).copy()
    n = len(labels)
    diag = gram.diag
    U = gram.times(_one_hot(labels, k))
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    within = np.bincount(labels, weights=U[np.arange(n), labels], minlength=k)  # B_jᵀKB_j
    moves = 0

    def gains(idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(best Δ, its cluster) for the points idx under the current state."""
        safe = np.maximum(sizes, 1.0)
        D = diag[idx, None] - 2.0 * U[idx] / safe + within / safe**2  # ‖φ_i − c_j‖²
        own = labels[idx]
        a = sizes[own]
        d_own = D[np.arange(len(idx)), own]
        cost_out = np.where(a > 1, a / np.maximum(a - 1, 1.0) * d_own, -np.inf)  # a singleton never moves
        cost_in = sizes / (sizes + 1.0) * D
        cost_in[np.arange(len(idx)), own] = np.inf
        best = cost_in.argmin(axis=1)
        return cost_in[np.arange(len(idx)), best] - cost_out, best

    for _ in range(max_sweeps):
        delta, _ = gains(np.arange(n))
        todo = np.flatnonzero(delta < -1e-12 * max(1.0, float(diag.mean())))
        if todo.size == 0:
            break
        moved = 0
        for i in todo[np.argsort(delta[todo], kind="stable")]:
            d, b = gains(np.array([i]))
            if d[0] >= -1e-12 * max(1.0, float(diag.mean())):
                continue
            a, b = labels[i], int(b[0])
            col = gram.columns(np.array([i]))[:, 0]
            within[a] += -2.0 * U[i, a] + diag[i]
            within[b] += 2.0 * U[i, b] + diag[i]
            U[:, a] -= col
            U[:, b] += col
            sizes[a] -= 1.0
            sizes[b] += 1.0
            labels[i] = b
            moved += 1
        moves += moved
        if moved == 0:
            break
    return labels, _objective(float(diag.sum()), U, labels, sizes, n), moves


#: up to this n (with K stored) the certificate's eigenvalues come from a dense eigensolver
DENSE_CERTIFICATE_MAX_N = 2000


def spectral_lower_bound(gram: Gram, k: int, rng: np.random.Generator, tol: float = 1e-10) -> float:
    """f_lb = (tr K_c − Σ_{i<k} λ_i(K_c))/n ≤ the kernel k-means objective of every partition
    (module docstring). Dense for n ≤ DENSE_CERTIFICATE_MAX_N, else Lanczos on H K H (O(n²)
    per product with K stored), k − 1 eigenvalues."""
    n = gram.n
    ones = np.ones((n, 1))
    K1 = gram.times(ones)[:, 0]
    trace_c = float(gram.diag.sum() - K1.sum() / n)
    if k <= 1:
        return max(0.0, trace_c / n)

    def matvec(v: np.ndarray) -> np.ndarray:
        v = np.asarray(v, dtype=np.float64).reshape(n, -1)
        v = v - v.mean(axis=0)
        w = gram.times(v)
        return (w - w.mean(axis=0)).reshape(-1) if w.shape[1] == 1 else w - w.mean(axis=0)

    if k - 1 >= n - 1 or trace_c <= 1e-12 * max(1.0, float(gram.diag.sum())):
        return 0.0  # K_c = 0 (all points alike in the RKHS) or every point its own cluster: f* = 0
    if gram.K is not None and n <= DENSE_CERTIFICATE_MAX_N:
        Kc = gram.K.astype(np.float64)
        Kc = Kc - Kc.mean(axis=0)
        Kc -= Kc.mean(axis=1, keepdims=True)
        top = np.linalg.eigvalsh(Kc)[::-1][: k - 1]
    else:
        op = scipy.sparse.linalg.LinearOperator((n, n), matvec=matvec, matmat=matvec, dtype=np.float64)
        top = scipy.sparse.linalg.eigsh(op, k=k - 1, which="LA", tol=tol, v0=rng.standard_normal(n),
                                        return_eigenvectors=False)
    return max(0.0, (trace_c - float(np.clip(top, 0.0, None).sum())) / n)


def kernel_kmeans(
    gram: Gram,
    k: int,
    rng: np.random.Generator,
    n_init: int = 5,
    max_iter: int = 300,
    tol: float = 1e-4,
    n_local_trials: int | None = None,
    local_search: bool = False,
) -> KernelKMeansResult:
    """Exact kernel k-means: best of ``n_init`` k-means++-seeded Lloyd runs on K, each
    followed by single-point moves (:func:`hartigan`) when ``local_search``."""
    best: KernelKMeansResult | None = None
    objectives: list[float] = []
    reseeds = moves = 0
    lloyd_best = math.inf
    for _ in range(n_init):
        seeds, cols = kernel_kmeanspp(gram, k, rng, n_local_trials)
        labels, obj, n_iter, r = lloyd(gram, cols, gram.diag[seeds], max_iter, tol)
        reseeds += r
        lloyd_best = min(lloyd_best, obj)
        if local_search:
            labels, obj, m = hartigan(gram, labels, k)
            moves += m
        objectives.append(obj)
        if best is None or obj < best.objective:
            best = KernelKMeansResult(labels, obj, n_iter, seeds, 0)
    assert best is not None
    best.n_empty_reseeds = reseeds
    best.objectives = objectives
    best.lloyd_objective = lloyd_best
    best.moves = moves
    return best
