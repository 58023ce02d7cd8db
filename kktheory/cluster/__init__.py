"""The clustering stage: k-means on features (the ``clustering=`` registry,
:mod:`~kktheory.cluster.clusterers`; Lloyd's iterations, :mod:`~kktheory.cluster.lloyd`)
and exact kernel k-means on a kernel matrix (:mod:`~kktheory.cluster.kernel_kmeans`)."""
