"""kktheory: experimental checks of the theory of sketched kernel k-means.

``kktheory.SketchedKernelKMeans`` (scikit-learn estimator, :mod:`kktheory.estimator`) is
imported on first access, so ``import kktheory`` stays cheap.
"""

from typing import Any

from kktheory.version import __version__
__all__ = ["SketchedKernelKMeans", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "SketchedKernelKMeans":
        from kktheory.estimator import SketchedKernelKMeans

        return SketchedKernelKMeans
    raise AttributeError(f"module 'kktheory' has no attribute {name!r}")
