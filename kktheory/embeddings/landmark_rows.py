"""Fitting from the landmark rows alone: a protocol a sketch opts into.

A sketch opts in by subclassing :class:`FromLandmarkRows` when the features of a row x need
only x, n and the rows of the sampled landmarks (uniform Nyström; Yin's sampled sketches,
whose S acts on the m sampled coordinates; ROS with ``order=sample_first``). A backend that
holds the rows elsewhere (Dask chunks, :mod:`kktheory.run.dask`) then draws the landmarks
with :meth:`~FromLandmarkRows.draw_landmark_rows`, gathers their rows and fits with
:meth:`~FromLandmarkRows.fit_on_landmark_rows`; the in-memory fit draws with the same
method, so both backends fit the same sketch. A sketch whose fit is finished by one sum over
the training rows (rank-restricted Nyström's RᵀR) opts into :class:`RowPass` as well.

Whether a sketch class can be fitted so, for given parameters, is
:func:`landmark_rows_refusal`: None, or the reason the backend's refusal names — the
class's own :meth:`~FromLandmarkRows.landmark_rows_only` (ROS's order, a landmark
selection that reads the rows) or, for a class that did not opt in, its
``not_from_landmark_rows`` sentence (:class:`~kktheory.embeddings.base.Sketch`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kktheory.kernels.functions import Kernel


class FromLandmarkRows:
    """Mixin of a sketch fitted from its landmark rows alone (module docstring)."""

    params: Any  # the sketch's config (Sketch.__init__)

    @classmethod
    def landmark_rows_only(cls, params: Any) -> str | None:
        """None when these parameters keep the fit to the landmark rows, else why not."""
        return None

    def require_landmark_rows(self) -> None:
        """NotImplementedError with :meth:`landmark_rows_only`'s reason, if there is one."""
        if (why := self.landmark_rows_only(self.params)) is not None:
            raise NotImplementedError(f"{type(self).__name__}: {why}")

    def draw_landmark_rows(self, n: int, m_max: int, rng: np.random.Generator) -> tuple[np.ndarray, Any]:
        """(landmark indices for m_max, the rest of the sketch's randomness): the draws of
        the in-memory fit, in its order, so that both backends fit the same sketch."""
        raise NotImplementedError(type(self).__name__)

    def fit_on_landmark_rows(
        self, X_landmarks: np.ndarray, kernel: Kernel, landmarks: np.ndarray, draw: Any, n: int,
    ) -> Any:
        """Fit from the landmark rows X_landmarks = X[landmarks] of n training rows and
        :meth:`draw_landmark_rows`'s other randomness (its prefix for len(landmarks)); a
        :class:`RowPass` sketch is then finished from one sum over the training rows."""
        raise NotImplementedError(type(self).__name__)


class RowPass(FromLandmarkRows):
    """Mixin of a sketch fitted from its landmark rows and finished by one sum over the
    training rows: ``finish_fit(Σ_chunks row_statistic(chunk))``."""

    def row_statistic(self, rows: Any) -> np.ndarray:
        """The contribution of ``rows`` to the sum that finishes the fit."""
        raise NotImplementedError(type(self).__name__)

    def finish_fit(self, total: np.ndarray, X: Any = None) -> Any:
        """The fit finished from the sum of :meth:`row_statistic` over the training rows
        (``X``: the training rows when this process holds them)."""
        raise NotImplementedError(type(self).__name__)


def landmark_rows_refusal(cls: type, params: Any) -> str | None:
    """None when sketches of ``cls`` with ``params`` are fitted from their landmark rows
    alone, else why not (module docstring)."""
    if not issubclass(cls, FromLandmarkRows):
        return cls.not_from_landmark_rows
    return cls.landmark_rows_only(params)
