"""Linear-algebra helpers shared by the sketches.

- :func:`resolve_rank`: the target dimension s of a rank reduction, from an integer or a
  rule (``k``, ``sqrt_kc`` = ⌈√(k·c)⌉, ``c`` = no reduction), the three choices of Wang,
  Gittens & Mahoney (2019), §5.2 and Fig. 4–5.
- :func:`reduce_rank`: B = F·V_s with V_s the top-s right singular vectors of the n × c
  feature matrix F (Wang et al. 2019, Alg. 2 step 2), so that B·Bᵀ = (F·Fᵀ)_s, the best
  rank-s approximation of F·Fᵀ. V_s comes from the c × c Gram matrix FᵀF: O(nc²) time,
  O(c²) extra memory (an SVD of F would also hold an n × c factor).
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
from kktheory.kernels import Kernel

RANK_RULES = ("k", "sqrt_kc", "c")


def resolve_rank(value: Any, k: int, c: int, field: str, lo: int = 1) -> int:
    """s from an integer or a rule (``k``, ``sqrt_kc``, ``c``; None means ``c``); lo ≤ s ≤ c."""
    allowed = f"an integer or one of {', '.join(RANK_RULES)} (k={k}, c={c}), with {lo} ≤ s ≤ c"
    if value is None or value == "c":
        s = c
    elif value == "k":
        s = k
    elif value == "sqrt_kc":
        s = math.ceil(math.sqrt(k * c) - 1e-9)
    elif isinstance(value, int) and not isinstance(value, bool):
        s = value
    else:
        raise ConfigError(field, value, allowed)
    if not lo <= s <= c:
        raise ConfigError(field, value, f"{allowed} (resolved s={s})")
    return s


def fix_signs(V: np.ndarray) -> np.ndarray:
    """V with each column's entry of largest modulus made positive (in place)."""
    if V.size:
        pivot = V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])]
        V *= np.where(pivot < 0, -1.0, 1.0).astype(V.dtype)
    return V


def reduce_rank(F: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray]:
    """(B, V_s): V_s the top-s right singular vectors of F (c × s, float64, signs fixed) and
    B = F·V_s (n × s, F's dtype), so that B·Bᵀ = (F·Fᵀ)_s."""
    F64 = np.asarray(F, dtype=np.float64)
    V = fix_signs(np.ascontiguousarray(np.linalg.eigh(F64.T @ F64)[1][:, ::-1][:, :s]))
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
