"""Kernel functions, bandwidth rules and blockwise kernel evaluation.

Kernels are families (:class:`KernelFamily`), one module of this folder each, registered by
name in :data:`KERNELS`: :mod:`~kktheory.kernels.gaussian` (with its bandwidth rules),
:mod:`~kktheory.kernels.polynomial`, :mod:`~kktheory.kernels.linear`. :class:`Kernel` holds
the resolved parameters and evaluates blocks through its family.

Blocks are computed through BLAS with the identity ‖x − y‖² = ‖x‖² + ‖y‖² − 2⟨x, y⟩, in
row blocks sized from the memory budget, in float64 or float32 (the kernel's ``dtype``):
one GEMM per block in that dtype (2·rows·m·d flops) plus four in-place element-wise
passes; the column-side terms are prepared once per pass over the rows. Only a block of
rows of X is converted at a time, so X may be a float32 memory map of any size; the O(nd)
helpers (:func:`row_sq_norms`, :func:`mean_sq_dist_to_mean`, :meth:`Kernel.diag`) read it
in float64 row chunks of about 8 MiB and never copy it whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
from omegaconf import MISSING

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.plugins import PluginRegistry


@dataclass
class KernelConfig:
    """Config group ``kernel``. Unused fields are ignored by kernels that do not need them."""

    name: str = MISSING
    bandwidth: str = "fixed"  # gaussian: the rule giving σ, fixed | wang | yin | yin_n2
    sigma: float = 2.0  # gaussian, bandwidth=fixed: σ; Yin's synthetic exp(-d²/8) is σ = 2
    beta: float = 1.0  # gaussian, bandwidth=wang: the factor β of Wang's σ (Wang uses 0.2, 1, 5)
    degree: int = 2  # polynomial: the degree p of (⟨x, y⟩ + c)^p
    coef0: float = 1.0  # polynomial: the offset c of (⟨x, y⟩ + c)^p


#: the parameter fields of KernelConfig (a family reads some of them, :attr:`KernelFamily.fields`)
PARAMETERS = ("bandwidth", "sigma", "beta", "degree", "coef0")


class KernelFamily:
    """One kernel formula κ(x, y) = f(⟨x, y⟩, ‖x‖², ‖y‖²): the config fields it reads, its
    checks, its resolved parameters and the steps of a block around the one GEMM ⟨X, Y⟩.
    Each module of this folder that defines one registers an instance in :data:`KERNELS`
    (``kernel.name`` on the command line); the defaults are the linear kernel's."""

    #: the KernelConfig fields the family reads (the others leave a run's identity as it is)
    fields: ClassVar[tuple[str, ...]] = ()

    def used(self, cfg: KernelConfig) -> tuple[str, ...]:
        """The fields of ``cfg`` that can change a result (``fields``, unless a rule of the
        config makes one idle)."""
        return self.fields

    def validate(self, cfg: KernelConfig) -> None:
        """ConfigError for a parameter out of range."""

    def make(self, cfg: KernelConfig, X_train: np.ndarray, dtype: str, spread: float | None) -> Kernel:
        """The kernel with its parameters resolved on the training points."""
        return Kernel(cfg.name, dtype=dtype)

    def prepare(self, kernel: Kernel, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The column-side terms of a block, computed once for all row blocks: Yᵀ and what
        :meth:`finish` needs of Y."""
        return np.ascontiguousarray(Y.T), None

    def finish(self, kernel: Kernel, G: np.ndarray, X: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
        """κ(X, Y) from G = X·(prepared Yᵀ), in place."""
        return G

    def paired(self, kernel: Kernel, g: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """κ(x_i, y_i) (float64) from g_i = ⟨x_i, y_i⟩ in the kernel's dtype."""
        return g.astype(np.float64)

    def diag(self, kernel: Kernel, X: np.ndarray) -> np.ndarray:
        """κ(x_i, x_i) for every row, float64, from row chunks of X."""
        return row_sq_norms(X)


#: the ``kernel=`` axis: every module of this folder that defines a family registers it here,
#: and so does another package's (:mod:`kktheory.plugins`)
KERNELS: PluginRegistry[KernelFamily] = PluginRegistry("kernel", ("kktheory.kernels",), ("kktheory.kernels",))


def family(name: str) -> KernelFamily:
    """The registered family ``name`` (ConfigError ``kernel.name`` listing the choices)."""
    entry = KERNELS.find(name)  # on every block: no sorted list of names unless refused
    if entry is None:
        raise ConfigError("kernel.name", name, f"one of {', '.join(KERNELS.names())}")
    return entry.impl


def canonical(params: KernelConfig) -> KernelConfig:
    """``params`` with every field its kernel does not use at its default, so that fields
    that cannot change a result do not tell two configs apart (run identity, reference
    cache): the fields outside its family's :meth:`~KernelFamily.used` (e.g. ``sigma`` but
    for the Gaussian kernel with ``bandwidth=fixed``)."""
    default = KernelConfig(name=params.name)
    used = family(params.name).used(params)
    return replace(params, **{f: getattr(default, f) for f in PARAMETERS if f not in used})


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
        """The column-side terms of a block (:meth:`KernelFamily.prepare`), in the dtype."""
        return family(self.name).prepare(self, np.asarray(Y, dtype=np.dtype(self.dtype)))

    def _block(
        self, X: np.ndarray, prep: tuple[np.ndarray, np.ndarray | None], out: np.ndarray | None = None
    ) -> np.ndarray:
        """κ(X, Y) from :meth:`_prepare`'s terms, written into ``out`` when given: one GEMM
        G = X·Yᵀ, then the family's element-wise steps in place (:meth:`KernelFamily.finish`)."""
        X = np.asarray(X, dtype=np.dtype(self.dtype))
        Yt, extra = prep
        G = np.matmul(X, Yt, out=out)
        return family(self.name).finish(self, G, X, extra)

    def paired(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """κ(x_i, y_i) for matching rows of X and Y (float64), by the same formulas as a block."""
        dt = np.dtype(self.dtype)
        X = np.asarray(X, dtype=dt)
        Y = np.asarray(Y, dtype=dt)
        return family(self.name).paired(self, np.einsum("ij,ij->i", X, Y), X, Y)

    def diag(self, X: np.ndarray) -> np.ndarray:
        """κ(x_i, x_i) for every row, float64 (:meth:`KernelFamily.diag`: the Gaussian kernel
        does not read X; the others read it in row chunks, no float64 copy of a float32 or
        memory-mapped X)."""
        return family(self.name).diag(self, X)

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


def validate_kernel(cfg: KernelConfig) -> None:
    """Check the kernel config before any work: a registered name, then the family's checks."""
    family(cfg.name).validate(cfg)


def make_kernel(
    cfg: KernelConfig, X_train: np.ndarray, dtype: str = "float64", spread: float | None = None
) -> Kernel:
    """Resolve the config (e.g. a bandwidth rule on the training points) into a Kernel.

    ``spread``: (1/n) Σ_i ‖x_i − x̄‖² of the training points when the caller has it already
    (the Dask backend computes it chunk by chunk; X_train is then only asked for its length).
    """
    validate_kernel(cfg)
    return family(cfg.name).make(cfg, X_train, dtype, spread)
