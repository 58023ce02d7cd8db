"""Comparators: methods on the ``sketch=`` axis that are not an embedding followed by
k-means — exact kernel k-means, approximate kernel k-means, Nyström spectral clustering and
the two-step method. Each computes its partition with an algorithm of its own and holds a
Nyström embedding where it uses one; each module registers in
:data:`kktheory.embeddings.SKETCHES`."""
