"""People and animals: the registry every other area draws on."""
