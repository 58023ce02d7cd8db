"""The kernel stage: kernel functions and their bandwidth rules
(:mod:`~kktheory.kernels.functions`), kernel matrices in blocks (:mod:`~kktheory.kernels.gram`),
their spectra (:mod:`~kktheory.kernels.spectrum`) and distances to cluster means in feature
space and in the RKHS (:mod:`~kktheory.kernels.geometry`)."""
