"""Vicious animals (city code 58-524): one verb per user action, each one audited unit of work.

- ``declaring``: ``declare`` (or the refusal when an exception applies)
- ``notices``: ``serve_notice``
- ``outcomes``: ``record_outcome``, ``add_step``, ``complete_step``, ``end_declaration``
- ``cases``: ``load_case`` (the case view), ``case_list`` (the lazy list)
- ``module``: the module on the seam (release block, due items, demo, checks)
"""
