"""A small immutable, hashable mapping for the frozen result objects.

``types.MappingProxyType`` is read-only but not hashable, which would make the
frozen dataclasses that carry a mapping (``Profile.fees``, ``ImpoundHold.why``)
unhashable; services may want to cache on them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """Read-only mapping with value semantics (equality and hash by content)."""

    __slots__ = ("_data",)
    _data: dict[K, V]

    def __init__(self, data: Mapping[K, V] | Any = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("FrozenMap is immutable")

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"
