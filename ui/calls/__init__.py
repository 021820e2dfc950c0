"""The field calls area: the calls list, the quick call form and the call view."""
