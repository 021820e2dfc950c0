"""The Today area: what is due, for every module that adds its items."""
