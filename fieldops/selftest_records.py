"""The built-in modules' steps of ``fieldops --self-test`` (fieldops/selftest.py).

Each step makes one record through the module's own services, exactly as a clerk's
save does (validated, audited), reads it back from the database and prints the
document a clerk would print for it. The pound: an impoundment, its payment and its
release; bite quarantines: a bite report, the quarantine it orders and an exam;
vicious animals: a declaration and its notice. Services are imported inside the
steps, so that listing the steps on a module costs nothing at start-up.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from fieldops.modules import SelfTestKit, SelfTestResult, SelfTestStep

if TYPE_CHECKING:
    from fieldops.services.animals import AnimalView

OFFICER = "Off. Self Test"


def _now() -> datetime:
    from fieldops.services.context import now

    return now()


def _printing(kit: SelfTestKit) -> dict[str, Any]:
    p = kit.profile
    return {"jurisdiction": p.name, "tz": p.timezone, "printed_at": _now()}


def new_dog(kit: SelfTestKit, name: str) -> AnimalView:
    """A vaccinated dog of the self-test's person, for a step that needs an animal of its own."""
    from fieldops.services.animals import (
        AnimalInput,
        VaccinationInput,
        add_vaccination,
        create_animal,
    )

    today = _now().astimezone(kit.profile.timezone).date()
    dog = create_animal(
        kit.db,
        kit.actor,
        AnimalInput(
            species="dog",
            name=name,
            breed="Beagle",
            colour="tan",
            sex="female",
            altered=True,
            birth_date=today - timedelta(days=3 * 365),
            owner_id=kit.made["person"].id,
        ),
        today=today,
    )
    given = today - timedelta(days=200)
    return add_vaccination(
        kit.db,
        kit.actor,
        dog.id,
        VaccinationInput(given, given + timedelta(days=3 * 365), "RV-SELFTEST", "Dr. Self Test"),
        today=today,
    )


# -- the pound ----------------------------------------------------------------------------


def _sheet(kit: SelfTestKit, impoundment_id: int) -> tuple[Any, bytes]:
    from fieldops.reports.impound import impound_record_sheet
    from fieldops.services.impounds import get_impoundment

    view = get_impoundment(kit.db, impoundment_id, kit.profile)
    return view, impound_record_sheet(view, **_printing(kit))


def _impoundment(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.impounds import IntakeInput, intake

    animal = kit.made["animal"]
    made = intake(
        kit.db,
        kit.actor,
        IntakeInput(
            impounded_at=_now() - timedelta(days=3),
            animal_id=animal.id,
            officer=OFFICER,
            reason="at_large",
            found_place="100 Self Test Way",
            kennel="K-ST",
        ),
        kit.profile,
    )
    view, pdf = _sheet(kit, made.id)
    kit.made["impoundment"] = view
    return SelfTestResult(
        f"#{view.id}, {animal.name} in kennel {view.kennel}, found at {view.found_place}", pdf
    )


def _payment(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment

    imp = kit.made["impoundment"]
    at = _now() - timedelta(days=2)
    fees = quote(kit.db, imp.id, at, True, kit.profile)
    lines = tuple(LineInput(f.kind, f.amount, f.label) for f in fees.lines if f.amount > 0)
    record_payment(
        kit.db,
        kit.actor,
        imp.id,
        PaymentInput(lines, "card", "R-SELFTEST", payer_id=kit.made["person"].id, paid_at=at),
        kit.profile,
    )
    view, pdf = _sheet(kit, imp.id)
    if not view.payments:
        raise AssertionError("the payment was saved but is not on the impoundment read back")
    paid = sum((line.amount for p in view.payments for line in p.lines), Decimal("0"))
    return SelfTestResult(f"receipt R-SELFTEST, ${paid:.2f} for impoundment #{imp.id}", pdf)


def _release(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.reports.impound import release_receipt
    from fieldops.services.dispositions import ReleaseRequest, release
    from fieldops.services.impounds import get_impoundment

    imp = kit.made["impoundment"]
    owner = kit.made["person"]
    release(
        kit.db,
        kit.actor,
        imp.id,
        ReleaseRequest(
            True,
            owner.id,
            at=_now() - timedelta(days=2),
            rabies_certificate="RV-SELFTEST shown",
            licence_receipt="L-SELFTEST",
        ),
        kit.profile,
    )
    view = get_impoundment(kit.db, imp.id, kit.profile)
    if view.disposition is None:
        raise AssertionError("the release was saved but the impoundment reads as in custody")
    pdf = release_receipt(view, **_printing(kit))
    return SelfTestResult(f"impoundment #{imp.id} reclaimed by {owner.full_name}", pdf)


POUND_STEPS = (
    SelfTestStep("impoundment", _impoundment),
    SelfTestStep("payment", _payment),
    SelfTestStep("release", _release),
)


# -- bite quarantines ---------------------------------------------------------------------


def _bite(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.quarantine.bites import BiteInput, report_bite
    from fieldops.services.quarantine.record_copy import bite_record_pdf
    from fieldops.services.quarantine.records import get_bite

    dog = new_dog(kit, "Selftest Biter")
    cert = dog.vaccinations[0]
    when = _now() - timedelta(days=1)
    reported = report_bite(
        kit.db,
        kit.actor,
        BiteInput(
            bitten_at=when,
            place="Self Test Park",
            victim_name="Selftest Victim",
            victim_contact="608-555-0000",
            reported_by="the person bitten",
            reported_at=when + timedelta(minutes=30),
            officer=OFFICER,
            animal_id=dog.id,
            owner_id=dog.owner_id,
            rabies_certificate=cert.certificate_number,
            rabies_vaccinated_on=cert.vaccinated_on,
            rabies_expires_on=cert.expires_on,
            ordered_at=when + timedelta(hours=1),
        ),
        kit.profile,
    )
    if reported.quarantine_id is None:
        raise AssertionError("a dog's bite report ordered no quarantine")
    bite = get_bite(kit.db, reported.bite_report_id, kit.profile)
    kit.made["bite_report"] = bite
    kit.made["quarantine_id"] = reported.quarantine_id
    pdf = bite_record_pdf(kit.db, kit.actor, bite.id, kit.profile, redacted=False)
    return SelfTestResult(f"#{bite.id}, {dog.name} at {bite.place}", pdf)


def _quarantine(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.reports.quarantine import quarantine_order
    from fieldops.services.quarantine.records import get_quarantine

    view = get_quarantine(kit.db, kit.made["quarantine_id"], kit.profile)
    pdf = quarantine_order(view, **_printing(kit))
    return SelfTestResult(f"#{view.id} for bite report #{view.bite.id}", pdf)


def _exam(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.quarantine.exams import ExamInput, record_exam
    from fieldops.services.quarantine.record_copy import bite_record_pdf
    from fieldops.services.quarantine.records import get_quarantine

    q = kit.made["quarantine_id"]
    today = _now().astimezone(kit.profile.timezone).date()
    record_exam(
        kit.db,
        kit.actor,
        q,
        ExamInput(today, "Dr. Self Test", "no_signs", Decimal("45.00")),
        kit.profile,
    )
    view = get_quarantine(kit.db, q, kit.profile)
    if not view.exams:
        raise AssertionError("the exam was saved but is not on the quarantine read back")
    pdf = bite_record_pdf(kit.db, kit.actor, view.bite.id, kit.profile, redacted=False)
    return SelfTestResult(f"quarantine #{q} examined by Dr. Self Test", pdf)


QUARANTINE_STEPS = (
    SelfTestStep("bite report", _bite),
    SelfTestStep("quarantine", _quarantine),
    SelfTestStep("exam", _exam),
)


# -- vicious animals ----------------------------------------------------------------------


def _case_pdf(kit: SelfTestKit, case_id: int) -> tuple[Any, bytes]:
    from fieldops.reports.vicious import vicious_notice
    from fieldops.services.vicious.cases import load_case

    view = load_case(kit.db, case_id, kit.profile)
    return view, vicious_notice(view, **_printing(kit))


def _vicious_case(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.rules import vicious as rules
    from fieldops.services.vicious.declaring import (
        DeclarationInput,
        Finding,
        IncidentInput,
        declare,
    )

    dog = new_dog(kit, "Selftest Vicious")
    when = _now() - timedelta(hours=2)
    made = declare(
        kit.db,
        kit.actor,
        DeclarationInput(
            dog.id,
            dog.owner_id,
            OFFICER,
            when,
            ("bit_or_clawed",),
            {code: Finding(False, "Not so on the facts.") for code in rules.EXCEPTIONS},
            (IncidentInput(when - timedelta(days=1), "Self Test Park", "Bit a jogger."),),
        ),
        kit.profile,
    )
    view, pdf = _case_pdf(kit, made.id)
    if not view.declared:
        raise AssertionError("the declaration was saved but the case reads as not declared")
    kit.made["vicious_case"] = view
    return SelfTestResult(f"#{view.id}, {view.animal}: {view.status_label}", pdf)


def _notice(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.vicious.notices import NoticeInput, serve_notice

    case = kit.made["vicious_case"]
    serve_notice(
        kit.db,
        kit.actor,
        case.id,
        NoticeInput("in_person", _now() - timedelta(hours=1), OFFICER, "1 Self Test St"),
        kit.profile,
    )
    view, pdf = _case_pdf(kit, case.id)
    if view.notice is None:
        raise AssertionError("the notice was saved but is not on the case read back")
    return SelfTestResult(f"case #{view.id} served in person, 1 Self Test St", pdf)


VICIOUS_STEPS = (
    SelfTestStep("vicious case", _vicious_case),
    SelfTestStep("notice", _notice),
)
