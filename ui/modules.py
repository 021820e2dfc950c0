"""The front end's side of the module seam: opening any module's record by (module, kind, id).

Each module's UI file names its openers in ``OPENERS``, a mapping from
(module key, record kind) to ``open(ctx, record_id, parent)``, and may name in
``CREATORS`` the dialogs that make a new record of a kind
(``new(ctx, parent, **prefill) -> QDialog``); ``INSTALLED`` lists those files,
one line per module, imported when a record is first opened. Today, search
results, history links and one dialog opening another's record go through
``open_record`` and ``new_record`` without knowing the module, so no dialog
imports another module's dialogs (and no two dialogs import each other). A
test adds openers of its own with ``with ui.modules.extra({(module, kind):
opener}): ...``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from PySide6.QtWidgets import QDialog, QWidget

from ui.context import AppContext

Opener = Callable[[AppContext, int, QWidget], object]
Creator = Callable[..., QDialog]

INSTALLED: tuple[str, ...] = (
    "ui.impounds.opening",  # the pound: impoundments
    "ui.people.opening",  # the shared registry: people and animals
    "ui.quarantine.opening",  # bite quarantines: quarantines and bite reports
    "ui.vicious.opening",  # vicious animals: cases (58-524)
    "ui.licences.opening",  # dog licences (58-533(c))
    "ui.permits.opening",  # chicken and animal fancier's permits (58-533)
    "ui.calls.opening",  # field calls: calls (58-534)
)

_loaded: dict[tuple[str, str], Opener] | None = None
_creators: dict[tuple[str, str], Creator] | None = None
_extra: list[Mapping[tuple[str, str], Opener]] = []


def openers() -> dict[tuple[str, str], Opener]:
    """Every registered opener, keyed by (module key, record kind)."""
    global _loaded, _creators
    if _loaded is None or _creators is None:
        found: dict[tuple[str, str], Opener] = {}
        makers: dict[tuple[str, str], Creator] = {}
        for path in INSTALLED:
            module = importlib.import_module(path)
            found.update(module.OPENERS)
            makers.update(getattr(module, "CREATORS", {}))
        _loaded, _creators = found, makers
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


def open_record(ctx: AppContext, module: str, kind: str, record_id: int, parent: QWidget) -> bool:
    """Open the record in its module's dialog; False when no module opens that kind."""
    opener = openers().get((module, kind))
    if opener is None:
        return False
    opener(ctx, record_id, parent)
    return True


def admin_sections() -> tuple[Callable[[AppContext], QWidget], ...]:
    """The Administration sections the installed modules add (``ADMIN_SECTIONS`` in their file:
    widget factories taking the context), in ``INSTALLED`` order."""
    out: list[Callable[[AppContext], QWidget]] = []
    for path in INSTALLED:
        out.extend(getattr(importlib.import_module(path), "ADMIN_SECTIONS", ()))
    return tuple(out)


def can_create(module: str, kind: str) -> bool:
    """Whether an installed module makes new records of that kind (``CREATORS``)."""
    openers()  # loads the installed files, and with them their creators
    return (module, kind) in (_creators or {})


def new_record(
    ctx: AppContext, module: str, kind: str, parent: QWidget, **prefill: object
) -> QDialog | None:
    """Open the dialog that makes a new record of that kind; None when no module makes one."""
    openers()  # loads the installed files, and with them their creators
    creator = (_creators or {}).get((module, kind))
    return creator(ctx, parent, **prefill) if creator is not None else None
