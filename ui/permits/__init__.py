"""Chicken and animal fancier's permits: the tab, the forms, the record (58-533)."""
