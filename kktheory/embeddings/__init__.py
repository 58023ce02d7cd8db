"""Embeddings: one module per sketch family, registered by name in ``SKETCHES``.

Every module of this folder (and of :mod:`kktheory.comparators`) is registered on first
use of ``SKETCHES``, so a new sketch is one module plus one config file
``configs/sketch/<name>.yaml``.
"""

from kktheory.embeddings.base import (
    SKETCHES,
    Fitted,
    Partition,
    Sketch,
    SketchConfig,
    SketchContext,
)

__all__ = ["SKETCHES", "Fitted", "Partition", "Sketch", "SketchConfig", "SketchContext"]
