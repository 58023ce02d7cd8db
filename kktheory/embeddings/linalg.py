"""Linear-algebra helpers shared by the sketches.

- :func:`resolve_rank`: a target rank s or truncation ℓ from an integer or a rule (``k``,
  ``sqrt_kc`` = ⌈√(k·c)⌉, ``half_c`` = ⌈c/2⌉, ``c`` = no reduction), the choices of Wang,
  Gittens & Mahoney (2019), §5.1–5.2 and Fig. 4–5.
- :func:`reduce_rank`: B = F·V_s with V_s the top-s right singular vectors of the n × c
  feature matrix F (Wang et al. 2019, Alg. 2 step 2), so that B·Bᵀ = (F·Fᵀ)_s, the best
  rank-s approximation of F·Fᵀ. V_s comes from the c × c Gram matrix FᵀF
  (:func:`gram_f64`, accumulated in float64 over row chunks whatever F's dtype;
  :func:`right_singular`, :func:`gram_eigh` for a FᵀF summed over row blocks of an F that
  is never held): O(nc²) time, O(c²) extra memory (an SVD of F would also hold an n × c
  factor).
- :func:`fix_signs`: a deterministic sign for each column (its entry of largest modulus
  is made positive), so that eigen- and singular vectors, defined up to sign, give the
  same features whatever LAPACK returns.
- :func:`map_kernel_rows`: out[i] = f(κ(x_i, Y)) over row blocks of κ(X, Y) sized by the
  memory budget, for sketches that apply a linear map to every column k_i of K (K is
  symmetric, so rows are columns) without ever holding K.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import CHUNK_BYTES, Kernel, row_chunks
from kktheory.machine.threads import small_dense

RANK_RULES = ("k", "sqrt_kc", "half_c", "c")


def resolve_rank(value: Any, field: str, k: int, c: int, lo: int = 1, hi: int | None = None) -> int:
    """A rank from an integer or a rule: ``k``, ``sqrt_kc`` = ⌈√(k·c)⌉, ``half_c`` = ⌈c/2⌉,
    ``c`` (or None) = c, where c is the run's m; checked lo ≤ r (≤ hi when given).

    Wang et al. 2019 use s ∈ {k, √(kc), c} (Fig. 4, 5; Remark 3) and ℓ = ⌈c/2⌉ (§5.1).
    """
    bounds = f"{lo} ≤ value" + (f" ≤ {hi}" if hi is not None else "")
    allowed = f"an integer or a rule {' | '.join(RANK_RULES)} (k={k}, c={c}), with {bounds}"
    if isinstance(value, bool):
        raise ConfigError(field, value, allowed)
    if value is None or value == "c":
        r = c
    elif isinstance(value, (int, np.integer)) or isinstance(value, float) and value.is_integer():
        r = int(value)
    elif value == "k":
        r = k
    elif value == "sqrt_kc":
        r = math.ceil(math.sqrt(k * c) - 1e-9)
    elif value == "half_c":
        r = math.ceil(c / 2)
    else:
        raise ConfigError(field, value, allowed)
    if r < lo or hi is not None and r > hi:
        raise ConfigError(field, value, f"{allowed} (resolved {r})")
    return r


def fix_signs(V: np.ndarray) -> np.ndarray:
    """V with each column's entry of largest modulus made positive (in place)."""
    if V.size:
        pivot = V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])]
        V *= np.where(pivot < 0, -1.0, 1.0).astype(V.dtype)
    return V


def gram_f64(F: np.ndarray) -> np.ndarray:
    """FᵀF (c × c) accumulated in float64 over row chunks of F (no float64 copy of F)."""
    G = np.zeros((F.shape[1], F.shape[1]))
    for chunk in row_chunks(F):
        G += chunk.T @ chunk
    return G


def leading_columns_in_place(A: np.ndarray, r: int) -> np.ndarray:
    """The first r columns of the C-contiguous n × w array A as a C-contiguous n × r array
    in A's own buffer (no second buffer): row i moves from A's flat offsets [i·w, i·w + r)
    to [i·r, i·r + r), chunk by chunk in row order. A chunk's destination ends at or before
    its own source's end (i·r ≤ i·w), so no row is overwritten before it is read; each
    chunk is copied out first, its own source and destination overlapping. A's contents
    are overwritten past the result; memory one chunk of about ``CHUNK_BYTES``."""
    n, w = A.shape
    if not A.flags.c_contiguous:
        raise ValueError("leading_columns_in_place needs a C-contiguous array")
    if r == w:
        return A
    out = A.reshape(-1)[: n * r].reshape(n, r)
    step = max(1, CHUNK_BYTES // (A.itemsize * max(1, r)))
    for start in range(0, n, step):
        out[start : start + step] = A[start : start + step, :r].copy()
    return out


def gram_eigh(G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(σ², V) from a Gram matrix G = FᵀF (float64): its eigenvalues, descending — the
    squared singular values of F — and eigenvectors — F's right singular vectors (columns,
    signs fixed). G may have been accumulated over row blocks of an F never held whole."""
    with small_dense(len(G)):
        ev, V = np.linalg.eigh(G)
    return ev[::-1], fix_signs(np.ascontiguousarray(V[:, ::-1]))


def right_singular(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(σ², V): squared singular values of F (descending) and its right singular vectors
    (columns, signs fixed), from the eigendecomposition of FᵀF in float64 (:func:`gram_eigh`)."""
    return gram_eigh(gram_f64(F))


def reduce_rank(F: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray]:
    """(B, V_s): V_s the top-s right singular vectors of F (c × s, float64, signs fixed) and
    B = F·V_s (n × s, F's dtype), so that B·Bᵀ = (F·Fᵀ)_s."""
    V = np.ascontiguousarray(right_singular(F)[1][:, :s])
    return F @ V.astype(F.dtype, copy=False), V


def map_kernel_rows(
    kernel: Kernel,
    X: np.ndarray,
    Y: np.ndarray,
    budget: int,
    f: Callable[[np.ndarray], np.ndarray],
    width: int,
    desc: str | None = None,
) -> np.ndarray:
    """out[sl] = f(κ(X[sl], Y)) over row blocks; out is len(X) × width in the kernel's dtype.

    One pass over κ(X, Y); memory: one block (sized by the budget) plus the output.
    """
    out = np.empty((len(X), width), dtype=kernel.dtype)
    for sl, block in kernel.row_blocks(X, Y, budget, desc=desc):
        out[sl] = f(block)
    return out
