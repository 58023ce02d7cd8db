"""Sketches (embeddings): one module per family, registered by name in ``SKETCHES``.

Every module of this package is imported here, so a new sketch is one module plus one
config file ``configs/sketch/<name>.yaml``.
"""

from kktheory.registry import import_submodules
from kktheory.sketches.base import (
    SKETCHES,
    Fitted,
    Partition,
    Sketch,
    SketchConfig,
    SketchContext,
)

import_submodules(__name__)

__all__ = ["SKETCHES", "Fitted", "Partition", "Sketch", "SketchConfig", "SketchContext"]
