"""Sign-in and account events in words, for every staff record's history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _fixed(text: str) -> Callable[[Any, Any], str]:
    def sentence(e: Any, names: Any) -> str:
        return f"{text} ({e.reason})." if e.reason else f"{text}."

    return sentence


def account_event_kinds() -> dict[str, tuple[str, Callable[[Any, Any], str]]]:
    """Audit action -> (label, sentence builder), for fieldops.services.history."""
    return {
        "staff_user:sign_in": ("Signed in", _fixed("Signed in")),
        "staff_user:sign_in_failed": ("Sign-in refused", _fixed("Sign-in refused")),
        "staff_user:lock": ("Account locked", _fixed("Account locked")),
        "staff_user:unlock": ("Account unlocked", _fixed("Account unlocked")),
        "staff_user:password_change": ("Password changed", _fixed("Changed their password")),
        "staff_user:password_reset": (
            "Password reset",
            _fixed("Password reset; to be changed at the next sign-in"),
        ),
        "app_setting:update": ("Setting changed", _fixed("Setting changed")),
    }
