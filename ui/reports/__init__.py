"""Printable record reports as PDF: the 58-528 register of impounded animals first."""
