"""Blocks that other modules put on a release (RULES.md section 2, "Blocks across modules").

The quarantine (58-527) and vicious-animal (58-524) modules are not built
yet; until they are, no animal can be in an open quarantine or declared
vicious in this database, so both answer False. Each module replaces its
function here when it adds its tables, and the release services pick it up.
"""

from __future__ import annotations

from sqlalchemy.orm import Session


def in_open_quarantine(s: Session, animal_id: int) -> bool:
    """Whether the animal is in a bite quarantine that is not closed (58-527)."""
    return False


def declared_vicious(s: Session, animal_id: int) -> bool:
    """Whether the animal stands declared vicious (58-524)."""
    return False
