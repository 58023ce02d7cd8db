"""Derivation of every random stream from the run's seed.

Each random component of a run draws from its own generator,
``np.random.default_rng([seed, crc32(component)])``, where ``component`` is a fixed
name. Streams are therefore independent of one another and of the order in which
components run: changing the clustering never changes the landmarks, and a list of m
values sees the same landmark permutation as a single m (nested sketches). The data draw
uses ``data_seed`` (default: ``seed``) so that several sketch seeds can share one data
draw and one exact reference.

==========================  ===========  ==================================================
component                   seed         draws
==========================  ===========  ==================================================
``data``                    data_seed    the data set's points, split and subsample
``reference``               data_seed    the reference partition (k-means++ seeds, landmarks)
``reference-risk``          data_seed    the reference's subsampled risk (large n)
``bounds-spectrum``         data_seed    randomized top eigenvalues of K (bound checks)
``bounds-deff``             data_seed    Hutchinson probes for d_eff (bound checks)
``sketch``                  seed         landmarks, sketching/mixing matrices, RFF (split in
                                         two child streams by ``Generator.spawn``); a fresh
                                         copy for each m of a list unless the sketch draws
                                         once for the largest m (prefix-consistent draws)
``cluster``                 seed         k-means restarts (a fresh copy for each m)
``risk``                    seed         subsampled risk: evaluation points and pairs
``bounds-pairs``            seed         the sample of points for distance ratios
``bounds-gamma``            seed         the Lanczos start of λ_max(K − FFᵀ)
``bounds-kc-reference``     seed         k-means on the kernel columns (Yin Lemma 6)
==========================  ===========  ==================================================

Libraries that take an integer (scikit-learn's ``random_state``) get one drawn from the
component's generator, never ``None``; nothing uses NumPy's global state (a test scans
the package for it). The one stream outside this scheme is ``augmented_mnist``'s
deformations, seeded by ``dataset.augment_seed`` so that the augmented data set is the
same for every run.

Recording a stream. Random draws that are small are stored with the run as they are
(landmarks, signs, sampled coordinates, sparse entries); a large dense draw (a Gaussian
matrix of n × m or m × d entries) is stored as where it came from: the state of the
generator just before the draw (:func:`generator_state`, six 64-bit words of the PCG64
state, which ``default_rng`` uses) and the shape of the draw (:class:`NormalDraw`).
:func:`generator_at` rebuilds a generator in that state, which draws the same numbers bit
for bit (NumPy keeps ``Generator`` streams stable across versions for a given bit
generator state, except where its release notes say otherwise). For a run, the state is
the start of ``component_rng(seed, component)`` or of a child of it (``Generator.spawn``).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

_WORD = (1 << 64) - 1


def component_rng(seed: int, component: str) -> np.random.Generator:
    """Generator for one named component of a run with the given seed."""
    return np.random.default_rng([int(seed), zlib.crc32(component.encode())])


def component_seed(seed: int, component: str) -> int:
    """A 31-bit integer seed for libraries that take an int (scikit-learn)."""
    return int(component_rng(seed, component).integers(2**31 - 1))


def generator_state(rng: np.random.Generator) -> np.ndarray:
    """The state of ``rng``'s PCG64 bit generator as six uint64 words: the 128-bit state
    (high, low), the 128-bit increment (high, low), ``has_uint32`` and ``uinteger``."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(f"only PCG64 states are recorded, not {state['bit_generator']}")
    s, inc = state["state"]["state"], state["state"]["inc"]
    words = [s >> 64, s & _WORD, inc >> 64, inc & _WORD, state["has_uint32"], state["uinteger"]]
    return np.array(words, dtype=np.uint64)


def generator_at(words: np.ndarray) -> np.random.Generator:
    """A generator in the state recorded by :func:`generator_state`."""
    w = [int(x) for x in np.asarray(words, dtype=np.uint64)]
    bits = np.random.PCG64()
    bits.state = {
        "bit_generator": "PCG64",
        "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
        "has_uint32": w[4], "uinteger": w[5],
    }
    return np.random.Generator(bits)


def sklearn_state(seed: int) -> np.random.RandomState:
    """The stream scikit-learn draws from for ``random_state=seed`` (``check_random_state``):
    what a re-implementation of a scikit-learn loop (:func:`kktheory.cluster.lloyd.kmeans`) hands
    its ``init`` callable, so that both draw the same seeds."""
    return np.random.RandomState(seed)


@dataclass(frozen=True)
class NormalDraw:
    """A standard normal array recorded by where it was drawn, not by its entries:
    ``generator_at(state).standard_normal(shape)`` (C order) redraws it bit for bit.

    Stored as ``<name>_rng_state`` (6 uint64 words) and ``<name>_shape`` (int64) — 64 bytes
    whatever the size of the array. The first r rows of a C-order draw are the draw of
    shape (r, …) from the same state (:meth:`prefix`), which is how nested sketches share
    one draw for a list of m.
    """

    state: np.ndarray
    shape: tuple[int, ...]

    @classmethod
    def take(cls, rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[NormalDraw, np.ndarray]:
        """(record, ``rng.standard_normal(shape)``): the state is read before the draw."""
        record = cls(generator_state(rng), tuple(int(x) for x in shape))
        return record, rng.standard_normal(record.shape)

    def redraw(self) -> np.ndarray:
        """The recorded array, drawn again."""
        return generator_at(self.state).standard_normal(self.shape)

    def prefix(self, rows: int) -> NormalDraw:
        """The record of the first ``rows`` rows of this draw."""
        if not 0 < rows <= self.shape[0]:
            raise ValueError(f"prefix needs 1 ≤ rows ≤ {self.shape[0]}, got {rows}")
        return NormalDraw(self.state, (rows, *self.shape[1:]))

    def arrays(self, name: str) -> dict[str, np.ndarray]:
        """``{name}_rng_state`` and ``{name}_shape``, as a run stores them."""
        return {f"{name}_rng_state": self.state, f"{name}_shape": np.asarray(self.shape, dtype=np.int64)}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], name: str) -> NormalDraw:
        """The record stored under ``name`` by :meth:`arrays` (e.g. a run's ``.npz``)."""
        return cls(np.asarray(arrays[f"{name}_rng_state"], dtype=np.uint64),
                   tuple(int(x) for x in arrays[f"{name}_shape"]))
