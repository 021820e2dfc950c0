"""The dog licences screens (issue 15)."""
