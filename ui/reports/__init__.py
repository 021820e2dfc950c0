"""The Reports page: every module's record reports, previewed, printed, saved as PDF or CSV."""
