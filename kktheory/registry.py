"""Name → implementation registries for the config groups (sketch, clustering, dataset).

Registering an implementation also stores its config dataclass in Hydra's ConfigStore as
``<group>/<name>_schema``, so the YAML file ``configs/<group>/<name>.yaml`` starts with

    defaults:
      - <name>_schema
      - _self_

and Hydra type-checks every field and every command-line override against the dataclass.
A data set's file is in the global package instead (``# @package _global_``, schema entry
``<name>_schema@dataset``, its fields under ``dataset:``), because it also sets the run's
``n``, ``n_test``, ``k`` and kernel fields.
Adding a sketch is therefore one module in one of the registry's folders (auto-discovered
on first use, see :meth:`Registry.load`) plus one config file; another installed package adds
its own through an entry point of the registry's group (:mod:`kktheory.plugins`).

Every field of a config dataclass is documented by the comment on its line
(:func:`field_comments`), from which the row schema (:mod:`kktheory.run.schema`) documents
the row's columns.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Generic, Mapping, TypeVar

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from kktheory.errors import ConfigError

#: metadata of a config field that says where the data live or how a result is computed,
#: not what it is (``field(default=..., metadata=EXECUTION)``): it never enters a run's
#: identity (:mod:`kktheory.run.identity`), so changing it makes no new run
EXECUTION: Mapping[str, Any] = MappingProxyType({"stage": "execution"})


def off_at(value: Any) -> Mapping[str, Any]:
    """Metadata of an option added after rows existed: at ``value`` (what those rows
    computed) it is left out of a run's identity, so their run ids stay."""
    return MappingProxyType({"off": value})

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A registered implementation and its config dataclass."""

    name: str
    impl: T
    config_cls: type


class Registry(Generic[T]):
    """Registry for one config group; its ``packages`` are the folders whose every module
    registers one implementation (imported on first use, :meth:`load`)."""

    def __init__(self, group: str, packages: tuple[str, ...] = ()) -> None:
        self.group = group
        self.packages = packages
        self._entries: dict[str, Entry[T]] = {}
        self._loaded = False
        self._loading = threading.RLock()

    def load(self) -> None:
        """Import every module of the registry (:meth:`import_modules`), so that their
        registrations (and the Hydra schemas stored with them) exist. Threads that ask
        together (a Dask worker's first kernel blocks) wait for the one that imports; the
        registry counts as loaded only once every module is imported (a failed import is
        raised again next time)."""
        if self._loaded:
            return
        with self._loading:
            if not self._loaded:
                self.import_modules()
                self._loaded = True

    def import_modules(self) -> None:
        """Import every module of the registry's packages (a subclass adds other modules:
        :class:`kktheory.plugins.PluginRegistry`)."""
        for package in self.packages:
            import_submodules(package)

    def register(self, name: str, config_cls: type) -> Callable[[T], T]:
        """Decorator registering ``impl`` under ``name`` with its config dataclass."""

        def deco(impl: T) -> T:
            if name in self._entries and self._entries[name].impl is not impl:
                raise RuntimeError(f"{self.group} {name!r} registered twice")
            self._entries[name] = Entry(name, impl, config_cls)
            ConfigStore.instance().store(group=self.group, name=f"{name}_schema", node=config_cls)
            return impl

        return deco

    def names(self) -> list[str]:
        """Registered names, sorted."""
        self.load()
        return sorted(self._entries)

    def find(self, name: str) -> Entry[T] | None:
        """The entry for ``name``, or None (a lookup cheap enough for every kernel block)."""
        self.load()
        return self._entries.get(name)

    def get(self, name: str) -> Entry[T]:
        """The entry for ``name``; an unknown name is a ConfigError listing the choices."""
        self.load()
        if name not in self._entries:
            raise ConfigError(self.group, name, f"one of {', '.join(self.names())}")
        return self._entries[name]

    def params(self, node: Any) -> Any:
        """The group's config node as an instance of the registered dataclass.

        Accepts a DictConfig, a dict or an instance; type errors become ConfigErrors.
        """
        name = node.name if not isinstance(node, dict) else node.get("name")
        entry = self.get(name)
        if isinstance(node, entry.config_cls):
            return node
        return typed(self.group, entry.config_cls, node)


def typed(group: str, config_cls: type, node: Any) -> Any:
    """``node`` merged onto the dataclass ``config_cls``, as an instance; a field of the wrong
    type or not in the dataclass is a ConfigError naming ``group.field``."""
    try:
        merged = OmegaConf.merge(OmegaConf.structured(config_cls), node)
    except Exception as exc:  # omegaconf ValidationError and friends
        key = getattr(exc, "full_key", None) or getattr(exc, "key", "?")
        raise ConfigError(f"{group}.{key}", getattr(exc, "value", "?"), _msg(exc)) from exc
    return OmegaConf.to_object(merged) if isinstance(merged, DictConfig) else merged


def _msg(exc: Exception) -> str:
    return str(getattr(exc, "msg", exc)).splitlines()[0]


@cache
def field_comments(cls: type) -> dict[str, str]:
    """The comment on each field's line of a config dataclass (inherited fields included;
    a subclass's comment wins): ``n: int = 2000  # training points`` → {"n": "training points"}."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        source = textwrap.dedent(inspect.getsource(klass))
        lines = source.splitlines()
        for node in ast.parse(source).body[0].body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                line = lines[node.end_lineno - 1]
                if "#" in line:
                    out[node.target.id] = line.split("#", 1)[1].strip()
    return out


def import_submodules(package: str) -> None:
    """Import every module of a package so that its registrations run."""
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")
