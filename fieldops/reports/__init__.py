"""PDF documents: report data in, PDF bytes out (ReportLab; no Qt, no database session)."""

from fieldops.reports.impound import impound_record_sheet, impound_register, release_receipt

__all__ = ["impound_record_sheet", "impound_register", "release_receipt"]
