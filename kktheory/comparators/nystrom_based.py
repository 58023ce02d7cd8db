"""The comparators built on a Nyström embedding hold one rather than being one.

:class:`NystromComparator` holds a :class:`~kktheory.embeddings.nystrom.Nystrom` embedding
(``embedding``) fitted on the comparator's landmarks: its fit, its nested landmarks over a
list of m, its memory check, its stored ``landmarks`` and its row columns (``rank_Kmm``) are
the comparator's; the comparator adds its own partition (approximate kernel k-means, Nyström
spectral clustering, the two-step method). The embedding counts ``held_arrays`` n × m arrays
in its memory check: its features, and the comparator's own embedding where it builds one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from kktheory.embeddings.base import Capabilities, NestedFit, Sketch, SketchContext
from kktheory.embeddings.nystrom import Nystrom
from kktheory.kernels.functions import Kernel


class NystromComparator(Sketch):
    """A method of the ``sketch=`` axis whose partition is its own, on a held Nyström embedding."""

    capabilities = Capabilities(embedding=False, runs_clusterer=False)
    not_from_landmark_rows = "its partition is an algorithm of its own, not k-means on features"
    #: n × m arrays held at once (the embedding's features; 2 with the comparator's own embedding)
    held_arrays: ClassVar[int] = 1

    def __init__(self, params: Any, ctx: SketchContext, embedding: Nystrom | None = None) -> None:
        super().__init__(params, ctx)
        if embedding is None:
            embedding = Nystrom(params, ctx)
            embedding.n_by_m_arrays = self.held_arrays
        self.embedding = embedding
        self.info_ = embedding.info_  # one set of row columns: the embedding's and the partition's
        self.landmarks_ = embedding.landmarks_

    def validate(self, m: int) -> None:
        """The embedding's checks (eig_cutoff, its memory with ``held_arrays``)."""
        self.embedding.validate(m)

    def m_used(self, m: int) -> int:
        return self.embedding.m_used(m)

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> NystromComparator:
        self.embedding.fit(X, kernel, m, rng)
        self.landmarks_ = self.embedding.landmarks_
        return self

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, NystromComparator]]:
        """The embedding's nested fits (one landmark sequence for the list of m), each held
        by a comparator."""
        for m, embedding in Nystrom.nested_held(job, cls.held_arrays):
            yield m, cls(job.params, job.ctx, embedding)

    def on_training_rows(self, X: Any) -> bool:
        """Whether X holds the embedding's training rows (its cached features serve them)."""
        return self.embedding.on_training_rows(X)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """The held embedding's features."""
        return self.embedding.transform(X)

    def residual(self, X: np.ndarray) -> np.ndarray:
        """The held embedding's ‖Π_m^⊥ φ(x)‖² (its features are a projection's, though the
        comparator's partition does not use them as such)."""
        return self.embedding.residual(X)

    def arrays(self) -> dict[str, np.ndarray]:
        return self.embedding.arrays()
