"""The sparse sign embedding of the kernel columns: k_i ↦ S·k_i, S an m × n sparse sign matrix.

Each column j of S has exactly ζ nonzero entries (``sketch.zeta``), in ζ distinct rows drawn
uniformly, each +1/√ζ or −1/√ζ with probability 1/2 (Clarkson & Woodruff 2013's CountSketch
is ζ = 1; Martinsson & Tropp 2020, §9.2, advise ζ = 8). Then E[SᵀS] = I_n, so that
E‖S v‖² = ‖v‖² for every v ∈ Rⁿ (JL scale 1), as for the built-in Gaussian projection G/√m
(``sketch=gaussian``), with n·ζ nonzeros instead of n·m entries; unlike Yin's ``subgaussian``
(i.i.d. entries of density p), every column holds the same number of nonzeros.

Features: k̃_i = S·k_i is row i of K·Sᵀ (K symmetric), computed over row blocks of K, which is
never held whole: O(n²d + n²ζ) time; memory O(nζ) for S and O(nm) for the features and the
random keys of the draw. A new point x has the features S·κ(X, x).

Randomness: for each column, the ζ rows are the ζ smallest of m uniform keys and the signs
are drawn after all of them, from the sketch's stream. A list of m draws one S per m from the
same stream (:meth:`kktheory.embeddings.base.Sketch.nested`'s default). Stored arrays: the
rows ``sketch_rows`` and signs ``sketch_signs`` (n × ζ each) of the nonzeros, column by column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from kktheory.embeddings import SKETCHES, Sketch, SketchConfig
from kktheory.embeddings.linalg import map_kernel_rows
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.machine import memory


@dataclass
class SparseSignConfig(SketchConfig):
    name: str = "sparse_sign"
    zeta: int = 8  # nonzeros ζ in each column of S (1 ≤ ζ ≤ m), each ±1/√ζ


@SKETCHES.register("sparse_sign", SparseSignConfig)
class SparseSign(Sketch):
    """k_i ↦ S·k_i, S an m × n sparse sign matrix, ζ nonzeros ±1/√ζ per column (module docstring)."""

    not_from_landmark_rows = "its S acts on all n coordinates of each kernel column k_i"

    def validate(self, m: int) -> None:
        zeta, n = self.params.zeta, self.ctx.n
        if not 1 <= zeta <= m:
            raise ConfigError("sketch.zeta", zeta, f"an integer 1 ≤ zeta ≤ m (m = {m})")
        memory.require(
            (8 + np.dtype(self.ctx.dtype).itemsize) * n * m + 13 * n * zeta, self.ctx.budget,
            f"the sparse sign embedding (keys and features: {n}×{m}, S: {n * zeta} nonzeros)",
            "use a smaller n or m",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "SparseSign":
        n, zeta = len(X), self.params.zeta
        self.rows_ = np.argpartition(rng.random((n, m)), zeta - 1, axis=1)[:, :zeta]
        self.signs_ = rng.choice(np.array([-1, 1], dtype=np.int8), size=(n, zeta))
        values = (self.signs_ / math.sqrt(zeta)).astype(kernel.dtype).ravel()
        self.S_ = sparse.csr_matrix((values, (self.rows_.ravel(), np.repeat(np.arange(n), zeta))), shape=(m, n))
        self.kernel, self.X_fit_ = kernel, X
        return self

    def transform(self, X: np.ndarray) -> np.ndarray:
        """S·κ(X_fit, x) for every row x of X, over row blocks of the kernel."""
        return map_kernel_rows(self.kernel, X, self.X_fit_, self.ctx.budget, lambda B: (self.S_ @ B.T).T,
                               self.S_.shape[0], desc="sparse sign")

    def arrays(self) -> dict[str, np.ndarray]:
        """The nonzeros of S, column by column (module docstring)."""
        return {"sketch_rows": self.rows_.astype(np.int32), "sketch_signs": self.signs_}

    def jl_scale(self) -> float:
        """E‖S v‖²/‖v‖² = 1."""
        return 1.0
