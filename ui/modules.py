"""The front end's side of the module seam: opening any module's record by (module, kind, id).

Each module's UI file names its openers in ``OPENERS``, a mapping from
(module key, record kind) to ``open(ctx, record_id, parent)``; ``INSTALLED``
lists those files, one line per module, imported when a record is first
opened. Today, search results and history links open records through
``open_record`` without knowing the module. A test adds openers of its own
with ``with ui.modules.extra({(module, kind): opener}): ...``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from PySide6.QtWidgets import QWidget

from ui.context import AppContext

Opener = Callable[[AppContext, int, QWidget], object]

INSTALLED: tuple[str, ...] = (
    "ui.impounds.opening",  # the pound: impoundments
    "ui.people.opening",  # the shared registry: people and animals
)

_loaded: dict[tuple[str, str], Opener] | None = None
_extra: list[Mapping[tuple[str, str], Opener]] = []


def openers() -> dict[tuple[str, str], Opener]:
    """Every registered opener, keyed by (module key, record kind)."""
    global _loaded
    if _loaded is None:
        found: dict[tuple[str, str], Opener] = {}
        for path in INSTALLED:
            found.update(importlib.import_module(path).OPENERS)
        _loaded = found
    out = dict(_loaded)
    for more in _extra:
        out.update(more)
    return out


@contextmanager
def extra(added: Mapping[tuple[str, str], Opener]) -> Iterator[None]:
    """Register ``added`` openers for the duration of the block."""
    _extra.append(added)
    try:
        yield
    finally:
        _extra.remove(added)


def can_open(module: str, kind: str) -> bool:
    return (module, kind) in openers()


def open_record(ctx: AppContext, module: str, kind: str, record_id: int,
                parent: QWidget) -> bool:
    """Open the record in its module's dialog; False when no module opens that kind."""
    opener = openers().get((module, kind))
    if opener is None:
        return False
    opener(ctx, record_id, parent)
    return True
