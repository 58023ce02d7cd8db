"""Agreement between a partition and the true classes.

- NMI with arithmetic normalisation, I(U,V)/((H(U)+H(V))/2), and geometric
  normalisation, I(U,V)/sqrt(H(U)H(V)) (Strehl & Ghosh 2002);
- ARI (Hubert & Arabie 1985);
- accuracy under the best one-to-one matching of clusters to classes (Hungarian
  algorithm on the contingency table; Yin et al.'s "accuracy", He & Zhang 2018);
- the classes themselves (:func:`class_rates`): the share of the largest class, which is
  the accuracy of putting every point in one cluster, and the number of classes.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score
from sklearn.metrics.cluster import contingency_matrix


def matched_accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Fraction of points whose cluster maps to their class under the best matching."""
    C = contingency_matrix(y_true, y_pred)
    rows, cols = linear_sum_assignment(C, maximize=True)
    return float(C[rows, cols].sum() / len(y_true))


def partition_scores(y_true: np.ndarray, y_pred: np.ndarray) -> dict[str, float]:
    """nmi, nmi_geometric, ari and accuracy of a labelling against the classes."""
    return {
        "nmi": float(normalized_mutual_info_score(y_true, y_pred, average_method="arithmetic")),
        "nmi_geometric": float(
            normalized_mutual_info_score(y_true, y_pred, average_method="geometric")
        ),
        "ari": float(adjusted_rand_score(y_true, y_pred)),
        "accuracy": matched_accuracy(y_true, y_pred),
    }


def class_rates(y_true: np.ndarray) -> dict[str, float]:
    """``majority``, the share of the largest class (the accuracy of a single cluster), and
    ``classes``, the number of distinct classes."""
    _, counts = np.unique(y_true, return_counts=True)
    return {"majority": float(counts.max() / counts.sum()), "classes": len(counts)}
