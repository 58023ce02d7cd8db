"""Concentric spheres: k classes on the spheres of radii 1, 2, …, k around the origin of R^d.

A point of class c is (c + 1)·u + ε, with u = z/‖z‖ a uniform direction (z standard normal in
R^d) and ε ~ N(0, noise²·I_d); the classes have sizes differing by at most one. They share
their mean (the origin), so no hyperplane separates them, while a Gaussian kernel whose
bandwidth is below the gap of 1 between the spheres does (the option's σ = 0.5); ``dim=2``
gives concentric rings.

A generated data set (:func:`kktheory.datasets.synthetic.register_generated`): the n training
and n_test test points are independent draws, in that order, from the run's data stream
(seeded by ``data_seed``), so any n is available and the population evaluation
(``population.test_n``) applies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.datasets.base import DatasetConfig
from kktheory.datasets.synthetic import Distribution, balanced_labels, distribution_key, register_generated
from kktheory.errors import ConfigError


@dataclass
class SpheresConfig(DatasetConfig):
    name: str = "spheres"
    dim: int = 3  # dimension d of the space (d = 2: concentric rings)
    noise: float = 0.1  # standard deviation of the isotropic Gaussian noise around each sphere


@register_generated("spheres", SpheresConfig)
def spheres(params: SpheresConfig, k: int, rng: np.random.Generator) -> Distribution:
    """k concentric spheres of radii 1..k in R^dim with Gaussian noise (module docstring)."""
    if params.dim < 1:
        raise ConfigError("dataset.dim", params.dim, "an integer ≥ 1")
    if not params.noise >= 0:
        raise ConfigError("dataset.noise", params.noise, "a standard deviation ≥ 0")

    def sample(size: int, r: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        y = balanced_labels(size, k)
        z = r.standard_normal((size, params.dim))
        X = (y + 1.0)[:, None] * z / np.linalg.norm(z, axis=1, keepdims=True)
        return X + params.noise * r.standard_normal((size, params.dim)), y

    return Distribution(sample, distribution_key(params))
