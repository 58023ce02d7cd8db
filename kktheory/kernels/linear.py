"""The linear kernel κ(x, y) = ⟨x, y⟩: the GEMM itself (the defaults of
:class:`~kktheory.kernels.functions.KernelFamily`); κ(x, x) = ‖x‖² from row chunks."""

from __future__ import annotations

from kktheory.kernels.functions import KERNELS, KernelConfig, KernelFamily


class Linear(KernelFamily):
    """⟨x, y⟩ (module docstring)."""


KERNELS.register("linear", KernelConfig)(Linear())
