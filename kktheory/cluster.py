"""k-means algorithms on sketch features (DESIGN §3.3), config group ``clustering``.

A clusterer takes an n×d feature matrix and returns labels and feature-space centroids.

- ``kmeanspp``: k-means++ seeding (Arthur & Vassilvitskii 2007) followed by Lloyd
  iterations, scikit-learn's ``KMeans`` (algorithm "lloyd"), ``n_init`` restarts, best
  inertia kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from omegaconf import MISSING
from sklearn.cluster import KMeans

from kktheory.errors import ConfigError
from kktheory.registry import Registry


@dataclass
class ClusteringConfig:
    """Base config of the ``clustering`` group."""

    name: str = MISSING
    n_init: int = 5
    max_iter: int = 300
    tol: float = 1e-4


@dataclass
class ClusterResult:
    """Labels in 0..k−1, centroids in feature space, and extra row columns."""

    labels: np.ndarray
    centers: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)


class Clusterer:
    """Base class: ``fit(F, k, rng)`` → ClusterResult."""

    def __init__(self, params: ClusteringConfig) -> None:
        self.params = params

    def validate(self) -> None:
        p = self.params
        if p.n_init < 1:
            raise ConfigError("clustering.n_init", p.n_init, "an integer ≥ 1")
        if p.max_iter < 1:
            raise ConfigError("clustering.max_iter", p.max_iter, "an integer ≥ 1")
        if not p.tol >= 0:
            raise ConfigError("clustering.tol", p.tol, "a number ≥ 0")

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator) -> ClusterResult:
        raise NotImplementedError


CLUSTERERS: Registry[type[Clusterer]] = Registry("clustering")


def count_empty(labels: np.ndarray, k: int) -> int:
    """Number of the k clusters that received no point."""
    return int(k - np.unique(labels).size)


@CLUSTERERS.register("kmeanspp", ClusteringConfig)
class KMeansPP(Clusterer):
    """k-means++ seeding then Lloyd (scikit-learn KMeans), best of ``n_init``."""

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator) -> ClusterResult:
        p = self.params
        seed = int(rng.integers(2**31 - 1))
        km = KMeans(
            n_clusters=k, init="k-means++", n_init=p.n_init, max_iter=p.max_iter, tol=p.tol,
            algorithm="lloyd", random_state=seed,
        ).fit(F)
        labels = km.labels_.astype(np.int64)
        return ClusterResult(
            labels, km.cluster_centers_,
            {"n_iter": int(km.n_iter_), "n_empty_clusters": count_empty(labels, k)},
        )

