"""Signing in, locking and switching user at the shared counter (issue 12)."""

from __future__ import annotations

from fieldops.permissions import Permission, permitted
from ui.context import AppContext


def can(ctx: AppContext, permission: Permission) -> bool:
    """Whether the signed-in user's role may do this (the services check again)."""
    return permitted(ctx.actor.role, permission)


# What making a new record on an area's page needs, and the page's own "New" button.
NEW_RECORD: dict[str, tuple[Permission, str]] = {
    "impounds": (Permission.INTAKE, "intake_button"),
    "quarantines": (Permission.BITE_REPORTS, "bite_button"),
    "vicious": (Permission.VICIOUS_CASES, "new_button"),
    "calls": (Permission.CALLS, "new_button"),
    "people": (Permission.RECORDS, ""),
}


def may_create(ctx: AppContext, area: str) -> bool:
    """Whether the user's role may make a new record on an area's page."""
    needed = NEW_RECORD.get(area)
    return needed is None or can(ctx, needed[0])


def restrict_page(ctx: AppContext, area: str, page: object) -> None:
    """Disable a page's "New" button when the role may not use it (the service refuses too)."""
    needed = NEW_RECORD.get(area)
    if needed is None or not needed[1]:
        return
    button = getattr(page, needed[1], None)
    if button is not None and not can(ctx, needed[0]):
        button.setEnabled(False)
        button.setToolTip("Your role may not make these records.")
