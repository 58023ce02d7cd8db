"""An example kktheory plugin: the sparse sign sketch (:mod:`.sparse_sign`, ``sketch=sparse_sign``)
and concentric spheres (:mod:`.spheres`, ``dataset=spheres``), each a module registered by an
entry point of this package and an option YAML in ``configs/`` (see kktheory/plugins.py)."""
