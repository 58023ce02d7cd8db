"""Synthetic data sets of the papers.

- ``yin_hypercube`` (Yin et al. 2022, §5.1): k centres c*_i ∈ {−1, 1}^d (d = 8), each
  coordinate ±1 with probability 1/2; points of cluster i are N(c*_i, I_d); every
  cluster has the same number of points (n/k, the remainder spread over the first
  clusters). Train and test are independent draws around the same centres. Yin uses
  κ(x, x') = exp(−‖x − x'‖²/8), i.e. the Gaussian kernel with σ = 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.datasets.base import DATASETS, Dataset, DatasetConfig


@dataclass
class YinHypercubeConfig(DatasetConfig):
    name: str = "yin_hypercube"
    dim: int = 8
    std: float = 1.0


def balanced_labels(n: int, k: int) -> np.ndarray:
    """Labels 0..k−1 with sizes differing by at most one, in blocks."""
    return np.repeat(np.arange(k), np.diff(np.linspace(0, n, k + 1).round().astype(int)))


@DATASETS.register("yin_hypercube", YinHypercubeConfig)
def yin_hypercube(
    params: YinHypercubeConfig, n: int, n_test: int, k: int, rng: np.random.Generator
) -> Dataset:
    """Yin §5.1 mixture: centres drawn from {−1,1}^dim, N(centre, std²·I) points."""
    centres = rng.choice([-1.0, 1.0], size=(k, params.dim))

    def draw(size: int) -> tuple[np.ndarray, np.ndarray]:
        y = balanced_labels(size, k)
        return centres[y] + params.std * rng.standard_normal((size, params.dim)), y

    X_train, y_train = draw(n)
    X_test, y_test = draw(n_test)
    return Dataset(
        "yin_hypercube", X_train, y_train, X_test, y_test,
        np.arange(n), np.arange(n, n + n_test),
    )
