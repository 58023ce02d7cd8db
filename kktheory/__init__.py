"""kktheory: experimental checks of the theory of sketched kernel k-means."""

__version__ = "0.1.0"
