"""The vicious-animals area (city code 58-524): the cases list, the declaration form, the case."""
