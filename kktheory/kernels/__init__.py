"""The kernel stage: kernel families, one module each, registered by name in ``KERNELS``
(:mod:`~kktheory.kernels.gaussian` with its bandwidth rules, :mod:`~kktheory.kernels.polynomial`,
:mod:`~kktheory.kernels.linear`) and evaluated in row blocks by :class:`kktheory.kernels.functions.Kernel`;
kernel matrices in blocks (:mod:`~kktheory.kernels.gram`), their spectra
(:mod:`~kktheory.kernels.spectrum`) and distances to cluster means in feature space and in
the RKHS (:mod:`~kktheory.kernels.geometry`)."""
