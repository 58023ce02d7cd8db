"""Nyström embedding with ridge-leverage-score landmarks (Calandriello & Rosasco 2018, §6).

The γ-ridge leverage score of training point i (Calandriello Def. 3, eq. 5; Alaoui &
Mahoney 2015) is

    τ_i(γ) = [K (K + γ I)⁻¹]_ii = 1 − γ [(K + γ I)⁻¹]_ii,     Σ_i τ_i(γ) = d_eff(γ),

with γ the run's ``gamma`` (default √n). Landmarks are m i.i.d. draws with P(i) ∝ τ_i
(with replacement, as in Lemma 3's sampling "proportionally to their RLS"; duplicates
add nothing to H_m), then the Nyström embedding of :mod:`kktheory.embeddings.nystrom` is
built on them (no reweighting: the embedding depends only on span{φ(landmarks)}). The
draws invert the cumulative sum with one uniform each, so the landmarks for m are the
first m of those for any larger m (nested lists of m).

Scores (``method``):

- ``exact``: Cholesky K + γI = L Lᵀ, in-place triangular inverse, [(K+γI)⁻¹]_ii =
  Σ_k (L⁻¹)_ki². O(n²d + n³) time, two n×n float64 arrays of memory (checked first).
- ``bless``: BLESS (Rudi, Calandriello, Carratino & Rosasco, "On fast leverage score
  sampling and optimal learning", NeurIPS 2018), in its Bernoulli/rejection form
  (BLESS-R, as in the authors' reference code github.com/LCSL/bless). A dictionary
  (D, p_D) of points with inclusion probabilities is grown bottom-up along regularisations
  λ_0 > λ_1 > … > λ_H = γ, halving λ at each step:

  1. u_i = min(q·K_ii/(K_ii + λ_h), 1) bounds q·τ_i(λ_h) from above; draw U ∋ i w.p. u_i;
  2. estimate τ̃_i(λ_h) for i ∈ U from the previous dictionary by the estimator of
     Calandriello, Lazaric & Valko (2017)
         τ̃_i(λ) = (K_ii − K_{iD} (K_DD + λ·diag(p_D))⁻¹ K_{Di}) / λ;
  3. keep i ∈ U w.p. min(q·τ̃_i, u_i)/u_i: the new dictionary, with p_i = min(q·τ̃_i, u_i).

  λ_0 is tr K halved until Σ_i u_i ≥ 10 (a non-empty first dictionary), the first
  dictionary is the Bernoulli(u) sample itself. The returned scores are τ̃_i(γ) for all
  n points from the final dictionary. An (ε, γ)-accurate dictionary gives
  τ_i/(1+ε) ≤ τ̃_i ≤ τ_i/(1−ε); ``bless_oversample`` (q) trades dictionary size
  (≈ q·d_eff(γ)) for accuracy. Cost O(n·|D|·d + |D|³) per step, memory O(|D|² + block).
- ``auto`` (default): ``exact`` when n ≤ ``exact_max_n`` and its memory fits the budget,
  else ``bless``.

Row columns: ``rls_method``, ``rls_deff`` (Σ of the scores used, an estimate of d_eff(γ)
for BLESS), ``bless_dictionary_size``, and ``rank_Kmm``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, SketchConfig
from kktheory.embeddings.nystrom import Nystrom
from kktheory.embeddings.projection import whitening
from kktheory.embeddings.sketching_matrices import draw_with_replacement

RLS_METHODS = ("auto", "exact", "bless")
#: BLESS starts from the largest λ (halving from tr K) whose first dictionary has at
#: least this many points in expectation
BLESS_MIN_START = 10.0


@dataclass
class NystromRLSConfig(SketchConfig):
    name: str = "nystrom_rls"
    method: str = "auto"  # auto | exact | bless
    exact_max_n: int = 5000  # auto: exact scores up to this n, BLESS above
    bless_oversample: float = 8.0  # q: BLESS dictionary ≈ q·d_eff(γ) points
    eig_cutoff: float = 1e-12  # drop eigenvalues of K_mm below eig_cutoff * λ_max


def exact_memory(n: int) -> int:
    """Bytes the exact scores need: K + γI and its Cholesky factor's inverse, float64."""
    return 2 * n * n * 8


def rls_exact(kernel: Kernel, X: np.ndarray, gamma: float, budget: int) -> np.ndarray:
    """τ_i(γ) = 1 − γ[(K + γI)⁻¹]_ii for every training point (dense, O(n³))."""
    n = len(X)
    memory.require(
        exact_memory(n), budget, f"exact ridge leverage scores of {n} points",
        "use sketch.method=bless",
    )
    A = np.asarray(kernel.matrix(X, X, budget), dtype=np.float64)
    A[np.diag_indices(n)] += gamma
    # A is symmetric: its transpose is the same matrix in Fortran order, factored in place
    L = scipy.linalg.cholesky(A.T, lower=True, overwrite_a=True, check_finite=False)
    Linv, info = scipy.linalg.lapack.dtrtri(L, lower=1, overwrite_c=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"triangular inverse failed (info={info})")
    inv_diag = np.einsum("ki,ki->i", Linv, Linv)  # (L⁻ᵀ L⁻¹)_ii
    return np.clip(1.0 - gamma * inv_diag, 0.0, 1.0)


@dataclass
class Dictionary:
    """BLESS dictionary: indices into X and their inclusion probabilities."""

    idx: np.ndarray
    probs: np.ndarray


def rls_estimate(
    kernel: Kernel, X: np.ndarray, D: Dictionary, rows: np.ndarray | None, lam: float, budget: int
) -> np.ndarray:
    """τ̃_i(λ) = (K_ii − K_iD (K_DD + λ diag(p_D))⁻¹ K_Di)/λ for X[rows] (all rows: None).

    Calandriello, Lazaric & Valko (2017): the ridge leverage score of φ_i against the
    reweighted dictionary Σ_j φ_j φ_jᵀ/p_j, by Woodbury's identity.
    """
    XD = X[D.idx]
    memory.require(
        len(D.idx) ** 2 * 8 * 3, budget, f"a BLESS dictionary of {len(D.idx)} points",
        "use a larger gamma or a smaller sketch.bless_oversample",
    )
    A = np.asarray(kernel(XD, XD), dtype=np.float64)
    A[np.diag_indices_from(A)] += lam * D.probs
    E = whitening(A, 0.0)  # (K_DD + λ diag p)^{-1/2}, positive definite
    Xq = X if rows is None else X[rows]
    out = np.empty(len(Xq))
    diag = kernel.diag(Xq)
    for sl, block in kernel.row_blocks(Xq, XD, budget):
        G = np.asarray(block, dtype=np.float64) @ E
        out[sl] = (diag[sl] - np.einsum("ij,ij->i", G, G)) / lam
    return np.maximum(out, 0.0)


def rls_bless(
    kernel: Kernel,
    X: np.ndarray,
    gamma: float,
    oversample: float,
    rng: np.random.Generator,
    budget: int,
) -> tuple[np.ndarray, Dictionary, int]:
    """(τ̃(γ) for all points, final dictionary, number of λ steps) by BLESS-R."""
    n = len(X)
    diag = kernel.diag(X)

    def upper(lam: float) -> np.ndarray:  # ≥ min(q·τ_i(λ), 1) since τ_i(λ) ≤ K_ii/(K_ii+λ)
        return np.minimum(oversample * diag / (diag + lam), 1.0)

    lam = float(diag.sum())
    while lam / 2 >= gamma and upper(lam).sum() < BLESS_MIN_START:
        lam /= 2
    lam = max(lam, gamma)
    u = upper(lam)
    first = np.flatnonzero(rng.random(n) < u)
    while first.size == 0:  # probability ≤ e^{-10}
        first = np.flatnonzero(rng.random(n) < u)
    D = Dictionary(first, u[first])
    steps = 0
    while lam > gamma:
        lam = max(lam / 2, gamma)
        u = upper(lam)
        U = np.flatnonzero(rng.random(n) < u)
        if U.size == 0:
            continue
        p = np.minimum(oversample * rls_estimate(kernel, X, D, U, lam, budget), u[U])
        keep = rng.random(U.size) < p / u[U]
        if keep.any():
            D = Dictionary(U[keep], p[keep])
        steps += 1
    return rls_estimate(kernel, X, D, None, gamma, budget), D, steps


@dataclass(frozen=True)
class RidgeLeverageLandmarks:
    """m i.i.d. draws with P(i) = τ_i/Σ_j τ_j, the sketch's γ-ridge leverage scores first
    (:meth:`NystromRLS.scores`: exact or BLESS), then the draws (Calandriello Def. 3)."""

    name: str = "ridge leverage scores"
    reads_rows: bool = True

    def draw(self, sketch: NystromRLS, X: np.ndarray, kernel: Kernel, m: int,
             rng: np.random.Generator) -> np.ndarray:
        return draw_with_replacement(sketch.scores(X, kernel, rng), m, rng)


@SKETCHES.register("nystrom_rls", NystromRLSConfig)
class NystromRLS(Nystrom):
    """Nyström embedding on landmarks drawn ∝ γ-ridge leverage scores (Calandriello Def. 3)."""

    # not checked against rows on disk
    capabilities = Capabilities(projection=True)
    selection = RidgeLeverageLandmarks()

    @classmethod
    def landmark_rows_only(cls, params: Any) -> str | None:
        return "its landmarks are drawn from ridge leverage scores, which need all of K"

    def validate(self, m: int) -> None:
        p = self.params
        if p.method not in RLS_METHODS:
            raise ConfigError("sketch.method", p.method, f"one of {', '.join(RLS_METHODS)}")
        if p.exact_max_n < 1:
            raise ConfigError("sketch.exact_max_n", p.exact_max_n, "an integer ≥ 1")
        if not p.bless_oversample > 0:
            raise ConfigError("sketch.bless_oversample", p.bless_oversample, "a number > 0")
        if self.method(self.ctx.n) == "exact":  # n², checked before the n·m of the sketch
            memory.require(
                exact_memory(self.ctx.n), self.ctx.budget,
                f"exact ridge leverage scores of {self.ctx.n} points", "use sketch.method=bless",
            )
        super().validate(m)  # eig_cutoff, the features

    def method(self, n: int) -> str:
        """The score method used for n training points."""
        p = self.params
        if p.method != "auto":
            return p.method
        fits = exact_memory(n) <= self.ctx.budget
        return "exact" if n <= p.exact_max_n and fits else "bless"

    def scores(self, X: np.ndarray, kernel: Kernel, rng: np.random.Generator) -> np.ndarray:
        """τ_i(γ) (exact) or τ̃_i(γ) (BLESS) for every training point; sets info_."""
        method = self.method(len(X))
        if method == "exact":
            tau = rls_exact(kernel, X, self.ctx.gamma, self.ctx.budget)
        else:
            tau, D, steps = rls_bless(
                kernel, X, self.ctx.gamma, self.params.bless_oversample, rng, self.ctx.budget
            )
            self.info_.update(bless_dictionary_size=int(D.idx.size), bless_steps=steps)
        self.info_.update(rls_method=method, rls_deff=float(tau.sum()))
        return tau


