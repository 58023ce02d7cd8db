"""Clustering risk in the RKHS of a partition, with lifted or projected centroids.

A partition C_1..C_k of the training set (N_j = |C_j|) becomes centroids in one of two ways.

Lifted (Yin et al. 2022, eq. 11): c_j = (1/N_j) Σ_{l∈C_j} φ_l, and by the kernel trick

    ‖φ(x) − c_j‖² = κ(x, x) − 2 s_j(x) + q_j,
    s_j(x) = (1/N_j) Σ_{l∈C_j} κ(x, x_l),   q_j = (1/N_j²) Σ_{l,l'∈C_j} κ(x_l, x_l').

Projected (Calandriello & Rosasco 2018, eq. 2), for a projection embedding φ̃ = coordinates
of Π_m φ in H_m: c̃_j = (1/N_j) Σ_{l∈C_j} φ̃_l ∈ H_m and

    ‖φ(x) − c̃_j‖² = ‖Π_m^⊥ φ(x)‖² + ‖φ̃(x) − c̃_j‖² = residual(x) + ‖φ̃(x) − c̃_j‖².

Reported for either rule, with D_j(x) the squared distance to centroid j:

- ``train_risk`` = W(C, μ_n) = (1/n) Σ_i min_j D_j(x_i)   (nearest centroid, Calandriello eq. 1),
- ``objective``  = (1/n) Σ_j Σ_{i∈C_j} D_j(x_i)           (cost of the returned partition, Wang's f/n),
- ``test_risk``  = W(C, μ_test), and labels argmin_j D_j(x) of train and test points.

Empty clusters have no centroid (D_j = +∞).

Exact lifted computation (n ≤ ``exact_limit``)
-----------------------------------------------
With Z_lj = 1/N_j for l ∈ C_j, s_j(x) = (κ(x, X) Z)_j and q_j = Σ_l Z_lj s_j(x_l). One pass
over row blocks of κ(X_train, X_train) and one over κ(X_test, X_train), each block sized
from the memory budget: O((n + n_test)·n·d) time, memory of one block plus O((n+n_test)·k).

Batched evaluation (:func:`lifted_many`): the M partitions of a run with a list of m share
the kernel blocks, so their membership matrices are stacked into one n × kM matrix
[Z_1 … Z_M] and the same two passes compute κ(x, X)·[Z_1 … Z_M], sliced per partition
afterwards: O((n + n_test)·n·d + (n + n_test)·n·k·M) time for all M, memory of one block
plus O((n + n_test)·k·M), nothing held between partitions. Each partition's numbers are
those of its evaluation alone (up to the order of floating-point sums).

Projected computation: O((n + n_test)·r·k) from the features, always exact.

Subsampling estimator of the lifted risks (n > ``exact_limit``)
----------------------------------------------------------------
The only quadratic quantities are the within-cluster sums q_j; the cross terms s_j(x) cost
O(n·d) per point. The estimator therefore keeps s_j exact at sampled evaluation points and
estimates q_j from sampled pairs:

1. q̂_j (unbiased). With the diagonal Σ_{l∈C_j} κ_ll exact,
   q_j = [Σ_{l∈C_j} κ_ll + N_j(N_j − 1) μ_j] / N_j², μ_j = mean of κ(x_l, x_l') over ordered
   pairs l ≠ l' of C_j. μ̂_j is the mean over P i.i.d. uniform ordered distinct pairs — an
   incomplete U-statistic (Blom 1976; Janson 1984) with E μ̂_j = μ_j and
   Var μ̂_j = σ_j²/P, estimated by the pair sample variance / P. Hence E q̂_j = q_j and
   v_j = Var q̂_j = ((N_j − 1)/N_j)² Var μ̂_j. When N_j(N_j − 1) ≤ P the sum is computed
   exactly (v_j = 0). Clusters are sampled independently. Cost O(k·P·d).
2. ``objective`` (unbiased). Since Σ_{i∈C_j} s_j(x_i) = N_j q_j,
   objective = (1/n)[Σ_i κ_ii − Σ_j N_j q_j], which is linear in q:
   ôbj = (1/n)[Σ_i κ_ii − Σ_j N_j q̂_j], E ôbj = objective, SE² = Σ_j (N_j/n)² v_j.
3. ``train_risk`` and ``test_risk``. A simple random sample T of b evaluation points
   (without replacement, b = min(``points``, N) out of the N training or test points,
   drawn from the stream before the pairs, so T does not depend on the partition: every
   row of an m-list is evaluated at the same points, and their cross sums κ(T, X)·[Z_1 … Z_M]
   are computed once for every partition), with
   s_j(x) computed exactly for x ∈ T (O(b·n·d)), and
   R̂ = (1/b) Σ_{x∈T} g(x; q̂),  g(x; q) = min_j [κ(x,x) − 2 s_j(x) + q_j].
   Given q̂, R̂ is the sample mean of a fixed function, unbiased for R(q̂) = (1/N) Σ_x g(x; q̂)
   with Var = (1 − b/N) S²/b (finite-population correction, S² the variance of g over the
   N points, estimated by the sample variance). The min makes R(q̂) a concave function of
   q̂, so no unbiased estimator of R(q) = R(q̂ = q) exists from q̂ alone; instead
       −E max_j |q̂_j − q_j| ≤ E R̂ − R ≤ 0,
   since g(x; q̂) ≤ g(x; q) + (q̂ − q)_{j*(x)} (whose mean is 0) and g is 1-Lipschitz in
   ‖·‖_∞. The bias is thus below ``risk_bias_bound`` = √(Σ_j v_j) ≥ E‖q̂ − q‖_∞ in absolute
   value (and in practice second order: only points near a tie between two centroids
   contribute). With exact q (all clusters small) R̂ is exactly unbiased. The reported SE
   adds the first-order effect of q̂: SE² = (1 − b/N) s²/b + Σ_j π̂_j² v_j, π̂_j the fraction
   of sampled points nearest to centroid j (dR/dq_j = π_j).
   The labels (and hence the test NMI, ARI, accuracy) are those of the sampled points, whose
   indices are kept with the run.

``risk_estimator`` names the estimator of each row: ``exact`` or
``subsample(b=…,pairs=…)``; ``*_se`` columns are 0 for exact values.

What a run stores of the estimator's randomness: the evaluation points (``train_eval_idx``,
``test_eval_idx``, b each) and ``risk_pairs_rng_state``, the state of the stream just before
the pairs (:func:`kktheory.seeding.generator_state`, 6 words). The pairs are drawn cluster
by cluster, j = 0..k−1, for the clusters with N_j(N_j − 1) > P: a = ``integers(N_j,
size=P)``, then b = ``integers(N_j − 1, size=P)``, b ← b + (b ≥ a), the pair being the a-th
and b-th members of C_j in index order; :func:`cluster_pairs` replays them from the state.
They are recorded rather than stored because there are up to 2·k·P of them (2·10⁶ indices
at the defaults k = 10, P = 10⁵), independent of n.

Data access: the estimator reads the training (and evaluation) points through
:class:`Rows` — a few sampled rows, per-cluster sums of κ(x, x), the cross sums
κ(Y, X)·Z and kernel values of sampled pairs. :class:`Rows` holds the points in memory;
:class:`kktheory.run.dask.DaskRows` computes the same quantities chunk by chunk on a
Dask array, so the estimator above is one implementation for both backends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.machine import memory
from kktheory.kernels.geometry import cluster_means, feature_sq_distances, sq_dist_to_centroids, stacked_membership
from kktheory.kernels.gram import KernelBlock
from kktheory.kernels.functions import Kernel
from kktheory.seeding import generator_state


@dataclass(frozen=True)
class RiskSettings:
    """How lifted risks are computed: exact up to ``exact_limit`` training points."""

    budget: int  # memory budget in bytes (block sizes)
    exact_limit: int  # exact when n ≤ exact_limit, else the subsampling estimator
    points: int  # evaluation points b (train and test each) of the estimator
    pairs: int  # pairs per cluster P for the within-cluster sums q̂_j

    @classmethod
    def exact(cls, budget: int) -> RiskSettings:
        """Exact lifted risks at every n (no estimator; no stream is read)."""
        return cls(budget, exact_limit=np.iinfo(np.int64).max, points=0, pairs=0)

    @classmethod
    def estimated(cls, budget: int, points: int, pairs: int) -> RiskSettings:
        """The subsampling estimator at every n (e.g. on a Dask array)."""
        return cls(budget, exact_limit=-1, points=points, pairs=pairs)


@dataclass
class Risk:
    """Risks of a partition, their standard errors, and the centroid-rule labels."""

    train_risk: float
    objective: float
    test_risk: float
    train_nearest: np.ndarray  # argmin_j D_j of the evaluated training points
    test_labels: np.ndarray  # argmin_j D_j of the evaluated test points
    train_risk_se: float = 0.0
    objective_se: float = 0.0
    test_risk_se: float = 0.0
    estimator: str = "exact"
    train_eval: np.ndarray | None = None  # indices of evaluated training points (None: all)
    test_eval: np.ndarray | None = None  # indices of evaluated test points (None: all)
    bias_bound: float = 0.0  # bound on |bias| of train_risk / test_risk (subsampling)
    pairs_state: np.ndarray | None = None  # generator state before the pair draws (subsampling)

    @classmethod
    def from_distances(cls, D_train: np.ndarray, D_test: np.ndarray, labels: np.ndarray) -> Risk:
        """Exact risks from squared distances to every centroid (rows: points)."""
        return cls(
            train_risk=float(D_train.min(axis=1).mean()),
            objective=float(D_train[np.arange(len(labels)), labels].mean()),
            test_risk=float(D_test.min(axis=1).mean()),
            train_nearest=D_train.argmin(axis=1),
            test_labels=D_test.argmin(axis=1),
        )

    def columns(self) -> dict[str, Any]:
        """The row columns of these risks."""
        return {
            "train_risk": self.train_risk, "train_risk_se": self.train_risk_se,
            "objective": self.objective, "objective_se": self.objective_se,
            "test_risk": self.test_risk, "test_risk_se": self.test_risk_se,
            "risk_estimator": self.estimator, "risk_bias_bound": self.bias_bound,
        }


class Rows:
    """Points as the risk computations read them (here: a NumPy array in memory).

    Only :meth:`take` returns points, and only a few sampled ones; everything that touches
    all points goes through :meth:`diag_sum`, :meth:`cross_sums` and :meth:`paired`.
    """

    def __init__(self, X: np.ndarray) -> None:
        self.X = X

    def __len__(self) -> int:
        return len(self.X)

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    def take(self, idx: np.ndarray | None) -> np.ndarray:
        """The rows ``idx`` (None: all) as a NumPy array."""
        return self.X if idx is None else self.X[idx]

    def diag_sum(self, kernel: Kernel, idx: np.ndarray | None = None) -> float:
        """Σ κ(x_i, x_i) over the rows ``idx`` (None: all)."""
        return float(kernel.diag(self.take(idx)).sum())

    def cross_sums(self, kernel: Kernel, Y: np.ndarray, Z: np.ndarray, budget: int, desc: str) -> np.ndarray:
        """S = κ(Y, X)·Z (len(Y) × Z.shape[1], float64), in row blocks of the longer of Y
        and X (:class:`~kktheory.kernels.gram.KernelBlock`)."""
        return KernelBlock(kernel, Y, self.X, budget, desc=desc).times(Z)

    def paired(self, kernel: Kernel, ia: np.ndarray, ib: np.ndarray, budget: int) -> np.ndarray:
        """κ(x_ia[t], x_ib[t]) for every t (float64), in blocks sized by the budget."""
        vals = np.empty(len(ia))
        step = memory.block_rows(2 * self.n_features, np.dtype(kernel.dtype).itemsize, budget, len(ia))
        for s in range(0, len(ia), step):
            vals[s : s + step] = kernel.paired(self.X[ia[s : s + step]], self.X[ib[s : s + step]])
        return vals


def as_rows(X: np.ndarray | Rows) -> Rows:
    """``X`` itself if it is already a :class:`Rows`, else the in-memory Rows of X."""
    return X if isinstance(X, Rows) else Rows(X)


def _columns(i: int, k: int) -> slice:
    """The columns of the i-th partition in a stacked n × kM matrix."""
    return slice(i * k, (i + 1) * k)


def _one_stream(rng: np.random.Generator) -> Callable[[], np.random.Generator]:
    """``make_rng`` of a single partition: returns ``rng`` on its one call."""
    return iter([rng]).__next__


def _labels_k(labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(labels as int64, which of the k clusters are nonempty); labels must lie in 0..k−1."""
    labels = np.asarray(labels, dtype=np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= k):
        raise ValueError(f"labels must lie in 0..{k - 1}")
    return labels, np.bincount(labels, minlength=k) > 0


def _exact_many(
    kernel: Kernel, X_train: np.ndarray, labelings: Sequence[np.ndarray], X_test: np.ndarray,
    k: int, budget: int,
) -> list[Risk]:
    """Exact lifted train risk, objective and test risk of every partition ``labelings[i]``.

    One blocked pass over κ(X_train, X_train) and one over κ(X_test, X_train) compute the
    cross sums S = κ(·, X_train)·[Z_1 … Z_M] of all partitions (module docstring,
    :meth:`LiftedCentroids.exact_many`); each partition's columns of S then give its
    distances.
    """
    if not labelings:
        return []
    centroids, S_train = LiftedCentroids.exact_many(kernel, X_train, labelings, k, budget)
    S_test = centroids.cross_sums(X_test, "risk (test)")
    diag_train, diag_test = kernel.diag(X_train), kernel.diag(X_test)
    return [Risk.from_distances(centroids.distances_of(c, diag_train, S_train),
                                centroids.distances_of(c, diag_test, S_test), np.asarray(labels, dtype=np.int64))
            for labels, c in zip(labelings, centroids.blocks())]


def cluster_pairs(
    labels: np.ndarray, k: int, pairs: int, rng: np.random.Generator,
) -> Iterator[tuple[int, np.ndarray, tuple[np.ndarray, np.ndarray] | None]]:
    """(j, members of C_j, sampled pairs or None) for each non-empty cluster j in order.

    The pairs are ``pairs`` i.i.d. uniform ordered pairs of distinct members (training
    indices ia, ib), drawn from ``rng`` when N_j(N_j − 1) > pairs; None when the sum over
    C_j is computed exactly (no draw). Replays a run's pairs from its
    ``risk_pairs_rng_state`` (module docstring). Memory: one cluster's pairs at a time.
    """
    labels = np.asarray(labels)
    for j in range(k):
        idx = np.flatnonzero(labels == j)
        N = len(idx)
        if N == 0:
            continue
        if N * (N - 1) <= pairs:
            yield j, idx, None
            continue
        a = rng.integers(N, size=pairs)
        b = rng.integers(N - 1, size=pairs)
        b += b >= a  # uniform over the N−1 points other than a
        yield j, idx, (idx[a], idx[b])


def within_cluster_sums(
    kernel: Kernel, X: np.ndarray | Rows, labels: np.ndarray, k: int, pairs: int,
    rng: np.random.Generator, budget: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(q̂_j, Var q̂_j) for every cluster: exact when N_j(N_j−1) ≤ pairs, else from the
    pairs of :func:`cluster_pairs`."""
    rows = as_rows(X)
    q = np.zeros(k)
    var = np.zeros(k)
    for j, idx, drawn in cluster_pairs(labels, k, pairs, rng):
        N = len(idx)
        if drawn is None:
            Xj = rows.take(idx)
            q[j] = sum(float(b.sum(dtype=np.float64)) for _, b in kernel.row_blocks(Xj, Xj, budget)) / N**2
            continue
        vals = rows.paired(kernel, *drawn, budget)
        q[j] = (rows.diag_sum(kernel, idx) + N * (N - 1) * vals.mean()) / N**2
        var[j] = ((N - 1) / N) ** 2 * vals.var(ddof=1) / pairs
    return q, var


def sample_points(N: int, points: int, rng: np.random.Generator) -> np.ndarray | None:
    """Sorted simple random sample of min(points, N) of N indices; None when all N."""
    b = min(points, N)
    return np.sort(rng.choice(N, size=b, replace=False)) if b < N else None


def sample_cross_sums(
    kernel: Kernel, X_eval: Rows, idx: np.ndarray | None, X_train: Rows, Z: np.ndarray,
    budget: int, desc: str,
) -> tuple[np.ndarray, np.ndarray]:
    """(κ(x, x), κ(x, X_train)·Z) for the rows x of X_eval at ``idx`` (None: all)."""
    Xs = X_eval.take(idx)
    return kernel.diag(Xs), X_train.cross_sums(kernel, Xs, Z, budget, desc)


def risk_from_cross_sums(
    diag: np.ndarray, S: np.ndarray, q: np.ndarray, q_var: np.ndarray, nonempty: np.ndarray, N: int,
) -> tuple[float, float, np.ndarray]:
    """(R̂, SE, labels) of step 3 from κ(x, x) and the cross sums S (b × k) of b sampled
    points out of N: R̂ = mean of g = min_j D_j, SE² = (1 − b/N) s²/b + Σ_j π̂_j² v_j."""
    D = sq_dist_to_centroids(diag, S, q, nonempty)
    b = len(D)
    g = D.min(axis=1)
    nearest = D.argmin(axis=1)
    var_points = (1.0 - b / N) * g.var(ddof=1) / b if b > 1 else 0.0
    pi = np.bincount(nearest, minlength=len(q)) / b
    se = float(np.sqrt(var_points + np.sum(pi**2 * q_var)))
    return float(g.mean()), se, nearest


def sampled_risk(
    kernel: Kernel, X_eval: Rows, X_train: Rows, Z: np.ndarray, q: np.ndarray,
    q_var: np.ndarray, nonempty: np.ndarray, points: int, rng: np.random.Generator,
    budget: int, desc: str,
) -> tuple[float, float, np.ndarray, np.ndarray | None]:
    """(R̂, SE, labels of the sampled points, their indices or None for all).

    Step 3 of the estimator for one set of evaluation points. With ``points`` ≥ len(X_eval)
    every point is evaluated: R̂ is then the exact risk for the given q (exact q: the exact
    risk, as :func:`lifted` computes it).
    """
    idx = sample_points(len(X_eval), points, rng)
    diag, S = sample_cross_sums(kernel, X_eval, idx, X_train, Z, budget, desc)
    return (*risk_from_cross_sums(diag, S, q, q_var, nonempty, len(X_eval)), idx)


@dataclass
class LiftedCentroids:
    """The lifted centroids c_j = (1/N_j) Σ_{i∈C_j} φ(x_i) of M ≥ 1 partitions of the same
    training rows, held through what distances to them need (module docstring):

        ‖φ(y) − c_j‖² = κ(y, y) − 2 s_j(y) + q_j,   s_j(y) = (κ(y, X) Z)_j,
        q_j = (1/N_j²) Σ_{i,i′∈C_j} κ(x_i, x_i′),

    with Z = [Z_1 … Z_M] the stacked membership matrices (Z_ij = 1/N_j on C_j); the columns
    i·k … i·k + k − 1 of Z, q, q_var and nonempty are partition i's (:meth:`blocks`).
    One pass of κ(Y, X) against Z gives the distances of every partition at once.

    - :meth:`fit` / :meth:`fit_many`: q_j from the within-cluster sums
      (:func:`within_cluster_sums`): exact when ``exact`` or when N_j(N_j − 1) ≤ ``pairs``,
      else estimated from ``pairs`` sampled pairs, partition i reading ``rngs[i]`` (the
      variance in ``q_var``). Cost: the clusters' blocks, or k·P kernel values.
    - :meth:`exact_many`: q from one blocked pass S = κ(X, X)·Z, q_j = Σ_l Z_lj S_lj, whose
      S also gives the training points' distances (the run's exact risks).
    """

    kernel: Kernel
    rows: Rows
    Z: np.ndarray
    q: np.ndarray
    q_var: np.ndarray
    nonempty: np.ndarray
    k: int
    exact: bool
    budget: int

    @classmethod
    def fit(
        cls, kernel: Kernel, X: np.ndarray | Rows, labels: np.ndarray, k: int, budget: int, exact: bool,
        pairs: int, rng: np.random.Generator,
    ) -> LiftedCentroids:
        """The centroids of one partition (:meth:`fit_many`)."""
        return cls.fit_many(kernel, X, [labels], k, budget, exact, pairs, [rng])

    @classmethod
    def fit_many(
        cls, kernel: Kernel, X: np.ndarray | Rows, labelings: Sequence[np.ndarray], k: int, budget: int,
        exact: bool, pairs: int, rngs: Sequence[np.random.Generator],
    ) -> LiftedCentroids:
        rows = as_rows(X)
        parts = [_labels_k(labels, k) for labels in labelings]
        sums = [within_cluster_sums(kernel, rows, labels, k, len(rows) ** 2 if exact else pairs, rng, budget)
                for (labels, _), rng in zip(parts, rngs)]
        return cls(kernel, rows, stacked_membership([labels for labels, _ in parts], k, len(rows)),
                   np.concatenate([q for q, _ in sums]), np.concatenate([v for _, v in sums]),
                   np.concatenate([nonempty for _, nonempty in parts]), k, exact, budget)

    @classmethod
    def exact_many(
        cls, kernel: Kernel, X: np.ndarray, labelings: Sequence[np.ndarray], k: int, budget: int,
    ) -> tuple[LiftedCentroids, np.ndarray]:
        """(the exact centroids of every partition, S = κ(X, X)·Z): q from one blocked pass."""
        parts = [_labels_k(labels, k) for labels in labelings]
        Z = stacked_membership([labels for labels, _ in parts], k, len(X))
        rows = Rows(X)
        S = rows.cross_sums(kernel, X, Z, budget, "risk (train)")
        q = np.einsum("ij,ij->j", Z, S)
        nonempty = np.concatenate([nonempty for _, nonempty in parts])
        return cls(kernel, rows, Z, q, np.zeros_like(q), nonempty, k, True, budget), S

    def blocks(self) -> list[slice]:
        """The columns of each partition, in order."""
        return [_columns(i, self.k) for i in range(len(self.q) // self.k)]

    def cross_sums(self, Y: np.ndarray, desc: str) -> np.ndarray:
        """κ(Y, X)·Z (len(Y) × kM, float64), in row blocks."""
        return self.rows.cross_sums(self.kernel, Y, self.Z, self.budget, desc)

    def distances(self, Y: np.ndarray, desc: str = "distances") -> np.ndarray:
        """‖φ(y) − c_j‖² for every row y of Y and every centroid of every partition
        (len(Y) × kM; +inf for empty clusters)."""
        return sq_dist_to_centroids(self.kernel.diag(Y), self.cross_sums(Y, desc), self.q, self.nonempty)

    def distances_of(self, block: slice, diag: np.ndarray, S: np.ndarray) -> np.ndarray:
        """‖φ(y) − c_j‖² for one partition's centroids (``block`` of :meth:`blocks`), from
        κ(y, y) and the stacked cross sums S = κ(Y, X)·Z: one partition's n × k at a time."""
        return sq_dist_to_centroids(diag, S[:, block], self.q[block], self.nonempty[block])

    def nearest(self, Y: np.ndarray, desc: str = "distances") -> list[np.ndarray]:
        """min_j ‖φ(y) − c_j‖² at every row y of Y, one array per partition (one pass)."""
        diag, S = self.kernel.diag(Y), self.cross_sums(Y, desc)
        return [self.distances_of(c, diag, S).min(axis=1) for c in self.blocks()]

    def risk(
        self, Y: np.ndarray | Rows, points: int, rng: np.random.Generator, desc: str = "risk",
    ) -> tuple[float, float, np.ndarray, np.ndarray | None]:
        """(R̂, SE, nearest centroid of the evaluated rows, their indices or None for all) of
        (1/|Y|) Σ_y min_j ‖φ(y) − c_j‖² for a single partition: every row when exact, else
        ``points`` sampled rows."""
        if len(self.q) != self.k:
            raise ValueError(f"risk() scores one partition; these centroids hold {len(self.q) // self.k}")
        Y = as_rows(Y)
        return sampled_risk(self.kernel, Y, self.rows, self.Z, self.q, self.q_var, self.nonempty,
                            len(Y) if self.exact else points, rng, self.budget, desc)


def _estimated_many(
    kernel: Kernel, X_train: np.ndarray | Rows, labelings: Sequence[np.ndarray],
    X_test: np.ndarray | Rows, k: int, settings: RiskSettings,
    make_rng: Callable[[], np.random.Generator],
) -> list[Risk]:
    """The subsampling estimator of the module docstring for every partition
    ``labelings[i]``, with standard errors.

    Partition i reads its own stream ``make_rng()`` (one call per partition, in order)
    exactly as its evaluation alone does: the training evaluation points, the test
    evaluation points, then its pairs (q̂_j). The points depend only on the stream, so
    every partition must draw the same ones (ValueError otherwise, e.g. when ``make_rng``
    returns one generator twice); their cross sums κ(T, X_train)·[Z_1 … Z_M] are then
    computed once for all partitions, as is Σ_i κ_ii. ``X_train`` and ``X_test`` are
    arrays or :class:`Rows` (e.g. Dask row chunks).
    """
    if not labelings:
        return []
    X_train, X_test = as_rows(X_train), as_rows(X_test)
    n = len(X_train)
    draws, rngs = [], []
    for _ in labelings:
        rng = make_rng()
        tr_idx = sample_points(n, settings.points, rng)
        te_idx = sample_points(len(X_test), settings.points, rng)
        draws.append((tr_idx, te_idx, generator_state(rng)))
        rngs.append(rng)
    tr_idx, te_idx, _ = draws[0]
    if not all(np.array_equal(a, tr_idx) and np.array_equal(b, te_idx) for a, b, _ in draws):
        raise ValueError(
            "make_rng() must return a stream in the same state for every labeling "
            "(the evaluation points are drawn from it first)"
        )
    centroids = LiftedCentroids.fit_many(kernel, X_train, labelings, k, settings.budget, False, settings.pairs, rngs)
    tr_diag, S_tr = sample_cross_sums(kernel, X_train, tr_idx, X_train, centroids.Z, settings.budget,
                                      "risk (train sample)")
    te_diag, S_te = sample_cross_sums(kernel, X_test, te_idx, X_train, centroids.Z, settings.budget,
                                      "risk (test sample)")
    diag_sum = X_train.diag_sum(kernel)
    risks = []
    for labels, c, (_, _, state) in zip(labelings, centroids.blocks(), draws):
        q, q_var, nonempty = centroids.q[c], centroids.q_var[c], centroids.nonempty[c]
        sizes = np.bincount(np.asarray(labels, dtype=np.int64), minlength=k).astype(np.float64)
        objective = (diag_sum - np.sum(sizes * q)) / n
        objective_se = float(np.sqrt(np.sum((sizes / n) ** 2 * q_var)))
        tr, tr_se, tr_lab = risk_from_cross_sums(tr_diag, S_tr[:, c], q, q_var, nonempty, n)
        te, te_se, te_lab = risk_from_cross_sums(te_diag, S_te[:, c], q, q_var, nonempty, len(X_test))
        risks.append(Risk(
            train_risk=tr, objective=float(objective), test_risk=te,
            train_nearest=tr_lab, test_labels=te_lab,
            train_risk_se=tr_se, objective_se=objective_se, test_risk_se=te_se,
            estimator=f"subsample(b={settings.points},pairs={settings.pairs})",
            train_eval=tr_idx, test_eval=te_idx, bias_bound=float(np.sqrt(q_var.sum())),
            pairs_state=state,
        ))
    return risks


def lifted_many(
    kernel: Kernel, X_train: np.ndarray | Rows, labelings: Sequence[np.ndarray], X_test: np.ndarray | Rows,
    k: int, settings: RiskSettings, make_rng: Callable[[], np.random.Generator] | None = None,
) -> list[Risk]:
    """Lifted risks of every partition ``labelings[i]``, in order, in one pass over the
    kernel blocks: exact when n ≤ settings.exact_limit (:func:`_exact_many`), else the
    subsampling estimator with partition i reading the stream ``make_rng()``
    (:func:`_estimated_many`; ``X_train``, ``X_test`` may then be :class:`Rows`, e.g. Dask
    row chunks). The same numbers as :func:`lifted` of each partition alone with the stream
    ``make_rng()``, up to the order of floating-point sums.
    """
    if len(X_train) <= settings.exact_limit:
        return _exact_many(kernel, as_rows(X_train).take(None), labelings, as_rows(X_test).take(None), k,
                           settings.budget)
    if make_rng is None:
        raise ValueError(f"the subsampling estimator (n = {len(X_train)} > {settings.exact_limit}) needs make_rng")
    return _estimated_many(kernel, X_train, labelings, X_test, k, settings, make_rng)


def lifted(
    kernel: Kernel, X_train: np.ndarray | Rows, labels: np.ndarray, X_test: np.ndarray | Rows, k: int,
    settings: RiskSettings, rng: np.random.Generator | None = None,
) -> Risk:
    """Lifted risks of one partition: exact when n ≤ settings.exact_limit, else the
    subsampling estimator reading ``rng`` (:func:`lifted_many`)."""
    return lifted_many(kernel, X_train, [labels], X_test, k, settings, None if rng is None else _one_stream(rng))[0]


def projected_sq_distances(F: np.ndarray, res: np.ndarray, C: np.ndarray, nonempty: np.ndarray) -> np.ndarray:
    """‖φ(y) − c̃_j‖² = res(y) + ‖φ̃(y) − c̃_j‖² for points with features F (rows) and
    residuals res, centroids C in H_m; +inf for empty clusters."""
    D = feature_sq_distances(F, C)
    D += np.asarray(res, dtype=np.float64)[:, None]
    D[:, ~nonempty] = np.inf
    return D


def projected_distances(
    F_train: np.ndarray, labels: np.ndarray, F: np.ndarray, res: np.ndarray, k: int,
) -> np.ndarray:
    """min_j ‖φ(y) − c̃_j‖² for projected centroids c̃_j = mean of φ̃ over C_j
    (Calandriello eq. 2), at the points with features F and residuals res."""
    labels, nonempty = _labels_k(labels, k)
    C, _ = cluster_means(F_train, labels, k)
    return projected_sq_distances(F, res, C, nonempty).min(axis=1)


def projected_risk(
    F_train: np.ndarray, res_train: np.ndarray, labels: np.ndarray,
    F_test: np.ndarray, res_test: np.ndarray, k: int,
) -> Risk:
    """Risks with projected centroids c̃_j = mean of φ̃ over C_j (Calandriello eq. 2), exact.

    Features stay in their dtype; sums and distances are accumulated in float64 over row
    chunks. O((n + n_test)·r·k) time, memory O((n + n_test)·k) plus one chunk.
    """
    labels, nonempty = _labels_k(labels, k)
    C, _ = cluster_means(F_train, labels, k)
    D_train = projected_sq_distances(F_train, res_train, C, nonempty)
    D_test = projected_sq_distances(F_test, res_test, C, nonempty)
    return Risk.from_distances(D_train, D_test, labels)
