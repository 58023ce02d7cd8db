"""The catalogue: one module per entry, named as its experiment config (experiments/<name>.yaml),
each defining one :class:`~kktheory.report.entry.Entry`. A module added here is in the
catalogue; its ``place`` orders it (:func:`kktheory.report.catalogue`)."""
