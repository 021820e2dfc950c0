"""Placeholders for the blocks of modules not built yet (RULES.md section 2, "Blocks across modules").

No bite quarantine (58-527) or vicious-animal declaration (58-524) is kept in
this database yet, so nothing here can say "none on record": that would claim
a search that was never possible. Each placeholder answers with its rules
requirement, satisfied, non-blocking, and evidence saying that FieldOps does
not track those records, so the clerk checks them elsewhere. The real module
takes its placeholder's line in ``fieldops.modules.INSTALLED`` (same key).
"""

from __future__ import annotations

from fieldops.modules import Module, ReleaseCase
from fieldops.rules.release import open_quarantine_block, vicious_block

QUARANTINE_NOT_TRACKED = (
    "FieldOps does not track bite quarantines yet: check the quarantine records."
)
VICIOUS_NOT_TRACKED = (
    "FieldOps does not track vicious-animal declarations yet: check the declarations."
)


def _quarantine(_s, _animal_id: int, _release: ReleaseCase):
    return (open_quarantine_block(False, QUARANTINE_NOT_TRACKED),)


def _vicious(_s, _animal_id: int, release: ReleaseCase):
    return (vicious_block(False, release.recipient_in_city, VICIOUS_NOT_TRACKED),)


QUARANTINE = Module("quarantine", "Bite quarantines (not tracked yet)", release_blocks=_quarantine)
VICIOUS = Module("vicious", "Vicious animals (not tracked yet)", release_blocks=_vicious)
