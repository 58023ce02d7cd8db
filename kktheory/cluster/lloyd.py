"""Lloyd's k-means iterations with Hamerly's bounds: scikit-learn's Lloyd, fewer distances.

Lloyd's algorithm alternates an assignment step (each point to its nearest centre) and an
update step (each centre to the mean of its points). Hamerly (2010, "Making k-means even
faster", SIAM SDM, Algorithm 2) keeps, for every point i assigned to centre a(i), an upper
bound u_i ≥ ‖x_i − c_a(i)‖ and one lower bound l_i ≤ min_{j≠a(i)} ‖x_i − c_j‖. When

    u_i ≤ max(l_i, s_a(i)),    s_j = ½ min_{j'≠j} ‖c_j − c_j'‖,

no centre can be nearer than c_a(i) (triangle inequality) and the point's distances are
not computed. After the update step, with p_j = ‖c_j^new − c_j^old‖ the centres' moves,
u_i grows by p_a(i) and l_i shrinks by max_{j≠a(i)} p_j, so the bounds stay valid. The
points that fail the test get their k distances computed exactly (one GEMM over those
rows); the centre sums are updated by the points that changed cluster only.

The iterations are scikit-learn's ``_kmeans_single_lloyd``'s (the same partition after
every step, up to round-off in near-ties): the same stopping rules (labels unchanged, or
Σ_j p_j² ≤ tol), the same relocation of empty clusters (to the points farthest from their
centres, scikit-learn's ``_relocate_empty_clusters_dense``), a final assignment step when
stopped by the tolerance, and the same inertia. Once most points pass the test, an
iteration costs O(n) for the bounds plus O(n_active·d·k) for the others, against Lloyd's
O(n·d·k); when fewer than half pass, a plain full pass is made instead (:data:`FULL_PASS`),
so the pruning never costs much more than Lloyd. Memory: two float64 bounds per point and
the k × d centre sums.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from kktheory.seeding import sklearn_state

#: an iteration computes every point's distances (one pass, as Lloyd) when more than this
#: share of the points fails the bound test
FULL_PASS = 0.5
#: rows whose distances are computed at a time (bounds the n × k and gathered-row temporaries)
CHUNK_ROWS = 8192


def _sq_norms(X: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", X, X).astype(np.float64)


def _scores(X: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """‖c_j‖² − 2⟨x_i, c_j⟩ in X's dtype: what scikit-learn's assignment step compares (its
    argmin over j is the nearest centre, ties to the lower index)."""
    C = centers.astype(X.dtype, copy=False)
    E = X @ C.T
    E *= -2
    E += np.einsum("ij,ij->i", C, C)[None, :]
    return E


def _centre_gaps(centers: np.ndarray) -> np.ndarray:
    """s_j = ½ min_{j'≠j} ‖c_j − c_j'‖ (float64; infinite for a single centre)."""
    C = np.asarray(centers, dtype=np.float64)
    sq = np.einsum("ij,ij->i", C, C)
    D = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (C @ C.T), 0.0)
    np.fill_diagonal(D, np.inf)
    return 0.5 * np.sqrt(D.min(axis=1))


def _nearest_two(X: np.ndarray, x_sq: np.ndarray, centers: np.ndarray,
                 rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nearest centre by scikit-learn's comparison, its distance, the second smallest
    distance) of the points ``rows`` (default all), computed CHUNK_ROWS points at a time;
    distances √(‖x‖² + ‖c‖² − 2⟨x, c⟩) in float64."""
    n = len(X) if rows is None else len(rows)
    a, d1, d2 = np.empty(n, dtype=np.int64), np.empty(n), np.full(n, np.inf)
    for start in range(0, n, CHUNK_ROWS):
        part = slice(start, min(start + CHUNK_ROWS, n))
        idx = part if rows is None else rows[part]
        E = _scores(X[idx], centers)
        a[part] = np.argmin(E, axis=1)
        D = E.astype(np.float64)
        D += x_sq[idx][:, None]
        D = np.sqrt(np.maximum(D, 0.0, out=D), out=D)
        at = (np.arange(len(D)), a[part])
        d1[part] = D[at]
        if D.shape[1] > 1:
            D[at] = np.inf
            d2[part] = D.min(axis=1)
    return a, d1, d2


def _own_sq_distances(X: np.ndarray, centers: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """‖x_i − c_label(i)‖² (float64), CHUNK_ROWS points at a time."""
    out = np.empty(len(X))
    for start in range(0, len(X), CHUNK_ROWS):
        part = slice(start, start + CHUNK_ROWS)
        diff = np.asarray(X[part], dtype=np.float64) - centers[labels[part]]
        out[part] = np.einsum("ij,ij->i", diff, diff)
    return out


def _cluster_sums(X: np.ndarray, rows: np.ndarray, clusters: np.ndarray, signs: np.ndarray,
                  k: int) -> np.ndarray:
    """Σ signs[t]·X[rows[t]] per cluster clusters[t] (k × d, float64), one sparse product."""
    S = sp.csr_matrix((signs.astype(X.dtype), (clusters, rows)), shape=(k, len(X)))
    return np.asarray(S @ X, dtype=np.float64)


class _State:
    """Labels, Hamerly's bounds and the float64 centre sums of one Lloyd run."""

    def __init__(self, X: np.ndarray, centers: np.ndarray) -> None:
        self.X, self.x_sq, self.k = X, _sq_norms(X), len(centers)
        self.full_pass(centers)

    def full_pass(self, centers: np.ndarray) -> None:
        """Every point's distances: labels, tight bounds, and the centre sums rebuilt."""
        self.labels, self.upper, self.lower = _nearest_two(self.X, self.x_sq, centers)
        every = np.arange(len(self.X))
        self.sums = _cluster_sums(self.X, every, self.labels, np.ones(len(every)), self.k)
        self.counts = np.bincount(self.labels, minlength=self.k).astype(np.float64)

    def assign(self, centers: np.ndarray) -> None:
        """The assignment step against ``centers``: labels and bounds updated; the centre sums
        rebuilt after a full pass, else moved by the points that changed cluster."""
        s = _centre_gaps(centers)
        # skipped only when strictly inside the bounds: at an exact tie scikit-learn takes the
        # lower-index centre, which the bounds cannot tell
        active = np.flatnonzero(self.upper >= np.maximum(self.lower, s[self.labels]))
        if len(active) > FULL_PASS * len(self.X):
            return self.full_pass(centers)
        a, d1, d2 = _nearest_two(self.X, self.x_sq, centers, active)
        self.upper[active], self.lower[active] = d1, d2
        changed = a != self.labels[active]
        moved, old, new = active[changed], self.labels[active[changed]], a[changed]
        if len(moved):
            self.labels[moved] = new
            ones = np.ones(len(moved))
            self.sums += _cluster_sums(self.X, np.r_[moved, moved], np.r_[new, old], np.r_[ones, -ones], self.k)
            self.counts += np.bincount(new, minlength=self.k) - np.bincount(old, minlength=self.k)

    def centers(self, old: np.ndarray) -> np.ndarray:
        """The update step: cluster means, an empty cluster relocated as scikit-learn does.

        A cluster still empty after that (every point on its centre) gets, as in
        scikit-learn's ``_average_centers`` (which averages in place in index order), the
        largest cluster's row as it stands at that moment: its sum when the empty cluster
        comes first, its mean otherwise."""
        empty = np.flatnonzero(self.counts == 0)
        if empty.size:
            self._relocate(old, empty)
        new = self.sums * (1.0 / np.maximum(self.counts, 1.0))[:, None]  # scikit-learn's rounding: × 1/w
        big = int(np.argmax(self.counts))
        for j in np.flatnonzero(self.counts == 0):
            new[j] = self.sums[big] if j < big else new[big]
        return new.astype(self.X.dtype)

    def _relocate(self, old: np.ndarray, empty: np.ndarray) -> None:
        """scikit-learn's relocation: the points farthest from their centre become the empty
        clusters' centres (their labels stay until the next assignment step, which then
        computes every distance and rebuilds the sums)."""
        own = _own_sq_distances(self.X, old, self.labels)
        if own.max() == 0:
            return
        far = np.argpartition(own, -empty.size)[: -empty.size - 1: -1]
        for new_id, i in zip(empty, far):
            x = np.asarray(self.X[i], dtype=np.float64)
            self.sums[self.labels[i]] -= x
            self.counts[self.labels[i]] -= 1
            self.sums[new_id] = x
            self.counts[new_id] = 1
        self.upper[:] = np.inf

    def move_bounds(self, shift: np.ndarray) -> None:
        """Keep the bounds valid after the centres moved by ``shift`` (k,)."""
        self.upper += shift[self.labels]
        if self.k > 1:
            order = np.argsort(shift)
            top, second = order[-1], order[-2]
            self.lower -= np.where(self.labels == top, shift[second], shift[top])


def lloyd(X: np.ndarray, centers_init: np.ndarray, max_iter: int = 300,
          tol: float = 1e-4) -> tuple[np.ndarray, float, np.ndarray, int]:
    """Lloyd's iterations from ``centers_init`` with Hamerly's bounds: (labels, inertia,
    centres, iterations), as scikit-learn's ``_kmeans_single_lloyd`` returns them.

    ``tol`` is absolute (scikit-learn's ``KMeans`` passes tol × mean feature variance);
    stops when an assignment step changes no label or after an update with Σ_j p_j² ≤ tol.
    """
    with threadpool_limits(1):  # skinny products (k columns): one BLAS thread is faster than two
        return _lloyd(X, np.asarray(centers_init, dtype=X.dtype), max_iter, tol)


def _lloyd(X: np.ndarray, centers: np.ndarray, max_iter: int, tol: float) -> tuple[np.ndarray, float, np.ndarray, int]:
    state = _State(X, centers)
    labels_old = np.full(len(X), -1)
    strict = False
    for i in range(max_iter):
        if i:
            state.assign(centers)
        new = state.centers(centers)
        shift = np.sqrt(((new.astype(np.float64) - centers) ** 2).sum(axis=1))
        state.move_bounds(shift)
        centers = new
        if np.array_equal(state.labels, labels_old):
            strict = True
            break
        if (shift**2).sum() <= tol:
            break
        labels_old = state.labels.copy()
    if not strict:
        state.assign(centers)
    inertia = float(_own_sq_distances(X, centers, state.labels).sum())
    return state.labels.astype(np.int32), inertia, centers, i + 1


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether every cluster of ``a`` lies inside one cluster of ``b`` (scikit-learn's
    ``_is_same_clustering``: a relabelling of the same partition, up to merges)."""
    return len(np.unique(np.c_[a, b], axis=0)) == len(np.unique(a))


def chunked_tolerance(X: np.ndarray, tol: float) -> float:
    """tol × the mean per-feature variance of X — scikit-learn's ``_tolerance`` for dense X —
    accumulated in float64 over row chunks (:data:`CHUNK_ROWS`), without the n × d
    temporary ``np.var`` forms (as large as X itself). Equal to ``_tolerance`` up to
    round-off."""
    if not tol:
        return 0.0
    n, d = X.shape
    total, sq = np.zeros(d), np.zeros(d)
    for start in range(0, n, CHUNK_ROWS):
        chunk = np.asarray(X[start:start + CHUNK_ROWS], dtype=np.float64)
        total += chunk.sum(axis=0)
        sq += np.einsum("ij,ij->j", chunk, chunk)
    mean = total / n
    return float(np.mean(np.maximum(sq / n - mean * mean, 0.0))) * tol


def kmeans(F: np.ndarray, k: int, init: Callable[..., np.ndarray] | np.ndarray, n_init: int, max_iter: int,
           tol: float, random_state: int, copy: bool = True) -> tuple[np.ndarray, np.ndarray, float, int]:
    """scikit-learn's ``KMeans(k, init=init, n_init=n_init, max_iter=max_iter, tol=tol,
    random_state=random_state).fit(F)`` with :func:`lloyd` as its Lloyd iterations:
    (labels, centres, inertia, iterations) of the restart of lowest inertia.

    As ``KMeans.fit``: the features are centred (a copy, float32 kept, other dtypes as
    float64; with ``copy=False`` a C-contiguous float F is centred in place and the mean
    added back before returning, as ``KMeans(copy_x=False)``, and the tolerance's variance
    is accumulated over row chunks, :func:`chunked_tolerance`), ``tol`` is scaled by the
    mean feature variance, a callable ``init(X, k, random_state=...)`` is called once per
    restart with one ``RandomState(random_state)`` (an array ``init`` means one restart
    from it), and a restart replaces the best only with a lower inertia and a different
    partition.
    """
    F = np.asarray(F)
    if not 1 <= k <= len(F):
        raise ValueError(f"n_samples={len(F)} should be >= n_clusters={k}.")
    dtype = F.dtype if F.dtype in (np.float32, np.float64) else np.float64
    X = np.array(F, dtype=dtype, order="C", copy=copy or None)
    mean = X.mean(axis=0)
    X -= mean
    tol = (float(np.mean(np.var(X, axis=0))) * tol if tol else 0.0) if copy else chunked_tolerance(X, tol)
    try:
        return _restarts(X, mean, k, init, n_init, max_iter, tol, random_state)
    finally:
        if X is F:
            X += mean


def _restarts(X: np.ndarray, mean: np.ndarray, k: int, init: Callable[..., np.ndarray] | np.ndarray,
              n_init: int, max_iter: int, tol: float, random_state: int) -> tuple[np.ndarray, np.ndarray, float, int]:
    """:func:`kmeans` on the centred X (its feature mean ``mean``; ``tol`` absolute)."""
    dtype = X.dtype
    rs = sklearn_state(random_state)
    best: tuple[np.ndarray, np.ndarray, float, int] | None = None
    for _ in range(1 if not callable(init) else n_init):
        start = init(X, k, random_state=rs) if callable(init) else np.asarray(init, dtype=dtype) - mean
        labels, inertia, centers, n_iter = lloyd(X, np.ascontiguousarray(start, dtype=dtype), max_iter, tol)
        if best is None or (inertia < best[2] and not same_partition(labels, best[0])):
            best = (labels, centers, inertia, n_iter)
    labels, centers, inertia, n_iter = best
    return labels, centers + mean, inertia, n_iter
