"""Blocks that other modules put on a release (RULES.md section 2, "Blocks across modules").

The quarantine (58-527) and vicious-animal (58-524) modules are not built
yet; until they are, no animal can be in an open quarantine or declared
vicious in this database, so both answer False. Each module replaces its
function here when it adds its tables, sets its ``*_TRACKED`` flag, and the
release services pick it up. Until then the release checklist and its
recorded evidence say that the app does not track those records (a "none on
record" would claim a search that was never possible); the requirement
itself stays, and does not block.
"""

from __future__ import annotations

from sqlalchemy.orm import Session


def in_open_quarantine(s: Session, animal_id: int) -> bool:
    """Whether the animal is in a bite quarantine that is not closed (58-527)."""
    return False


def declared_vicious(s: Session, animal_id: int) -> bool:
    """Whether the animal stands declared vicious (58-524)."""
    return False


QUARANTINES_TRACKED = False  # set True by the quarantine module (58-527)
VICIOUS_TRACKED = False  # set True by the vicious-animal module (58-524)

QUARANTINE_NOT_TRACKED = "FieldOps does not track bite quarantines yet: check the quarantine records."
VICIOUS_NOT_TRACKED = ("FieldOps does not track vicious-animal declarations yet: check the "
                       "declarations.")
