"""Synthetic data sets of the papers, and sklearn's digits as a small real set.

Generated sets (``yin_hypercube``, ``pourkamali_rings``, ``wang_rings``, ``moons``) draw
the ``n`` training and ``n_test`` test points independently from the same distribution,
with the run's data stream; there is no upper limit on n. Labels are the generating
component, 0..C−1, with balanced sizes (:func:`balanced_labels`).

- ``yin_hypercube`` (Yin et al. 2022, §5.1): k centres c*_i ∈ {−1, 1}^d (d = 8), each
  coordinate ±1 with probability 1/2; points of cluster i are N(c*_i, I_d); every
  cluster has the same number of points (n/k, the remainder spread over the first
  clusters). Train and test are independent draws around the same centres. Yin uses
  κ(x, x') = exp(−‖x − x'‖²/8), i.e. the Gaussian kernel with σ = 2. As printed, two
  centres can coincide (for k = 10, d = 8 with probability 1 − Π_{i<10}(1 − i/256) ≈ 0.16),
  which merges two clusters; ``distinct_centres=true`` draws distinct vertices instead.
- ``pourkamali_rings`` (in the spirit of Pourkamali-Anaraki & Becker 2016, Fig. 1 and
  Table 1): two concentric rings around the origin, radii 1 and 5, isotropic Gaussian noise
  of standard deviation 0.2, 4000 points in their experiment (set n=4000). The classes
  are not linearly separable but are separated by a hyperplane in the feature space of
  the homogeneous degree-2 polynomial kernel ⟨x, y⟩² (x₁² + x₂² is linear there). The
  figure itself is not in the text; the radii were chosen so that the paper's Table 1
  is reproduced: for any rotation-invariant data the best rank-2 approximation of
  K = (XXᵀ)^∘2 has relative Frobenius error 2/√24 ≈ 0.408 (the paper: 0.40), linear
  k-means reaches ≈ 0.5 accuracy (0.53), and k-means on the exact rank-2 embedding
  recovers the rings (0.99). The margin is modest: on the rank-2 embedding the ring
  partition has a ≈ 6% lower k-means objective than splitting the outer ring (for a large
  sample; ratio of radii 5 — at 3.5 the split wins), so draws of n ≲ 1500 points can flip
  to the split (accuracy ≈ 0.75); at n = 4000 none of 20 seeds did. Full-rank degree-2
  kernel k-means is nearly tied: the ring partition is only ≈ 1% lower than the split,
  and k-means++/Lloyd usually stops at the latter (accuracy ≈ 0.75, like the paper's
  Nyström rows).
- ``wang_rings`` (in the spirit of Wang, Gittens & Mahoney 2019, Fig. 1(b)): two rings
  with coincident centres, radii 0.3 and 1, noise 0.05, for their Gaussian kernel with
  σ = 0.3, under which exact kernel k-means separates the rings.
- ``moons``: ``sklearn.datasets.make_moons`` (noise 0.1), seeded from the data stream.
- ``digits``: ``sklearn.datasets.load_digits`` (1797 images 8×8, 10 classes), pixels / 16,
  a table data set with a seeded stratified split (default 70/30), always available.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

import numpy as np

from kktheory.datasets.base import DATASETS, Dataset, DatasetConfig, SplitConfig, Table, register_table
from kktheory.errors import ConfigError
from kktheory.registry import off_at
from kktheory.seeding import component_rng


@dataclass(frozen=True)
class Distribution:
    """A generated data set's distribution μ: ``sample(size, rng)`` draws i.i.d. points and
    their generating component; ``key`` identifies μ (its config and any drawn parameters,
    e.g. Yin's centres), so that quantities of μ itself can be cached (:mod:`kktheory.evaluation.population`)."""

    sample: Callable[[int, np.random.Generator], tuple[np.ndarray, np.ndarray]]
    key: str


#: name → factory(params, k, data stream) of the distribution of each generated data set
DISTRIBUTIONS: dict[str, Callable[[Any, int, np.random.Generator], Distribution]] = {}


def register_generated(name: str, config: type[DatasetConfig]):
    """Register a generated data set by the factory of its distribution. The loader draws
    μ's own random parameters from the data stream first, then the n training and the
    n_test test points, in that order, from the same stream."""

    def wrap(factory: Callable[[Any, int, np.random.Generator], Distribution]):
        def loader(params: Any, n: int, n_test: int, k: int, rng: np.random.Generator) -> Dataset:
            mu = factory(params, k, rng)
            return _dataset(name, mu.sample(n, rng), mu.sample(n_test, rng))

        loader.__doc__ = factory.__doc__
        DISTRIBUTIONS[name] = factory
        DATASETS.register(name, config)(loader)
        return factory

    return wrap


def distribution_key(params: Any, *arrays: np.ndarray) -> str:
    """A digest of a distribution's config and drawn parameters."""
    h = hashlib.sha256(repr(sorted(asdict(params).items())).encode())
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def balanced_labels(n: int, k: int) -> np.ndarray:
    """Labels 0..k−1 with sizes differing by at most one, in blocks."""
    return np.repeat(np.arange(k), np.diff(np.linspace(0, n, k + 1).round().astype(int)))


def _dataset(name: str, train: tuple[np.ndarray, np.ndarray], test: tuple[np.ndarray, np.ndarray]) -> Dataset:
    """A generated data set: test points numbered after the training points."""
    n, n_test = len(train[1]), len(test[1])
    return Dataset(name, train[0], train[1], test[0], test[1], np.arange(n), np.arange(n, n + n_test))


@dataclass
class YinHypercubeConfig(DatasetConfig):
    name: str = "yin_hypercube"
    dim: int = 8  # dimension d of the hypercube {−1, 1}^d of the centres
    std: float = 1.0  # standard deviation of every coordinate around its centre
    distinct_centres: bool = False  # draw k distinct vertices (Yin's draw allows repeats)
    centres_seed: Optional[int] = field(default=None, metadata=off_at(None))  # null: centres from the data stream (Yin); int: one μ for every data_seed


def hypercube_centres(k: int, dim: int, distinct: bool, rng: np.random.Generator) -> np.ndarray:
    """k vertices of {−1, 1}^dim, coordinates ±1 with probability 1/2 (distinct: redrawn until unique)."""
    if distinct and k > 2**min(dim, 62):
        raise ConfigError("k", k, f"at most 2^dim = {2**dim} distinct centres (dataset.dim={dim})")
    centres = rng.choice([-1.0, 1.0], size=(k, dim))
    while distinct and len(np.unique(centres, axis=0)) < k:
        _, first = np.unique(centres, axis=0, return_index=True)
        repeat = np.setdiff1d(np.arange(k), first)
        centres[repeat] = rng.choice([-1.0, 1.0], size=(len(repeat), dim))
    return centres


@register_generated("yin_hypercube", YinHypercubeConfig)
def yin_hypercube(params: YinHypercubeConfig, k: int, rng: np.random.Generator) -> Distribution:
    """Yin §5.1 mixture: centres drawn from {−1,1}^dim, N(centre, std²·I) points.

    The centres come from the data stream (a new μ for every data_seed, as Yin draw them),
    or, with ``centres_seed`` set, from their own stream ``component_rng(centres_seed,
    "centres")`` (one μ for every data_seed: what a study of rates in n needs).
    """
    if params.dim < 1:
        raise ConfigError("dataset.dim", params.dim, "an integer ≥ 1")
    if not params.std >= 0:
        raise ConfigError("dataset.std", params.std, "a standard deviation ≥ 0")
    source = rng if params.centres_seed is None else component_rng(params.centres_seed, "centres")
    centres = hypercube_centres(k, params.dim, params.distinct_centres, source)

    def sample(size: int, r: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        y = balanced_labels(size, k)
        return centres[y] + params.std * r.standard_normal((size, params.dim)), y

    return Distribution(sample, distribution_key(params, centres))


@dataclass
class RingsConfig(DatasetConfig):
    """Concentric rings around the origin: radius of each class and Gaussian noise."""

    name: str = "pourkamali_rings"
    radii: list[float] = field(default_factory=lambda: [1.0, 5.0])  # radius of each ring (one class per ring)
    noise: float = 0.2  # standard deviation of the isotropic Gaussian noise around the rings


@dataclass
class WangRingsConfig(RingsConfig):
    name: str = "wang_rings"
    radii: list[float] = field(default_factory=lambda: [0.3, 1.0])
    noise: float = 0.05


def rings(n: int, radii: list[float], noise: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n points: class c on the circle of radius radii[c] at a uniform angle, plus N(0, noise²·I₂)."""
    y = balanced_labels(n, len(radii))
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    r = np.asarray(radii, dtype=np.float64)[y]
    X = np.column_stack([r * np.cos(angle), r * np.sin(angle)]) + noise * rng.standard_normal((n, 2))
    return X, y


def _rings(params: RingsConfig, k: int, rng: np.random.Generator) -> Distribution:
    """Concentric rings (module docstring)."""
    if len(params.radii) < 2 or min(params.radii) < 0:
        raise ConfigError("dataset.radii", list(params.radii), "at least two radii ≥ 0")
    if params.noise < 0:
        raise ConfigError("dataset.noise", params.noise, "a standard deviation ≥ 0")
    radii = list(params.radii)
    return Distribution(lambda size, r: rings(size, radii, params.noise, r), distribution_key(params))


register_generated("pourkamali_rings", RingsConfig)(_rings)
register_generated("wang_rings", WangRingsConfig)(_rings)


@dataclass
class MoonsConfig(DatasetConfig):
    name: str = "moons"
    noise: float = 0.1  # standard deviation of the Gaussian noise (scikit-learn's make_moons)


@register_generated("moons", MoonsConfig)
def moons(params: MoonsConfig, k: int, rng: np.random.Generator) -> Distribution:
    """Two interleaving half circles (sklearn make_moons), seeded from the sampling stream."""
    from sklearn.datasets import make_moons

    if params.noise < 0:
        raise ConfigError("dataset.noise", params.noise, "a standard deviation ≥ 0")

    def sample(size: int, r: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        X, y = make_moons(size, noise=params.noise, random_state=int(r.integers(2**31 - 1)))
        return X, y.astype(np.int64)

    return Distribution(sample, distribution_key(params))


@dataclass
class DigitsConfig(SplitConfig):
    name: str = "digits"


@register_table("digits", DigitsConfig)
def digits(params: DigitsConfig) -> Table:
    """sklearn's digits: 1797 × 64 pixels in 0..16 (scaled / 16), 10 classes, no own split."""
    from sklearn.datasets import load_digits

    bunch = load_digits()
    return Table(bunch.data, bunch.target.astype(np.int64), None, 16.0, {"source": "sklearn.datasets.load_digits"})
