"""``python -m kktheory.datasets --n N [--grid PNG]``: generate augmented MNIST and report."""

from kktheory.datasets.augmented_mnist import main

main()
