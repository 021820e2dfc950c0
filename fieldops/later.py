"""A module's contributions named now and imported at their first use (issue 14).

Today needs every module's ``due_items`` at start-up; a module's demo data, reports,
self-test steps, history words and activity figures are not needed until someone
asks for them, and their files import much of the module's service. A module file
names those with these, by ``"package.module:NAME"``, instead of importing them::

    MODULE = Module(
        KEY,
        "Pound",
        due_items=due_items,
        activity=later_call("fieldops.services.pound_activity:activity"),
        reports=LaterSequence(items=("fieldops.services.registers:IMPOUND_REGISTER",)),
        self_test=LaterSequence("fieldops.selftest_records:POUND_STEPS"),
    )

Each behaves as what it names (a function, a mapping, a sequence): a caller of the
seam cannot tell the difference, except that the file is imported when first used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")


def find(where: str) -> Any:
    """The object ``"package.module:NAME"`` names (its file imported now)."""
    path, _, name = where.partition(":")
    if not name:
        raise ValueError(f"{where!r} names no object: write 'package.module:NAME'")
    return getattr(importlib.import_module(path), name)


class LaterFunction:
    """The function ``where`` names, imported at its first call."""

    def __init__(self, where: str) -> None:
        self.where = where
        self._found: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._found is None:
            self._found = find(self.where)
        return self._found(*args, **kwargs)

    def __repr__(self) -> str:
        return f"later_call({self.where!r})"


def later_call(where: str) -> Callable[..., Any]:
    """A function that imports the function ``where`` names at its first call, and calls it."""
    return LaterFunction(where)


class LaterMapping(Mapping[str, Any]):
    """The mapping ``where`` names, imported when first read."""

    def __init__(self, where: str) -> None:
        self.where = where
        self._found: Mapping[str, Any] | None = None

    def _mapping(self) -> Mapping[str, Any]:
        if self._found is None:
            self._found = find(self.where)
        return self._found

    def __getitem__(self, key: str) -> Any:
        return self._mapping()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return f"LaterMapping({self.where!r})"


class LaterSequence(Sequence[T]):
    """The items of the sequence ``where`` names, then each object ``items`` names, in
    order; imported when first read."""

    def __init__(self, where: str = "", *, items: tuple[str, ...] = ()) -> None:
        self.where = where
        self.items = items
        self._found: tuple[T, ...] | None = None

    def _tuple(self) -> tuple[T, ...]:
        if self._found is None:
            first: tuple[T, ...] = tuple(find(self.where)) if self.where else ()
            self._found = first + tuple(find(w) for w in self.items)
        return self._found

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        return self._tuple()[index]

    def __len__(self) -> int:
        return len(self._tuple())

    def __iter__(self) -> Iterator[T]:
        return iter(self._tuple())

    def __repr__(self) -> str:
        return f"LaterSequence({self.where!r}, items={self.items!r})"
