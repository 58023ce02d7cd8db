"""Kernel functions, bandwidth rules and blockwise kernel evaluation.

Kernels:

- ``gaussian``: κ(x, y) = exp(−‖x − y‖² / (2σ²)), σ given directly (``bandwidth=fixed``)
  or by a rule computed from the training points:

  - ``wang`` (Wang, Gittens & Mahoney 2019, eq. 5): σ = β·sqrt((1/n²) Σ_ij ‖x_i − x_j‖²);
  - ``yin`` (Yin et al. 2022, §5.2, as printed): κ = exp(−‖x − y‖²/σ_Y²) with
    σ_Y² = Σ_ij ‖x_i − x_j‖² / n. In this module's parameterisation σ² = σ_Y²/2.
    As printed, σ_Y² grows linearly with n (it is 2·Σ_i ‖x_i − x̄‖²), which makes the
    kernel nearly constant for large n; ``yin_n2`` is the variant normalised by n²
    (σ_Y² = mean pairwise squared distance), which we believe was intended.

  Σ_ij ‖x_i − x_j‖² = 2n Σ_i ‖x_i − x̄‖² is computed in O(nd), never by pairs.
- ``polynomial``: κ(x, y) = (⟨x, y⟩ + c)^p.
- ``linear``: κ(x, y) = ⟨x, y⟩.

Blocks are computed through BLAS with the identity ‖x − y‖² = ‖x‖² + ‖y‖² − 2⟨x, y⟩, in
row blocks sized from the memory budget, in float64 or float32 (the kernel's ``dtype``):
one GEMM per block in that dtype (2·rows·m·d flops) plus four in-place element-wise
passes; the column-side terms are prepared once per pass over the rows. Only a block of
rows of X is converted at a time, so X may be a float32 memory map of any size; the O(nd)
helpers (:func:`row_sq_norms`, :func:`mean_sq_dist_to_mean`, :meth:`Kernel.diag`) read it
in float64 row chunks of about 8 MiB and never copy it whole.

The identity loses the squared distances below its round-off, about
ROUNDOFF·eps·(‖x‖² + ‖y‖²): a point and itself get d² ≈ 1e-16·‖x‖² instead of 0. That is
harmless unless σ is tiny relative to the data's norms, where exp(−d²/(2σ²)) would turn
the round-off into κ(x, x) < 1 (σ = 1e-8 on unit-scale data: κ(x, x) ≈ 0.6, inconsistent
with ``diag`` = 1). So when the round-off can move κ by more than √eps
(:meth:`Kernel.roundoff_shows`, one scalar test per block), the squared distances below
it are set to 0 — duplicates then get κ = 1 exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
from omegaconf import MISSING

from kktheory.machine import memory
from kktheory.errors import ConfigError

BANDWIDTH_RULES = ("fixed", "wang", "yin", "yin_n2")
#: squared distances below ROUNDOFF·eps·(‖x‖² + ‖y‖²) are round-off of the formula below
ROUNDOFF = 8.0


@dataclass
class KernelConfig:
    """Config group ``kernel``. Unused fields are ignored by kernels that do not need them."""

    name: str = MISSING
    bandwidth: str = "fixed"  # gaussian: the rule giving σ, fixed | wang | yin | yin_n2
    sigma: float = 2.0  # gaussian, bandwidth=fixed: σ; Yin's synthetic exp(-d²/8) is σ = 2
    beta: float = 1.0  # gaussian, bandwidth=wang: the factor β of Wang's σ (Wang uses 0.2, 1, 5)
    degree: int = 2  # polynomial: the degree p of (⟨x, y⟩ + c)^p
    coef0: float = 1.0  # polynomial: the offset c of (⟨x, y⟩ + c)^p


KERNELS = ("gaussian", "linear", "polynomial")


def canonical(params: KernelConfig) -> KernelConfig:
    """``params`` with every field its kernel does not use at its default, so that fields
    that cannot change a result do not tell two configs apart (run identity, reference
    cache): ``bandwidth``, ``sigma``, ``beta`` but for the Gaussian kernel, ``sigma`` but for
    ``bandwidth=fixed``, ``beta`` but for ``bandwidth=wang``, ``degree`` and ``coef0`` but
    for the polynomial kernel."""
    default = KernelConfig(name=params.name)
    unused: list[str] = []
    if params.name != "gaussian":
        unused += ["bandwidth", "sigma", "beta"]
    else:
        unused += [f for f, rule in (("sigma", "fixed"), ("beta", "wang")) if params.bandwidth != rule]
    if params.name != "polynomial":
        unused += ["degree", "coef0"]
    return replace(params, **{f: getattr(default, f) for f in unused})


@dataclass(frozen=True)
class Kernel:
    """A kernel with its resolved parameters; evaluates blocks of κ(X, Y)."""

    name: str
    sigma: float | None = None
    degree: int = 2
    coef0: float = 1.0
    dtype: str = "float64"

    def __call__(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """The block κ(X, Y), shape (len(X), len(Y)), in the kernel's dtype."""
        return self._block(X, self._prepare(Y))

    def _prepare(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The column-side terms of a block, computed once for all row blocks: Yᵀ (scaled
        by 1/σ² for the Gaussian kernel) and, for the Gaussian, ‖y‖²/(2σ²)."""
        dt = np.dtype(self.dtype)
        Y = np.asarray(Y, dtype=dt)
        if self.name != "gaussian":
            return np.ascontiguousarray(Y.T), None
        scale = 1.0 / self.sigma**2
        Yt = np.ascontiguousarray(Y.T * np.asarray(scale, dtype=dt))
        half_sq = (np.einsum("ij,ij->i", Y, Y) * (0.5 * scale)).astype(dt, copy=False)
        return Yt, half_sq

    def _block(
        self, X: np.ndarray, prep: tuple[np.ndarray, np.ndarray | None], out: np.ndarray | None = None
    ) -> np.ndarray:
        """κ(X, Y) from :meth:`_prepare`'s terms, written into ``out`` when given.

        Gaussian: exp(min(⟨x, y⟩/σ² − ‖x‖²/(2σ²) − ‖y‖²/(2σ²), 0)) = exp(−‖x − y‖²/(2σ²)),
        one GEMM and four in-place passes over the block (the min clips round-off that
        would make a squared distance negative).
        """
        dt = np.dtype(self.dtype)
        X = np.asarray(X, dtype=dt)
        Yt, half_sq = prep
        G = np.matmul(X, Yt, out=out)
        if self.name == "linear":
            return G
        if self.name == "polynomial":
            G += self.coef0
            if self.degree != 1:
                np.power(G, self.degree, out=G)
            return G
        half_x = (np.einsum("ij,ij->i", X, X) * (0.5 / self.sigma**2)).astype(dt, copy=False)
        G -= half_x[:, None]
        G -= half_sq[None, :]
        # G = −d²/(2σ²): d² ≤ ROUNDOFF·eps·(‖x‖² + ‖y‖²) ⟺ G ≥ −ROUNDOFF·eps·(half_x + half_y)
        top = float(half_x.max(initial=0.0) + half_sq.max(initial=0.0))
        if self.roundoff_shows(dt, 2.0 * self.sigma**2 * top):
            G[G >= -ROUNDOFF * dt.type(np.finfo(dt).eps) * np.add.outer(half_x, half_sq)] = 0.0
        np.minimum(G, 0.0, out=G)
        np.exp(G, out=G)
        return G

    def roundoff_shows(self, dt: np.dtype, sq_sum: float) -> bool:
        """Whether the round-off of ‖x‖² + ‖y‖² − 2⟨x, y⟩ (about ROUNDOFF·eps·(‖x‖² + ‖y‖²))
        can change exp(−d²/(2σ²)) by more than √eps (tiny σ relative to the data's norms)."""
        eps = float(np.finfo(dt).eps)
        return ROUNDOFF * eps * sq_sum / (2.0 * self.sigma**2) > math.sqrt(eps)

    def paired(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """κ(x_i, y_i) for matching rows of X and Y (float64), by the same formulas as a block."""
        dt = np.dtype(self.dtype)
        X = np.asarray(X, dtype=dt)
        Y = np.asarray(Y, dtype=dt)
        g = np.einsum("ij,ij->i", X, Y)
        if self.name == "linear":
            return g.astype(np.float64)
        if self.name == "polynomial":
            return ((g + self.coef0) ** self.degree).astype(np.float64)
        norms = np.einsum("ij,ij->i", X, X) + np.einsum("ij,ij->i", Y, Y)
        sq = norms - 2.0 * g
        if self.roundoff_shows(dt, norms.max(initial=0.0)):
            sq[sq <= ROUNDOFF * dt.type(np.finfo(dt).eps) * norms] = 0.0
        np.maximum(sq, 0.0, out=sq)
        return np.exp(sq * (-1.0 / (2.0 * self.sigma**2))).astype(np.float64)

    def diag(self, X: np.ndarray) -> np.ndarray:
        """κ(x_i, x_i) for every row, float64. The Gaussian kernel does not read X; the
        others read it in row chunks (no float64 copy of a float32 or memory-mapped X)."""
        if self.name == "gaussian":
            return np.ones(len(X))
        sq = row_sq_norms(X)
        if self.name == "linear":
            return sq
        return (sq + self.coef0) ** self.degree

    def row_blocks(
        self, X: np.ndarray, Y: np.ndarray, budget: int, desc: str | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """Yield (row slice, κ(X[rows], Y)) over row blocks of X sized by the budget
        (:func:`kktheory.machine.memory.block_rows`: large blocks, since every GEMM call costs
        thread synchronisation — 256-row blocks ran at a fifth of the GEMM rate on a busy
        machine, 64k-row blocks at 86 %)."""
        from kktheory.machine.progress import progress

        step = self.block_rows(len(X), len(Y), budget)
        block = self._block_fn(Y)
        starts = range(0, len(X), step)
        for s in progress(starts, desc=desc, total=len(starts)):
            sl = slice(s, min(s + step, len(X)))
            yield sl, block(X[sl], None)

    def _block_fn(self, Y: np.ndarray) -> Callable[[np.ndarray, np.ndarray | None], np.ndarray]:
        """(X, out) ↦ κ(X, Y): the Y-side terms prepared once — or, for a subclass that
        overrides ``__call__``, that call."""
        if type(self).__call__ is not Kernel.__call__:
            def call(X: np.ndarray, out: np.ndarray | None) -> np.ndarray:
                if out is None:
                    return self(X, Y)
                out[...] = self(X, Y)
                return out
            return call
        prep = self._prepare(Y)
        return lambda X, out: self._block(X, prep, out)

    def block_rows(self, n_rows: int, n_cols: int, budget: int) -> int:
        """Rows per block of an n_rows × n_cols kernel matrix (see :meth:`row_blocks`)."""
        return memory.block_rows(n_cols, np.dtype(self.dtype).itemsize, budget, n_rows)

    def matrix(self, X: np.ndarray, Y: np.ndarray, budget: int) -> np.ndarray:
        """The full κ(X, Y), computed in row blocks (checked against the budget)."""
        itemsize = np.dtype(self.dtype).itemsize
        memory.require(
            len(X) * len(Y) * itemsize,
            budget,
            f"a {len(X)}×{len(Y)} kernel block",
            "use a smaller n or m",
        )
        out = np.empty((len(X), len(Y)), dtype=self.dtype)
        step = self.block_rows(len(X), len(Y), budget)
        block = self._block_fn(Y)
        for s in range(0, len(X), step):
            block(X[s : s + step], out[s : s + step])
        return out


#: rows per chunk of the O(nd) passes below: about 8 MiB of float64 per chunk
CHUNK_BYTES = 8 * 2**20


def row_chunks(X: np.ndarray) -> Iterator[np.ndarray]:
    """Consecutive row chunks of X as float64 arrays of about ``CHUNK_BYTES`` each.

    Each chunk is a fresh copy (callers may modify it); memory one chunk, whatever X's
    dtype or storage (a memory map is read chunk by chunk).
    """
    step = max(1, CHUNK_BYTES // (8 * max(1, X.shape[1])))
    for s in range(0, len(X), step):
        yield np.array(X[s : s + step], dtype=np.float64)


def row_sq_norms(X: np.ndarray) -> np.ndarray:
    """‖x_i‖² for every row, accumulated in float64 over row chunks. O(nd)."""
    if len(X) == 0:
        return np.zeros(0)
    return np.concatenate([np.einsum("ij,ij->i", c, c) for c in row_chunks(X)])


def mean_sq_dist_to_mean(X: np.ndarray) -> float:
    """(1/n) Σ_i ‖x_i − x̄‖², so that Σ_ij ‖x_i − x_j‖² = 2n² · this value.

    Two passes over row chunks (the mean, then the centred squares), float64: O(nd) time,
    memory one chunk.
    """
    mean = sum(c.sum(axis=0) for c in row_chunks(X)) / len(X)
    total = 0.0
    for c in row_chunks(X):
        c -= mean
        total += float(np.einsum("ij,ij->", c, c))
    return total / len(X)


def resolve_sigma(cfg: KernelConfig, X_train: np.ndarray, spread: float | None = None) -> float:
    """σ of the Gaussian kernel exp(−‖x−y‖²/(2σ²)) for the config's bandwidth rule.

    ``spread`` is :func:`mean_sq_dist_to_mean` of the training points when the caller has
    it already (the Dask backend computes it chunk by chunk); otherwise it is computed here.
    """
    n = len(X_train)
    if cfg.bandwidth == "fixed":
        return float(cfg.sigma)
    if spread is None:
        spread = mean_sq_dist_to_mean(X_train)
    pair_sum = 2.0 * n * n * spread  # Σ_ij ‖x_i − x_j‖²
    if cfg.bandwidth == "wang":
        return float(cfg.beta * np.sqrt(pair_sum / n**2))
    if cfg.bandwidth == "yin":  # σ_Y² = Σ_ij/n (as printed); σ² = σ_Y²/2
        return float(np.sqrt(pair_sum / n / 2.0))
    if cfg.bandwidth == "yin_n2":  # σ_Y² = Σ_ij/n²
        return float(np.sqrt(pair_sum / n**2 / 2.0))
    raise ConfigError("kernel.bandwidth", cfg.bandwidth, f"one of {', '.join(BANDWIDTH_RULES)}")


def validate_kernel(cfg: KernelConfig) -> None:
    """Check the kernel config before any work."""
    if cfg.name not in KERNELS:
        raise ConfigError("kernel.name", cfg.name, f"one of {', '.join(KERNELS)}")
    if cfg.name == "gaussian":
        if cfg.bandwidth not in BANDWIDTH_RULES:
            raise ConfigError(
                "kernel.bandwidth", cfg.bandwidth, f"one of {', '.join(BANDWIDTH_RULES)}"
            )
        if cfg.bandwidth == "fixed" and not (math.isfinite(cfg.sigma) and cfg.sigma > 0):
            raise ConfigError("kernel.sigma", cfg.sigma, "a positive finite number")
        if cfg.bandwidth == "wang" and not (math.isfinite(cfg.beta) and cfg.beta > 0):
            raise ConfigError("kernel.beta", cfg.beta, "a positive finite number")
    if cfg.name == "polynomial":
        if cfg.degree < 1:
            raise ConfigError("kernel.degree", cfg.degree, "an integer ≥ 1")
        if not (math.isfinite(cfg.coef0) and cfg.coef0 >= 0):
            raise ConfigError("kernel.coef0", cfg.coef0, "a finite number ≥ 0 (κ must be PSD)")


def make_kernel(
    cfg: KernelConfig, X_train: np.ndarray, dtype: str = "float64", spread: float | None = None
) -> Kernel:
    """Resolve the config (bandwidth rule on the training points) into a Kernel.

    ``spread``: see :func:`resolve_sigma` (X_train is then only asked for its length).
    """
    validate_kernel(cfg)
    if cfg.name == "gaussian":
        sigma = resolve_sigma(cfg, X_train, spread)
        if not (np.isfinite(sigma) and sigma > 0):
            raise ConfigError(
                "kernel.bandwidth",
                cfg.bandwidth,
                f"a rule giving σ > 0 (got σ={sigma}: are all training points identical?)",
            )
        return Kernel("gaussian", sigma=sigma, dtype=dtype)
    if cfg.name == "polynomial":
        return Kernel("polynomial", degree=int(cfg.degree), coef0=float(cfg.coef0), dtype=dtype)
    return Kernel("linear", dtype=dtype)
