"""Plugins: sketches, comparators, data sets, kernels and clusterers from other installed packages.

An installed package joins a registry by an entry point of the registry's group; the entry
point's name is the option's name and its value the module that registers it:

====================================  ==========================  ===============
entry-point group                     registry                    option
====================================  ==========================  ===============
``kktheory.sketches``                 ``SKETCHES``                ``sketch=``
``kktheory.comparators``              ``SKETCHES``                ``sketch=``
``kktheory.datasets``                 ``DATASETS``                ``dataset=``
``kktheory.kernels``                  ``KERNELS``                 ``kernel=``
``kktheory.clusterers``               ``CLUSTERERS``              ``clustering=``
====================================  ==========================  ===============

.. code-block:: toml

    [project.entry-points."kktheory.sketches"]
    sparse_sign = "kktheory_example_plugin.sparse_sign"

The module is written exactly as an in-tree one (``SKETCHES.register(name, Config)``,
``register_generated``, ``register_table``, ``KERNELS.register``, ``CLUSTERERS.register``), and
its package ships the option's YAML, exactly as in-tree, at ``configs/<group>/<name>.yaml``
inside the module's package (``kktheory_example_plugin/configs/sketch/sparse_sign.yaml``;
``# @package _global_`` for a data set, which also sets ``n``, ``n_test``, ``k`` and the
kernel). ``examples/kktheory-example-plugin`` is such a package. The four registries are
:class:`PluginRegistry` objects: each loads its plugins when it loads its own folders
(:meth:`kktheory.registry.Registry.load`), after them.

Design: the plugin's option is stored in Hydra's ConfigStore, beside the schema its
registration stores there (``<group>/<name>`` beside ``<group>/<name>_schema``), with the
package its YAML header names. Hydra reads ConfigStore as the last element of every config
search path (``structured://``), so the option is found by every way kktheory composes a
config — ``python run.py``, ``-m`` sweeps, ``--config-dir experiments``, and the compose API
of :mod:`kktheory.reproduce`, :mod:`kktheory.judge` and :mod:`kktheory.timing` — with nothing
else to change: :mod:`kktheory.run.config` loads every registry before Hydra composes, as the
schemas already need. Adding the plugin's folder to the search path instead would need each
of those paths edited (``hydra.searchpath`` in each primary config or on each command line)
or a ``hydra_plugins`` package of Hydra's own plugin discovery in every plugin. Since the
registry's dataclass types the option, a plugin's rows carry its name and fields, and its run
ids hash them, like a built-in's (:mod:`kktheory.run.identity`).

A plugin that cannot join — its name clashes with a built-in or an earlier plugin, its module
fails to import, its config does not type-check (the dataclass, or the YAML's values against
it), a field has no comment on its line (the row schema documents each column from it,
:func:`kktheory.registry.field_comments`), its YAML is missing or names another option — is a
:class:`PluginError`: one line naming the distribution and the entry point. Registries load
before any job is composed, so ``run.py`` and ``python -m kktheory.judge`` end with that line,
exit status 2 and nothing written — for every run, not only the plugin's: a registry half
loaded would make the names depend on what failed. Cost: one scan of the installed
distributions' entry points per group (a few ms each), once per process.
"""

from __future__ import annotations

import dataclasses
import importlib
from importlib import resources
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import Any, TypeVar

from hydra.core.config_store import ConfigStore
from hydra.plugins.config_source import ConfigSource
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from kktheory.errors import ConfigError, UserError
from kktheory.registry import Registry, field_comments, typed

T = TypeVar("T")
#: the package of an option that sets top-level fields too (a data set's ``n``, ``n_test``, ``k``)
GLOBAL = "_global_"


class PluginError(UserError):
    """A plugin that cannot join its registry: one line naming its distribution and entry point."""

    def __init__(self, ep: EntryPoint, problem: str) -> None:
        super().__init__(f"plugin error: {describe(ep)}: {problem}")


def describe(ep: EntryPoint) -> str:
    """``package <distribution> <version>, entry point <group>: <name> = <value>``."""
    dist = ep.dist
    package = f"{dist.name} {dist.version}" if dist is not None else "(unknown distribution)"
    return f"package {package}, entry point {ep.group}: {ep.name} = {ep.value}"


def origin(ep: EntryPoint) -> tuple[str, ...]:
    """What tells two entry points apart: distribution, group, name and value."""
    return (ep.dist.name if ep.dist is not None else "", ep.group, ep.name, ep.value)


class PluginRegistry(Registry[T]):
    """A registry that installed packages join through the entry points of its
    ``entry_point_groups`` (module docstring), after its own folders."""

    def __init__(self, group: str, packages: tuple[str, ...], entry_point_groups: tuple[str, ...]) -> None:
        super().__init__(group, packages)
        self.entry_point_groups = entry_point_groups
        #: name → :func:`origin` of the entry point of every name a plugin added
        self.origins: dict[str, tuple[str, ...]] = {}

    def import_modules(self) -> None:
        """The registry's folders, then every installed entry point of its groups (built-ins
        first, so that a plugin's name that clashes with one is refused)."""
        super().import_modules()
        for group in self.entry_point_groups:
            for ep in entry_points(group=group):
                self.join(ep)

    def join(self, ep: EntryPoint) -> None:
        """Import the plugin's module (it registers itself) and store its option in Hydra's
        ConfigStore; PluginError when it cannot join. Repeating it after a refusal refuses
        again with the same line."""
        self.refuse_clash(ep)
        module = import_plugin(ep)
        self.origins[ep.name] = origin(ep)
        entry = self._entries.get(ep.name)
        if entry is None:
            raise PluginError(ep, f"its module registers no {self.group} named {ep.name!r} (the entry point's "
                                  "name is the name its module registers)")
        node, package = read_option(ep, module, self.group)
        check_option(ep, self.group, entry.config_cls, node, package)
        ConfigStore.instance().store(group=self.group, name=ep.name, node=node, package=package)

    def refuse_clash(self, ep: EntryPoint) -> None:
        """PluginError when the name is a built-in's or another plugin's."""
        if ep.name not in self._entries:
            return
        other = self.origins.get(ep.name)
        if other == origin(ep):  # this plugin, refused further on before: refused there again
            return
        owner = f"the built-in {self.group} {ep.name!r}" if other is None else \
            f"{ep.name!r} of package {other[0]} (entry point {other[1]})"
        raise PluginError(ep, f"its name clashes with {owner}; rename the entry point and its option")


def import_plugin(ep: EntryPoint) -> ModuleType:
    """The entry point's module, imported (its registrations run)."""
    try:
        ep.load()
        return importlib.import_module(ep.module)
    except OmegaConfBaseException as exc:  # its dataclass, stored as the option's schema when it registers
        raise PluginError(ep, f"its config does not type-check: {type(exc).__name__}: {exc}") from exc
    except Exception as exc:
        raise PluginError(ep, f"fails to import: {type(exc).__name__}: {exc}") from exc


def option_file(group: str, name: str) -> str:
    """Where a plugin's option is, in the package of its module."""
    return f"configs/{group}/{name}.yaml"


def read_option(ep: EntryPoint, module: ModuleType, group: str) -> tuple[DictConfig, str | None]:
    """The option's YAML (:func:`option_file`, in the package of the entry point's module) and
    the package its ``# @package`` header names (None: the group's own)."""
    where = option_file(group, ep.name)
    package = module.__spec__.parent if module.__spec__ is not None else ""
    try:
        text = (resources.files(package) / "configs" / group / f"{ep.name}.yaml").read_text(encoding="utf-8")
    except (OSError, ValueError, TypeError, ModuleNotFoundError):
        raise PluginError(ep, f"ships no option {where} in package {package or '(none: a top-level module)'} "
                              "(the in-tree configs/ YAML, moved into the package)") from None
    try:
        header = ConfigSource._get_header_dict(text)  # Hydra's own reading of "# @package ..."
        node = OmegaConf.create(text)
    except Exception as exc:
        raise PluginError(ep, f"its option {where} does not parse: {type(exc).__name__}: {exc}") from exc
    if not isinstance(node, DictConfig):
        raise PluginError(ep, f"its option {where} is not a mapping")
    return node, header["package"]


def check_option(ep: EntryPoint, group: str, config_cls: type, node: DictConfig, package: str | None) -> None:
    """The option names the entry point's option and its values type-check against the
    registered dataclass, whose every field is documented on its line."""
    where = option_file(group, ep.name)
    own: Any = node.get(group) if package == GLOBAL else node
    values = {k: v for k, v in (OmegaConf.to_container(own) if isinstance(own, DictConfig) else {}).items()
              if k != "defaults"}
    if values.get("name") != ep.name:
        raise PluginError(ep, f"its option {where} sets {group}.name={values.get('name')!r}, not the entry "
                              f"point's name {ep.name!r}")
    try:
        typed(group, config_cls, values)
    except ConfigError as exc:
        raise PluginError(ep, f"its config does not type-check: {exc}") from exc
    try:
        comments = field_comments(config_cls)
    except (OSError, TypeError) as exc:  # no source to read the comments from
        raise PluginError(ep, f"its config's source cannot be read: {exc}") from exc
    undocumented = [f"{group}.{f.name}" for f in dataclasses.fields(config_cls)
                    if f.name != "name" and f.name not in comments]
    if undocumented:
        raise PluginError(ep, f"its config does not document {', '.join(undocumented)}: a comment on each "
                              "field's line (the row schema documents the row's columns from it)")
