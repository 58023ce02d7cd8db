"""What the machine gives a run: the memory budget and its estimates
(:mod:`~kktheory.machine.memory`), BLAS/OpenMP thread limits
(:mod:`~kktheory.machine.threads`) and progress lines (:mod:`~kktheory.machine.progress`)."""
