"""Offering a control only to a role that may use it (issue 12).

A control the role lacks is disabled with a tooltip saying whose task it is; the words
come from the permission table (``fieldops.permissions``), never from a role named here.
The services refuse anyway: this only keeps a user from reaching for what they may not do.
"""

from __future__ import annotations

from typing import Protocol

from fieldops.permissions import WHAT, Permission, role_label, roles_with
from ui.account import can
from ui.context import AppContext


class Says(Protocol):
    def show_error(self, text: str) -> None: ...


class Enablable(Protocol):
    def setEnabled(self, enabled: bool) -> None: ...  # noqa: N802 (Qt's name)
    def setToolTip(self, text: str) -> None: ...  # noqa: N802 (Qt's name)


def whose_task(ctx: AppContext, permission: Permission) -> str:
    """A sentence for a denied control: what it does, who may, and the user's role."""
    allowed = ", ".join(role_label(r) for r in roles_with(permission)) or "no one"
    return (
        f"{WHAT[permission]} is a task for: {allowed}. "
        f"Your role ({role_label(ctx.actor.role)}) may not do it."
    )


def gate(ctx: AppContext, control: Enablable, permission: Permission, state: bool = True) -> bool:
    """Enable ``control`` when the record's state allows it and the role may; say why not.

    Returns whether the role may (so a caller can keep its own tooltip when it may)."""
    allowed = can(ctx, permission)
    control.setEnabled(state and allowed)
    if not allowed:
        control.setToolTip(whose_task(ctx, permission))
    return allowed


def refused(ctx: AppContext, banner: Says, permission: Permission) -> bool:
    """For a shortcut that reaches a disabled control (Ctrl+S): say whose task it is.

    Nothing is sent to the service, so the form's Save is not re-enabled by a refusal."""
    if can(ctx, permission):
        return False
    banner.show_error(f"Nothing was saved. {whose_task(ctx, permission)}")
    return True
