"""Gaussian random projection of the kernel columns (Biau, Devroye & Lugosi 2008), the
baseline "Gaussian" of Yin, Liu, Wang & Meng (2022), §5.

Features k̃_i = G·k_i/√m with G an m × n matrix of i.i.d. standard normal entries, so that
E‖G v‖²/m = ‖v‖² (JL scale 1). A new point x has the features
G·κ(X, x)/√m.

K is symmetric, so G·k_i is row i of K·Gᵀ: one pass over row blocks of K (each block sized
by the memory budget) gives the features, and K is never held whole. Cost: O(n²d + n²m)
time — every kernel entry is needed, which is what makes this baseline slow; memory
O(nm) for G and the features, checked against the budget before any work (a clear
refusal above it). Deviation: the issue asks for a refusal when K (n × n) does not fit;
since K is streamed, never held, the check is on what is held (G and the features) —
what grows as n² here is the time.

Nested sketches: G is drawn row by row (C order), so G for size m is the first m rows of
G for any larger size; a list of m shares one draw and one pass over K.

Stored arrays: G (m × n) is not stored but recorded as the draw
``G = rng.standard_normal((m, n))`` from the state of the sketch generator before it
(``sketch_G_rng_state``, 6 uint64 words: the start of ``component_rng(seed, "sketch")``)
and its shape ``sketch_G_shape`` = (m, n); :meth:`GaussianProjection.redraw` draws it again
bit for bit (:class:`kktheory.seeding.NormalDraw`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from kktheory.machine import memory
from kktheory.kernels.functions import Kernel
from kktheory.seeding import NormalDraw
from kktheory.embeddings.base import SKETCHES, NestedFit, Sketch, SketchConfig
from kktheory.embeddings.linalg import map_kernel_rows


@dataclass
class GaussianConfig(SketchConfig):
    name: str = "gaussian"


@SKETCHES.register("gaussian", GaussianConfig)
class GaussianProjection(Sketch):
    """k_i ↦ G·k_i/√m, G an m × n standard Gaussian matrix (Biau et al. 2008)."""

    not_from_landmark_rows = "its G acts on all n coordinates of each kernel column k_i"

    def validate(self, m: int) -> None:
        n = self.ctx.n
        memory.require(
            (8 + np.dtype(self.ctx.dtype).itemsize) * n * m,
            self.ctx.budget,
            f"the Gaussian projection (G: {m}×{n} and features: {n}×{m})",
            "use a smaller n or m",
        )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "GaussianProjection":
        draw, G = NormalDraw.take(rng, (m, len(X)))
        return self._fit(X, kernel, G, None, draw)

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, "GaussianProjection"]]:
        """One G (m_max rows) and one pass over K for the whole list of m."""
        params, ctx, X, kernel, ms, make_rng = job
        m_max = max(ms)
        draw, G = NormalDraw.take(make_rng(), (m_max, len(X)))
        KG = cls(params, ctx)._fit(X, kernel, G, None, draw).project(X)  # K·Gᵀ, unscaled
        for m in ms:
            F = KG[:, :m] / np.asarray(math.sqrt(m), dtype=KG.dtype)
            yield m, cls(params, ctx)._fit(X, kernel, G[:m], F, draw.prefix(m))

    def _fit(
        self, X: np.ndarray, kernel: Kernel, G: np.ndarray, F_train: np.ndarray | None,
        draw: NormalDraw,
    ) -> "GaussianProjection":
        self.kernel, self.X_fit_ = kernel, X
        self.G_ = G
        self.F_train_ = F_train
        self.draw_ = draw
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The record of G's draw (module docstring): 64 bytes instead of 8·m·n."""
        return self.draw_.arrays("sketch_G")

    @staticmethod
    def redraw(arrays: dict[str, np.ndarray]) -> np.ndarray:
        """G (m × n) from a run's stored arrays, bit for bit as the sketch drew it."""
        return NormalDraw.from_arrays(arrays, "sketch_G").redraw()

    def project(self, X: np.ndarray) -> np.ndarray:
        """κ(X, X_fit)·Gᵀ (len(X) × m), over row blocks of the kernel."""
        Gt = self.G_.T.astype(self.kernel.dtype)
        return map_kernel_rows(
            self.kernel, X, self.X_fit_, self.ctx.budget, lambda B: B @ Gt, len(self.G_),
            desc="gaussian projection",
        )

    def transform(self, X: np.ndarray) -> np.ndarray:
        """G·κ(X_fit, x)/√m for every row x of X."""
        if self.F_train_ is not None and self.on_training_rows(X):
            return self.F_train_
        P = self.project(X)
        P /= np.asarray(math.sqrt(len(self.G_)), dtype=P.dtype)
        return P

    def jl_scale(self) -> float:
        """E‖G v‖²/(m‖v‖²) = 1."""
        return 1.0
