"""Dog licences (city code 58-533(c); RULES.md section 6): issue, renew, replace a
lost tag, transfer to a new owner, void; the renewal list and reminders; the module.

One verb a file: ``issue`` (issue and renew), ``changes`` (replace, transfer, void).
Views are frozen dataclasses (``views``); the rules decide every date and amount
(``fieldops.rules.licence_quote``, ``rabies_ok_for_licence``).
"""
