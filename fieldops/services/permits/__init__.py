"""Chicken and animal fancier's permits (city code 58-533(a),(b)): one verb per user action,
each one audited unit of work.

- ``applying``: ``apply_chicken``, ``renew_chicken``, ``apply_fancier``, ``renew_fancier``
  (an application refused by the rules is recorded with ``refuse=True``)
- ``issuing``: ``issue_permit`` (the first issue or a renewal)
- ``animal_list``: ``note_animal_change``, ``update_animal_list``
- ``enforcing``: ``record_incident``, ``review_permit``, ``revoke_chicken``
- ``appeals``: ``mail_notice``, ``file_appeal``, ``decide_appeal``
- ``renewal_bars``: what bars a renewal or a new permit (the year, a pending renewal, the
  profile's chicken renewal test, the ban after a non-renewal), shared by the verbs
- ``records``: ``load_permit`` (the permit view); ``listing``: the lazy list
- ``module``: the module on the seam (due items, demo, checks)
"""
