"""Bite quarantines (city code 58-527; RULES.md section 3): clinics, bite reports, orders,
exams and events, the list and the officer's week. One verb per user action; every view is
frozen data. The module's seam contributions are in ``module``."""

from fieldops.services.quarantine.bites import BiteInput, Proposal, Reported, propose, report_bite
from fieldops.services.quarantine.clinics import (
    ClinicInput,
    ClinicView,
    create_clinic,
    list_clinics,
    update_clinic,
)
from fieldops.services.quarantine.events import (
    Done,
    ExamInput,
    extend_period,
    record_broken_home,
    record_certificate_received,
    record_death,
    record_delivery,
    record_escape,
    record_exam,
    record_referral_sent,
    record_signs_of_rabies,
    record_specimen_sent,
    release_certified,
)
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
from fieldops.services.quarantine.records import get_bite, get_quarantine
from fieldops.services.quarantine.views import BiteView, QuarantineView

__all__ = [
    "FILTERS",
    "BiteInput",
    "BiteView",
    "ClinicInput",
    "ClinicView",
    "Done",
    "ExamInput",
    "Proposal",
    "QuarantineFilter",
    "QuarantineRow",
    "QuarantineView",
    "Reported",
    "ScheduleItem",
    "count_quarantines",
    "create_clinic",
    "extend_period",
    "get_bite",
    "get_quarantine",
    "list_clinics",
    "propose",
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
