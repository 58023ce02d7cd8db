"""Nyström embedding (Calandriello & Rosasco 2018, Algorithm 1 and Section 3).

Given a dictionary of m landmarks x_{j_1..j_m}, with K_mm = U Λ Uᵀ the landmark kernel
matrix, the embedding is

    φ̃(x) = Λ^{-1/2} Uᵀ κ(landmarks, x)                           (Calandriello eq. 3)

so that ⟨φ̃(x), φ̃(y)⟩ = κ(x, L) K_mm⁺ κ(L, y): the coordinates of Π_m φ(x), the
projection of φ(x) onto H_m = span{φ(landmarks)}, in an orthonormal basis of H_m. The
residual ‖Π_m^⊥ φ(x)‖² = κ(x, x) − ‖φ̃(x)‖² is what projected centroids need
(Calandriello eq. 2). Eigenvalues of K_mm below ``eig_cutoff``·λ_max are dropped (the
pseudo-inverse on the numerically well-determined part of span{landmarks}); the default
1e-12 keeps every direction that float64 resolves and drops the exact null space that
duplicated landmarks create.

Landmarks: uniform without replacement (default; Calandriello §3.1) or with replacement
(``replace=true``; duplicates then add nothing to H_m). Landmarks are the first m entries
of one random permutation (or one i.i.d. sequence), so sketches for a list of m are
nested, and K_{n,m_max} is computed once for the whole list (a single m never holds
K_nm: its features are computed in row blocks). Subclasses change only how
landmarks are drawn (``nystrom_rls``) or how many (``nystrom_liu``).

Cost: K_nm in O(nmd) time (BLAS, row blocks), the eigendecomposition of K_mm in O(m³),
the features in O(nm²); memory O(nm) for the features (plus K_{n,m_max} for a list of m),
all in the run's dtype.

Deviations: the paper writes K_mm⁺; we drop eigenvalues below ``eig_cutoff``·λ_max (a
pseudo-inverse with a stated threshold, as any numerical pseudo-inverse does). Row
column ``rank_Kmm`` is the number of directions kept (< m with duplicated landmarks). With
``dtype=float32`` the cutoff is at least ε₃₂ ≈ 1.2e-7 (the float32 K_mm does not resolve
smaller eigenvalues; :func:`~kktheory.embeddings.projection.whitening`).

``nystrom_liu``: the baseline "Nyström (Liu)" of Yin et al. 2022 (§5, Table 2), i.e. the
Nyström kernel k-means of Liu, "Refined learning bounds for kernel and approximate
k-means" (NeurIPS 2021), whose O(√(k/n)) rate needs m = Ω(√(nk)): the same embedding with
m = ⌈√(n·k)⌉ landmarks whatever the run's m (recorded as the row's ``m_used``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from kktheory import rules
from kktheory.machine import memory
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, NestedFit, SketchConfig
from kktheory.embeddings.landmark_rows import FromLandmarkRows
from kktheory.embeddings.projection import KernelProjection, check_eig_cutoff, whitening


class LandmarkSelection(Protocol):
    """How a Nyström sketch draws its m landmarks from the n training rows."""

    #: what the row's sketch calls it (a refusal names it)
    name: str
    #: whether the draw reads the training rows (False: it needs n only, so a backend whose
    #: rows live elsewhere draws the landmarks without them)
    reads_rows: bool

    def draw(self, sketch: Nystrom, X: np.ndarray, kernel: Kernel, m: int,
             rng: np.random.Generator) -> np.ndarray: ...


@dataclass(frozen=True)
class UniformLandmarks:
    """The first m entries of a permutation of 0..n−1, or m i.i.d. uniform indices with
    ``sketch.replace`` (Calandriello Alg. 1): nested over m, and drawn from n alone."""

    name: str = "uniform sampling"
    reads_rows: bool = False

    def draw(self, sketch: Nystrom, X: np.ndarray, kernel: Kernel, m: int,
             rng: np.random.Generator) -> np.ndarray:
        return sketch.draw_landmark_rows(len(X), m, rng)[0]


@dataclass
class NystromConfig(SketchConfig):
    name: str = "nystrom"
    replace: bool = False  # sample landmarks with replacement
    eig_cutoff: float = 1e-12  # drop eigenvalues of K_mm below eig_cutoff * λ_max


@SKETCHES.register("nystrom", NystromConfig)
class Nystrom(FromLandmarkRows, KernelProjection):
    """Nyström embedding with uniform landmarks (Calandriello Alg. 1).

    Reads the training rows only in blocks and by index (``capabilities.rows_in_blocks``), so
    they may stay on disk; the subclasses that draw landmarks or partition otherwise
    (``nystrom_rls``, ``two_step``, ``spectral_nystrom``, ``approx_kkm``) do not say so.

    Stored arrays (here and in the subclasses ``nystrom_liu``, ``nystrom_rls``, ``two_step``,
    ``spectral_nystrom``): ``landmarks`` (m, the sampled training points in order, with
    repeats when sampled with replacement); the features follow from them and the data.
    """

    capabilities = Capabilities(projection=True, rows_in_blocks=True)
    #: how the landmarks are drawn (:class:`LandmarkSelection`; a variant that draws them
    #: otherwise is given another selection, e.g. ridge leverage scores)
    selection: ClassVar[LandmarkSelection] = UniformLandmarks()
    #: n × m arrays held at once beside a kernel block: the features (the comparators built
    #: on Nyström that also hold an embedding of their own say 2)
    n_by_m_arrays: ClassVar[int] = 1

    def validate(self, m: int) -> None:
        """eig_cutoff in [0, 1); the features (n × m), one kernel block and K_mm with its
        eigenvectors within the budget (K_nm itself is held only when it fits beside them,
        :meth:`fit_nested`)."""
        check_eig_cutoff("sketch.eig_cutoff", self.params.eig_cutoff)
        n, mu = self.ctx.n, self.m_used(m)
        held = self.n_by_m_arrays
        memory.require(
            self.held_bytes(mu), self.ctx.budget,
            f"the Nyström sketch ({held} × the {n}×{mu} features, a kernel block, K_mm and its eigenvectors)"
            if held > 1 else f"the Nyström sketch (the {n}×{mu} features, a kernel block, K_mm and its eigenvectors)",
            "use a smaller n or m",
        )

    def features_bytes(self, m: int) -> int:
        """Memory of an n × m array in the run's dtype (the features, or K_nm)."""
        return self.ctx.n * m * np.dtype(self.ctx.dtype).itemsize

    def held_bytes(self, m: int) -> int:
        """What fitting and transforming m holds at once: the n × m arrays of the method
        (``n_by_m_arrays``), one kernel block, K_mm and its eigenvectors."""
        itemsize = np.dtype(self.ctx.dtype).itemsize
        block = memory.block_rows(m, itemsize, self.ctx.budget, self.ctx.n) * m * itemsize
        return self.n_by_m_arrays * self.features_bytes(m) + block + 3 * m * m * 8

    def fits_beside_features(self, m: int) -> bool:
        """Whether K_{n,m} (n × m) fits the budget beside what m holds anyway."""
        return self.features_bytes(m) + self.held_bytes(m) <= self.ctx.budget

    def draw_landmarks(
        self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator
    ) -> np.ndarray:
        """The m landmarks of the class's selection."""
        return self.selection.draw(self, X, kernel, m, rng)

    @classmethod
    def landmark_rows_only(cls, params: Any) -> str | None:
        """None for a selection that needs n only (uniform: K_mm and κ(x, landmarks) need the
        landmarks' rows only); a selection that reads the rows is refused."""
        if cls.selection.reads_rows:
            return f"its landmarks are drawn by {cls.selection.name}, which reads the rows"
        return None

    def draw_landmark_rows(self, n: int, m_max: int, rng: np.random.Generator) -> tuple[np.ndarray, None]:
        self.require_landmark_rows()
        if self.params.replace:
            return rng.integers(0, n, size=m_max), None
        return rng.permutation(n)[:m_max], None

    def fit_on_landmark_rows(
        self, X_landmarks: np.ndarray, kernel: Kernel, landmarks: np.ndarray, draw: None, n: int,
    ) -> "Nystrom":
        self.require_landmark_rows()
        self.fit_landmarks(X_landmarks, kernel, np.arange(len(X_landmarks)), None)
        self.landmarks_ = np.asarray(landmarks)
        return self

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "Nystrom":
        idx = self.draw_landmarks(X, kernel, self.m_used(m), rng)
        return self.fit_landmarks(X, kernel, idx, None)

    def fit_landmarks(
        self, X: np.ndarray, kernel: Kernel, idx: np.ndarray, K_nm: np.ndarray | None
    ) -> "Nystrom":
        """Fit from landmark indices; K_nm (n × m, optional) are their kernel columns."""
        self.landmarks_ = np.asarray(idx)
        K_mm = kernel(X[idx], X[idx]) if K_nm is None else K_nm[idx]
        W = whitening(K_mm, self.params.eig_cutoff)
        self.set_map(X, kernel, self.landmarks_, W, train_columns=K_nm)
        self.info_["rank_Kmm"] = int(W.shape[1])
        return self

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "Nystrom"]]:
        """One landmark sequence for the whole list of m, and one K_{n,m_max} when it fits.

        K_{n,m_max} is computed once and each m's features taken from its first columns
        when it fits the budget beside what m_max holds anyway (:meth:`fits_beside_features`);
        otherwise
        (and for a single m) every m's features are computed in row blocks, one pass over
        the data per m, holding no n × m block but the features.
        """
        return cls.nested_held(job, cls.n_by_m_arrays)

    @classmethod
    def nested_held(cls, job: NestedFit, held: int) -> Iterator[tuple[int, "Nystrom"]]:
        """:meth:`nested` for sketches whose memory check counts ``held`` n × m arrays (a
        comparator that holds this embedding beside an array of its own)."""
        params, ctx, X, kernel, ms, make_rng = job

        def make() -> Nystrom:
            sketch = cls(params, ctx)
            sketch.n_by_m_arrays = held
            return sketch

        probe = make()
        used = [probe.m_used(m) for m in ms]
        idx = probe.draw_landmarks(X, kernel, max(used), make_rng())
        shared = len(set(used)) > 1 and probe.fits_beside_features(max(used))
        K = kernel.matrix(X, X[idx], ctx.budget) if shared else None
        for m, mu in zip(ms, used):
            sketch = make()
            sketch.info_.update(probe.info_)
            yield m, sketch.fit_landmarks(X, kernel, idx[:mu], None if K is None else K[:, :mu])


@dataclass
class NystromLiuConfig(NystromConfig):
    name: str = "nystrom_liu"


@SKETCHES.register("nystrom_liu", NystromLiuConfig)
class NystromLiu(Nystrom):
    """Nyström with m = ⌈√(n·k)⌉ landmarks (Yin et al.'s baseline "Nyström (Liu)")."""

    def m_used(self, m: int) -> int:
        """⌈√(n·k)⌉ whatever m was asked (the ``sqrt_nk`` rule, :mod:`kktheory.rules`)."""
        return rules.resolve_m("sqrt_nk", self.ctx.n, self.ctx.k, self.ctx.gamma)[1]
