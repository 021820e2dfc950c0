"""Chicken and animal fancier's permits (city code 58-533(a),(b)): one verb per user action,
each one audited unit of work.

- ``applying``: ``apply_chicken``, ``renew_chicken``, ``apply_fancier``, ``renew_fancier``,
  ``issue_permit`` (an application refused by the rules is recorded with ``refuse=True``)
- ``enforcing``: ``note_animal_change``, ``update_animal_list``, ``record_incident``,
  ``review_permit``, ``mail_notice``, ``file_appeal``, ``decide_appeal``, ``revoke_chicken``
- ``records``: ``load_permit`` (the permit view); ``listing``: the lazy list
- ``module``: the module on the seam (due items, demo, checks)
"""
