"""PDF documents: report data in, PDF bytes out (ReportLab; no Qt, no database session).

The exports below are imported on first use: importing a submodule of this package
(``fieldops.reports.base``, say) does not load every document, nor ReportLab
with them, and the app's start-up loads none of it until something is printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fieldops.reports.impound import impound_record_sheet, impound_register, release_receipt

__all__ = ["impound_record_sheet", "impound_register", "release_receipt"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from fieldops.reports import impound

        return getattr(impound, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
