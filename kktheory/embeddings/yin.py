"""Unified randomized sketches of Yin, Liu, Wang & Meng (2022), Algorithm 1: K̃ = S·Q·K.

Q ∈ R^{m×n} holds m rows of I_n sampled uniformly without replacement (the landmarks), so
that K̂ = Q·K = κ(landmarks, X) is m × n (Alg. 1 steps 1–2); S ∈ R^{m×m} mixes the m
sampled coordinates (steps 3–4, eq. 9), and k-means runs on the columns
k̃_i = S·K̂_{:,i} = S·Q·k_i (step 5). A point x has the features S·κ(landmarks, x)
(Yin's R = S·Q applied to the column κ(X, x)); ``transform`` returns them as rows.

- ``yin_nystrom`` (Example 3): S = I. Features are the raw kernel columns at the
  landmarks, k̃_i = K̂_{:,i}; they are not whitened as in Calandriello's Nyström
  embedding (``nystrom``), so they are not RKHS coordinates.
- ``subgaussian`` (Example 1): S_ij = σ_ij/√m with probability p and 0 otherwise, p = 1/√n
  by default as printed; S is stored and applied as a scipy.sparse matrix.
- ``ros`` (Example 2, S = D·A): :mod:`kktheory.embeddings.ros`.

What the features approximate: R·k_i approximates the kernel-column
embedding k_i of Yin's Prop. 1, whose distances ‖k_i − k_j‖² = (e_i − e_j)ᵀK²(e_i − e_j)
are not the RKHS distances. kktheory scores the partition in the RKHS anyway (lifted
centroids, Yin eq. 11, :mod:`kktheory.evaluation.risk`).

Nested sketches (a list of m): the landmarks are the first m entries of one permutation,
and each S is the size-m member of one random draw that is consistent in m (see each
class), so that the sketch for m alone equals the sketch for m inside a list; K̂ for the
largest m is computed once. JL scale: E‖R v‖²/‖v‖² = E‖S u‖²/‖u‖² · m/n
with u = Q v, since E‖Q v‖² = (m/n)‖v‖² for uniform sampling without replacement.

Cost: K̂ in O(nmd) time and O(nm) memory (one kernel block, checked against the budget);
S·K̂ as stated per sketch; k-means O(nmkt).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import scipy.sparse as sp

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import SKETCHES, NestedFit, Sketch, SketchConfig
from kktheory.embeddings.landmark_rows import FromLandmarkRows

#: entries of the square layout of S drawn per chunk (2 uniforms each)
_CHUNK = 1 << 20


class SampledSketch(FromLandmarkRows, Sketch):
    """k_i ↦ S·Q·k_i with Q uniform sampling of m landmarks (Yin Alg. 1).

    Subclasses define the randomness of S (:meth:`draw`, for every size up to m_max at
    once), the size-m member of it (:meth:`set_mixing`) and its action (:meth:`mix`).
    """

    # -- the mixing matrix S (identity here) ------------------------------------------
    def draw(self, n: int, m_max: int, rng: np.random.Generator) -> Any:
        """The randomness of S for every m ≤ m_max (drawn after the landmarks)."""
        return None

    def set_mixing(self, draw: Any, m: int) -> None:
        """Build S of size m from :meth:`draw`'s output."""

    def mix(self, K_nm: np.ndarray) -> np.ndarray:
        """(S·K̂)ᵀ for K̂ᵀ = K_nm = κ(X, landmarks) (rows are points)."""
        return K_nm

    def validate(self, m: int) -> None:
        """Refuse before any work when K̂ and the features (n × m each) exceed the budget."""
        n = self.ctx.n
        memory.require(
            2 * n * m * np.dtype(self.ctx.dtype).itemsize, self.ctx.budget,
            f"the sketched kernel columns and the features (2 × {n}×{m})",
            "use a smaller n or m",
        )

    # -- fitting -------------------------------------------------------------------------
    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "SampledSketch":
        idx, draw = self.draw_landmark_rows(len(X), m, rng)
        return self._fit(X, kernel, idx, draw, None)

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "SampledSketch"]]:
        """One permutation, one draw of S's randomness and one K̂ for the whole list."""
        params, ctx, X, kernel, ms, make_rng = job
        idx, draw = cls(params, ctx).draw_landmark_rows(len(X), max(ms), make_rng())
        K = kernel.matrix(X, X[idx], ctx.budget)
        for m in ms:
            yield m, cls(params, ctx)._fit(X, kernel, idx[:m], draw, K[:, :m])

    def draw_landmark_rows(self, n: int, m_max: int, rng: np.random.Generator) -> tuple[np.ndarray, Any]:
        """The first m_max entries of a permutation of 0..n−1, then :meth:`draw`."""
        self.require_landmark_rows()
        idx = rng.permutation(n)[:m_max]
        return idx, self.draw(n, m_max, rng)

    def fit_on_landmark_rows(
        self, X_landmarks: np.ndarray, kernel: Kernel, landmarks: np.ndarray, draw: Any, n: int,
    ) -> "SampledSketch":
        self.require_landmark_rows()
        self._fit(X_landmarks, kernel, np.arange(len(X_landmarks)), draw, None)
        self.landmarks_ = np.asarray(landmarks)
        self.n_fit_ = n
        return self

    def _fit(
        self, X: np.ndarray, kernel: Kernel, idx: np.ndarray, draw: Any, K_nm: np.ndarray | None
    ) -> "SampledSketch":
        self.kernel = kernel
        self.X_fit_ = X
        self.n_fit_ = len(X)
        self.landmarks_ = np.asarray(idx)
        self.X_landmarks_ = np.asarray(X)[idx]
        self.K_nm_train_ = K_nm
        self.set_mixing(draw, len(idx))
        return self

    def kernel_columns(self, X: np.ndarray) -> np.ndarray:
        """κ(X, landmarks), reusing the columns computed for the training set."""
        if self.K_nm_train_ is not None and self.on_training_rows(X):
            return self.K_nm_train_
        return self.kernel.matrix(X, self.X_landmarks_, self.ctx.budget)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """S·κ(landmarks, x) for every row x of X (len(X) × m)."""
        return self.mix(self.kernel_columns(X))

    def jl_scale(self) -> float:
        """E‖S·Q·v‖²/‖v‖² = m/n for an orthogonal (or identity) S."""
        return len(self.landmarks_) / self.n_fit_


@dataclass
class YinNystromConfig(SketchConfig):
    name: str = "yin_nystrom"


@SKETCHES.register("yin_nystrom", YinNystromConfig)
class YinNystrom(SampledSketch):
    """Yin Example 3: S = I, features k̃_i = κ(landmarks, x_i) (raw kernel columns).

    Cost: O(nmd) time, O(nm) memory; JL scale m/n. Stored arrays: ``landmarks`` (m).
    """


@dataclass
class SubGaussianConfig(SketchConfig):
    name: str = "subgaussian"
    p: Optional[float] = None  # probability of a non-zero entry; None: 1/√n as printed


def shell_coordinates(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) of entry e in the shell order of an infinite square matrix.

    Shell t holds the 2t+1 entries with max(row, col) = t: (t, 0..t−1), then (0..t, t).
    The first m² entries are exactly the leading m × m block, so a draw in this order is
    consistent in m.
    """
    e = np.asarray(e, dtype=np.int64)
    t = np.floor(np.sqrt(e)).astype(np.int64)
    t[(t + 1) ** 2 <= e] += 1
    t[t * t > e] -= 1
    r = e - t * t
    below = r < t
    return np.where(below, t, r - t), np.where(below, r, t)


@SKETCHES.register("subgaussian", SubGaussianConfig)
class SubGaussian(SampledSketch):
    """Yin Example 1: sparse sub-Gaussian S with S_ij = σ_ij/√m w.p. p, else 0.

    As printed, p = 1/√n (option ``p``). Yin writes the sign as σ(i), "a 2-wise
    independent hash function" of the row; read literally, one sign per row multiplies a
    whole feature coordinate and cancels from every distance, leaving the non-centred 0/1
    matrix. The proof of Lemma 4 (Yin App.) treats the entries r_it as independent and
    symmetric, so the signs here are independent per entry.

    Scale: E(S u)_i² = (p/m)‖u‖², so E‖S u‖² = p‖u‖² and the JL scale of R = S·Q is
    p·m/n. With p = 1/√n and m ≈ √n, a row of S has about one non-zero entry on average
    and a fraction ≈ e^{−1} of the rows is zero (those feature coordinates are 0 for every
    point); ``info_`` reports the number of non-zeros and of zero rows.

    Nested draws: the entries of S are drawn in the shell order of
    :func:`shell_coordinates` (two uniforms per entry: non-zero? and sign), so S for size m
    is the leading m × m block of one random matrix, rescaled by 1/√m.

    Cost: drawing S O(m²) time and O(nnz) memory (in chunks); S·K̂ in O(nnz·n) =
    O(p·m²·n) time (Yin: O(√n·m²) for p = 1/√n); memory O(nm).

    Stored arrays: ``landmarks`` (m, Q's sampled rows in order) and S as sparse triplets,
    S[``sketch_S_row``[t], ``sketch_S_col``[t]] = ``sketch_S_val``[t] (int32, int32,
    float64; nnz ≈ p·m² entries each, row-major order), so that k̃_i = S·K̂_{:,i}.
    """

    def validate(self, m: int) -> None:
        p = self.params.p
        if p is not None and not 0.0 < p <= 1.0:
            raise ConfigError("sketch.p", p, "a probability in (0, 1], or null for 1/√n")
        super().validate(m)

    def draw(self, n: int, m_max: int, rng: np.random.Generator) -> tuple[Any, ...]:
        """(p, rows, cols, signs): the non-zero entries of the leading m_max × m_max block."""
        p = self.params.p if self.params.p is not None else 1.0 / math.sqrt(n)
        rows, cols, signs = [], [], []
        total = m_max * m_max
        for start in range(0, total, _CHUNK):
            stop = min(start + _CHUNK, total)
            u = rng.random((stop - start, 2))
            e = start + np.flatnonzero(u[:, 0] < p)
            r, c = shell_coordinates(e)
            rows.append(r)
            cols.append(c)
            signs.append(np.where(u[e - start, 1] < 0.5, -1.0, 1.0))
        return p, np.concatenate(rows), np.concatenate(cols), np.concatenate(signs)

    def set_mixing(self, draw: tuple[Any, ...], m: int) -> None:
        p, rows, cols, signs = draw
        keep = (rows < m) & (cols < m)
        self.p_ = float(p)
        self.S_ = sp.csr_matrix(
            (signs[keep] / math.sqrt(m), (rows[keep], cols[keep])), shape=(m, m)
        )
        nnz_rows = np.diff(self.S_.indptr) > 0
        self.info_ = {
            "subgaussian_p": self.p_,
            "subgaussian_nnz": int(self.S_.nnz),
            "subgaussian_zero_rows": int(m - nnz_rows.sum()),
        }

    def mix(self, K_nm: np.ndarray) -> np.ndarray:
        """(S·K̂)ᵀ = K_nm·Sᵀ through the sparse product S·K_nmᵀ."""
        S = self.S_.astype(K_nm.dtype)
        return np.ascontiguousarray((S @ K_nm.T).T)

    def arrays(self) -> dict[str, np.ndarray]:
        """``landmarks`` and the non-zero entries of S (class docstring)."""
        S = self.S_.tocoo()
        return {
            **super().arrays(), "sketch_S_row": S.row.astype(np.int32),
            "sketch_S_col": S.col.astype(np.int32), "sketch_S_val": S.data.astype(np.float64),
        }

    def jl_scale(self) -> float:
        """E‖S·Q·v‖²/‖v‖² = p·m/n."""
        return self.p_ * len(self.landmarks_) / self.n_fit_
