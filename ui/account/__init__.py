"""Signing in, locking and switching user at the shared counter (issue 12)."""

from __future__ import annotations

from fieldops.permissions import Permission, permitted
from ui.context import AppContext


def can(ctx: AppContext, permission: Permission) -> bool:
    """Whether the signed-in user's role may do this (the services check again)."""
    return permitted(ctx.actor.role, permission)
