"""Field calls, dispatches, complaints, petitions, citations and caution flags (58-534).

One verb per user action: ``records`` (a call, its edit, a recheck), ``dispatching``,
``complaints`` (complaints, notices, petitions), ``citations``, ``flags``; ``views``
are what every screen reads; ``module`` is the module's ``MODULE`` on the seam.
"""
