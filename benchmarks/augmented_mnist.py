"""Augmented MNIST next to MNIST: 1-nearest-neighbour accuracy (how much class structure
the deformations keep) and how far the first-order deformation is from a warp.

1-NN protocol, the same for both: the first n training images in source order — MNIST
training digits 0..n−1, or augmented images 0..n−1 (the same source digits, each deformed
once when n ≤ 60000) — are the labelled set; the 10000 MNIST test digits are classified by
their Euclidean nearest neighbour in pixels / 255 (float64, ties to the lowest index).

Linearisation (``--alphas``): for the first 1000 training digits x and each α, the
generator's field d, the first-order image s + d·∇s of the smoothed digit s = G_τ * x
against its exact warp s(p + d(p)) (cubic-spline interpolation, zero outside): median over
the digits of ‖first order − warp‖ / ‖warp − s‖, and the displacement's standard deviation
(pixels 4..23) and maximum. Not a timing.

    python benchmarks/augmented_mnist.py --n 60000 [--cache-dir DIR] [--alphas 5 10 34] \
        [dataset.<field>=<value> ...]
"""

from __future__ import annotations

import argparse

import numpy as np
from common import machine

from kktheory.datasets.augmented_mnist import (
    SIDE, AugmentedMnistConfig, as_unit_float32, draws, generate, tangents,
)
from kktheory.datasets.mnist import N_TRAIN, mnist_arrays

BLOCK = 500  # test rows per distance block (BLOCK × n float64)


def nn_accuracy(train: np.ndarray, y_train: np.ndarray, test: np.ndarray, y_test: np.ndarray) -> float:
    """Fraction of test rows whose nearest training row (squared Euclidean) has their label."""
    train = np.asarray(train, dtype=np.float64)
    sq = np.einsum("ij,ij->i", train, train)
    hits = 0
    for start in range(0, len(test), BLOCK):
        block = np.asarray(test[start:start + BLOCK], dtype=np.float64)
        dist = sq[None, :] - 2.0 * block @ train.T  # ‖test‖² is the same along a row
        hits += int((y_train[dist.argmin(axis=1)] == y_test[start:start + BLOCK]).sum())
    return hits / len(test)


def linearisation(source: np.ndarray, params: AugmentedMnistConfig) -> tuple[float, float, float]:
    """(median relative error of the first order against the warp, std of d, max |d|)."""
    from scipy.ndimage import gaussian_filter, map_coordinates

    idx = np.arange(1000)
    x = source[idx].reshape(-1, SIDE, SIDE).astype(np.float64)
    s = gaussian_filter(x, (0, params.tangent_sigma, params.tangent_sigma), mode="constant")
    d, _ = draws(idx, params)
    first = s + np.einsum("bapq,bapq->bpq", d, tangents(x, params.tangent_sigma))
    image, rows, cols = np.meshgrid(idx, np.arange(SIDE), np.arange(SIDE), indexing="ij")
    warp = map_coordinates(s, np.stack([image, rows + d[:, 0], cols + d[:, 1]]).astype(np.float64),
                           order=3, mode="constant")
    err = np.linalg.norm((first - warp).reshape(len(idx), -1), axis=1)
    change = np.linalg.norm((warp - s).reshape(len(idx), -1), axis=1)
    return float(np.median(err / change)), float(d[:, :, 4:24, 4:24].std()), float(np.abs(d).max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60000)
    parser.add_argument("--cache-dir", default=AugmentedMnistConfig.cache_dir)
    parser.add_argument("--alphas", type=float, nargs="*", default=[])
    parser.add_argument("overrides", nargs="*", help="dataset.<field>=<value> of augmented_mnist")
    args = parser.parse_args()
    fields = {}
    for item in args.overrides:
        key, value = item.split("=", 1)
        name = key.removeprefix("dataset.")
        fields[name] = type(getattr(AugmentedMnistConfig, name))(value)
    params = AugmentedMnistConfig(cache_dir=args.cache_dir, **fields)
    print(machine())
    images, labels, _ = mnist_arrays(None, True)
    for alpha in args.alphas:
        err, std, top = linearisation(images[:N_TRAIN], AugmentedMnistConfig(**{**fields, "alpha": alpha}))
        print(f"alpha={alpha:g}: displacement std {std:.3f} px, max {top:.2f} px; "
              f"first order vs warp: median relative error {err:.3f}")
    test, y_test = images[N_TRAIN:] / 255.0, labels[N_TRAIN:]
    y_train = labels[np.arange(args.n) % N_TRAIN]
    report = generate(images[:N_TRAIN], params, args.n)
    augmented = as_unit_float32(np.load(report.path, mmap_mode="r")[:args.n])
    if args.n <= N_TRAIN:
        print(f"mnist            n={args.n}: 1-NN accuracy on the MNIST test set "
              f"{nn_accuracy(images[:args.n] / 255.0, y_train, test, y_test):.4f}")
    print(f"augmented_mnist  n={args.n}: 1-NN accuracy on the MNIST test set "
          f"{nn_accuracy(augmented, y_train, test, y_test):.4f}  ({fields or 'defaults'})")
    print(machine())


if __name__ == "__main__":
    main()
