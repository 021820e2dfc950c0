"""Bite quarantines (city code 58-527; RULES.md section 3): clinics, bite reports, orders,
exams and events, the list and the officer's week. One verb per user action; every view is
frozen data. The module's seam contributions are in ``module``.

Where the ordinance and the issue are silent, these are the choices made, and why:

- Owner known means an owner chosen from the registry; "owner unknown" is ticked, never
  assumed from an empty field (58-527(e) changes the placement). A linked impoundment gives
  the animal and, if recorded, the owner; it must still be in custody.
- Proof of vaccination counts only if given on or before the bite day and expiring on or
  after it (58-527(b): "current immunization" when it bit). The form offers the registry's
  vaccination; the service judges what was entered.
- Delivery to the clinic is an event of its own, so a delivery due can be done, and a late
  one is recorded as late rather than refused (it is a fact).
- Exams are matched to the required days on the current plan, in date order; after an
  extension the last exam is due again on the new last day. The certificate stays due 15
  days after the bite (58-527(d) counts from the bite).
- Release needs the last day reached, every required exam, and a last exam without signs;
  otherwise the veterinarian extends the period. An exam finding death closes the
  quarantine as died; signs of rabies keep it open until the outcome, with a Today item
  until the health officer's notification is recorded. The specimen is a later event,
  listed on Today until it is recorded.
- The contact of the person bitten stays on the bite report: not in the audit data, the
  lists or the documents.
- ``fieldops check`` compares only what follows from the events without a profile
  (status, delivery, certificate): the check has no jurisdiction profile to recompute dates.
"""

# The service's names, each imported from its file at its first use (PEP 562): importing
# a file of the package (``module``, which Today needs) does not import the whole service.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fieldops.services.quarantine.bites import (
        BiteInput,
        Proposal,
        Reported,
        propose,
        report_bite,
    )
    from fieldops.services.quarantine.clinics import (
        ClinicInput,
        ClinicView,
        create_clinic,
        list_clinics,
        update_clinic,
    )
    from fieldops.services.quarantine.corrections import CORRECTABLE, correct_record
    from fieldops.services.quarantine.events import (
        extend_period,
        record_broken_home,
        record_certificate_received,
        record_death,
        record_delivery,
        record_escape,
        record_referral_sent,
        record_signs_of_rabies,
        record_specimen_sent,
        release_certified,
    )
    from fieldops.services.quarantine.exams import ExamInput, record_exam
    from fieldops.services.quarantine.fees import ChargeView, Fees, PaymentView, quarantine_fees
    from fieldops.services.quarantine.listing import (
        FILTERS,
        QuarantineFilter,
        QuarantineRow,
        ScheduleItem,
        count_quarantines,
        quarantine_ids,
        quarantine_page,
        quarantine_rows,
        week_schedule,
    )
    from fieldops.services.quarantine.records import bite_victim_contact, get_bite, get_quarantine
    from fieldops.services.quarantine.steps import Done
    from fieldops.services.quarantine.views import BiteView, QuarantineView

_WHERE = {
    "BiteInput": "fieldops.services.quarantine.bites",
    "BiteView": "fieldops.services.quarantine.views",
    "CORRECTABLE": "fieldops.services.quarantine.corrections",
    "ChargeView": "fieldops.services.quarantine.fees",
    "ClinicInput": "fieldops.services.quarantine.clinics",
    "ClinicView": "fieldops.services.quarantine.clinics",
    "Done": "fieldops.services.quarantine.steps",
    "ExamInput": "fieldops.services.quarantine.exams",
    "FILTERS": "fieldops.services.quarantine.listing",
    "Fees": "fieldops.services.quarantine.fees",
    "PaymentView": "fieldops.services.quarantine.fees",
    "Proposal": "fieldops.services.quarantine.bites",
    "QuarantineFilter": "fieldops.services.quarantine.listing",
    "QuarantineRow": "fieldops.services.quarantine.listing",
    "QuarantineView": "fieldops.services.quarantine.views",
    "Reported": "fieldops.services.quarantine.bites",
    "ScheduleItem": "fieldops.services.quarantine.listing",
    "bite_victim_contact": "fieldops.services.quarantine.records",
    "correct_record": "fieldops.services.quarantine.corrections",
    "count_quarantines": "fieldops.services.quarantine.listing",
    "create_clinic": "fieldops.services.quarantine.clinics",
    "extend_period": "fieldops.services.quarantine.events",
    "get_bite": "fieldops.services.quarantine.records",
    "get_quarantine": "fieldops.services.quarantine.records",
    "list_clinics": "fieldops.services.quarantine.clinics",
    "propose": "fieldops.services.quarantine.bites",
    "quarantine_fees": "fieldops.services.quarantine.fees",
    "quarantine_ids": "fieldops.services.quarantine.listing",
    "quarantine_page": "fieldops.services.quarantine.listing",
    "quarantine_rows": "fieldops.services.quarantine.listing",
    "record_broken_home": "fieldops.services.quarantine.events",
    "record_certificate_received": "fieldops.services.quarantine.events",
    "record_death": "fieldops.services.quarantine.events",
    "record_delivery": "fieldops.services.quarantine.events",
    "record_escape": "fieldops.services.quarantine.events",
    "record_exam": "fieldops.services.quarantine.exams",
    "record_referral_sent": "fieldops.services.quarantine.events",
    "record_signs_of_rabies": "fieldops.services.quarantine.events",
    "record_specimen_sent": "fieldops.services.quarantine.events",
    "release_certified": "fieldops.services.quarantine.events",
    "report_bite": "fieldops.services.quarantine.bites",
    "update_clinic": "fieldops.services.quarantine.clinics",
    "week_schedule": "fieldops.services.quarantine.listing",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "CORRECTABLE",
    "FILTERS",
    "BiteInput",
    "BiteView",
    "ChargeView",
    "ClinicInput",
    "ClinicView",
    "Done",
    "ExamInput",
    "Fees",
    "PaymentView",
    "Proposal",
    "QuarantineFilter",
    "QuarantineRow",
    "QuarantineView",
    "Reported",
    "ScheduleItem",
    "bite_victim_contact",
    "correct_record",
    "count_quarantines",
    "create_clinic",
    "extend_period",
    "get_bite",
    "get_quarantine",
    "list_clinics",
    "propose",
    "quarantine_fees",
    "quarantine_ids",
    "quarantine_page",
    "quarantine_rows",
    "record_broken_home",
    "record_certificate_received",
    "record_death",
    "record_delivery",
    "record_escape",
    "record_exam",
    "record_referral_sent",
    "record_signs_of_rabies",
    "record_specimen_sent",
    "release_certified",
    "report_bite",
    "update_clinic",
    "week_schedule",
]
