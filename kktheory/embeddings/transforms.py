"""Fast orthogonal transforms used by the structured sketches (ROS, SRHT, one-pass).

- :func:`fwht`: the unnormalised Walsh–Hadamard transform H_n·A along axis 0 in
  Sylvester order (equal to ``scipy.linalg.hadamard(n) @ A``), n a power of two,
  O(n log n) per column by the butterfly recursion H_{2h} = [[H_h, H_h], [H_h, −H_h]].
- :func:`dct`: the orthonormal DCT-II along axis 0 (``scipy.fft.dct(norm="ortho")``),
  any length, O(n log n) per column.
- :func:`orthonormal`: A·u along axis 0 for A = H_n/√n (``hadamard``) or the orthonormal
  DCT-II (``dct``), the two bounded-entry orthogonal matrices of the ROS sketches.
- :class:`SRHT`: the subsampled randomised Hadamard (or DCT) test matrix.
"""

from __future__ import annotations

import copy

import numpy as np
import scipy.fft


def is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def next_power_of_two(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def fwht(A: np.ndarray) -> np.ndarray:
    """H_n·A (unnormalised, Sylvester order) along axis 0; returns a new float array."""
    A = np.array(A, dtype=np.result_type(A, np.float32), copy=True)
    n = A.shape[0]
    if not is_power_of_two(n):
        raise ValueError(f"fwht needs a power-of-two length, got {n}")
    tail = A.shape[1:]
    h = 1
    while h < n:
        B = A.reshape(n // (2 * h), 2, h, -1)
        top = B[:, 0].copy()
        B[:, 0] += B[:, 1]
        np.subtract(top, B[:, 1], out=B[:, 1])
        h *= 2
    return A.reshape(n, *tail)


def dct(A: np.ndarray) -> np.ndarray:
    """Orthonormal DCT-II along axis 0."""
    return scipy.fft.dct(np.asarray(A), type=2, norm="ortho", axis=0)


#: the orthonormal transforms with bounded entries (|A_ij| ≤ √(2/n)) offered by ROS sketches
TRANSFORMS = ("hadamard", "dct")


def orthonormal(A: np.ndarray, transform: str) -> np.ndarray:
    """A_n·A along axis 0 with A_n = H_n/√n (``hadamard``, n a power of two) or the
    orthonormal DCT-II (``dct``, any n); O(n log n) per column, A_n never formed."""
    if transform == "hadamard":
        return fwht(A) / np.sqrt(np.asarray(A).shape[0])
    if transform == "dct":
        return dct(A)
    raise ValueError(f"unknown transform {transform!r}; expected one of {TRANSFORMS}")


class SRHT:
    """Subsampled randomised Hadamard transform Ω = D·H_N·R/√c, an N × c test matrix.

    D is a random ±1 diagonal, H_N the unnormalised Walsh–Hadamard matrix of order
    N = next power of two ≥ n (inputs are zero-padded from n to N), R selects c of the N
    columns uniformly without replacement (a prefix of one permutation, so SRHTs of
    increasing c are nested). With this scaling E[Ω Ωᵀ] = I_N (Tropp 2011; Pourkamali-
    Anaraki & Becker Alg. 1; Wang et al. Table 2). ``right(A)`` = A·Ω[:n] costs
    O(rows·N log N) and never forms Ω.

    ``transform="dct"`` gives the subsampled randomised DCT Ω = D·C_nᵀ·R·√(n/c) instead
    (C_n the orthonormal DCT-II, N = n, no padding), with the same E[Ω Ωᵀ] = I_n; the
    random draws are the same as for the Hadamard case of the same N.
    """

    def __init__(
        self, n: int, c: int, rng: np.random.Generator, transform: str = "hadamard"
    ) -> None:
        if transform not in TRANSFORMS:
            raise ValueError(f"unknown transform {transform!r}; expected one of {TRANSFORMS}")
        self.transform = transform
        self.n, self.c = n, c
        self.N = next_power_of_two(n) if transform == "hadamard" else n
        if not 1 <= c <= self.N:
            raise ValueError(f"SRHT needs 1 ≤ c ≤ {self.N}, got {c}")
        self.signs = rng.choice(np.array([-1.0, 1.0]), size=n)
        self.cols = rng.permutation(self.N)[:c]

    def right(self, A: np.ndarray) -> np.ndarray:
        """A·Ω for A with n columns (rows × c)."""
        A = np.asarray(A)
        padded = np.zeros((self.N, A.shape[0]), dtype=np.result_type(A, np.float32))
        padded[: self.n] = A.T * self.signs[:, None]
        if self.transform == "dct":
            return dct(padded)[self.cols].T * np.sqrt(self.N / self.c)
        return fwht(padded)[self.cols].T / np.sqrt(self.c)

    def prefix(self, c: int) -> "SRHT":
        """The SRHT of the first c sampled columns: what ``SRHT(n, c, rng)`` draws from the
        same generator state (nested sketches); Ω_c = Ω[:, :c]·√(c_max/c)."""
        if not 1 <= c <= self.c:
            raise ValueError(f"prefix needs 1 ≤ c ≤ {self.c}, got {c}")
        out = copy.copy(self)
        out.c, out.cols = c, self.cols[:c]
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        """Its randomness: ``signs`` (the n diagonal entries of D, ±1.0) and ``columns`` (the
        c sampled coordinates of N, in order); with the transform and n these give Ω."""
        return {"signs": np.asarray(self.signs, dtype=np.float64), "columns": np.asarray(self.cols)}

    def dense(self) -> np.ndarray:
        """Ω[:n] as a dense n × c matrix (tests and small n only)."""
        return self.right(np.eye(self.n))
