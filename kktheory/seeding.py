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
"""

from __future__ import annotations

import zlib

import numpy as np


def component_rng(seed: int, component: str) -> np.random.Generator:
    """Generator for one named component of a run with the given seed."""
    return np.random.default_rng([int(seed), zlib.crc32(component.encode())])


def component_seed(seed: int, component: str) -> int:
    """A 31-bit integer seed for libraries that take an int (scikit-learn)."""
    return int(component_rng(seed, component).integers(2**31 - 1))
