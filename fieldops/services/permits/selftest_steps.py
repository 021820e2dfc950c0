"""``fieldops --self-test``'s permit steps: a chicken permit applied for and issued with
its fee paid, and an animal fancier's permit with its list of animals; each read back
from the database and its permit printed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fieldops.modules import SelfTestKit, SelfTestResult, SelfTestStep


def _printed(kit: SelfTestKit, permit_id: int) -> tuple[Any, bytes]:
    from fieldops.reports.permit import permit_pdf
    from fieldops.services.context import now
    from fieldops.services.permits.records import load_permit

    view = load_permit(kit.db, permit_id, kit.profile)
    p = kit.profile
    return view, permit_pdf(view, jurisdiction=p.name, tz=p.timezone, printed_at=now())


def _chicken(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from fieldops.services.permits.issuing import issue_permit
    from fieldops.services.permits.records import local_today

    person = kit.made["person"]
    today = local_today(kit.profile)
    rules = kit.profile.chickens
    form = ChickenInput(
        today,
        today.year,
        hens=min(rules.hens_max or 3, 3),
        setback_feet=max(rules.setback_feet or 0, 60),
        residence_setback_feet=max(rules.residence_setback_feet or 0, 60),
        state_registered_on=today - timedelta(days=30),
        notes="Self-test record.",
    )
    made = apply_chicken(kit.db, kit.actor, person.id, "1 Self Test St", form, kit.profile)
    issue_permit(kit.db, kit.actor, made.id, today, kit.profile, receipt_number="P-SELFTEST")
    view, pdf = _printed(kit, made.id)
    issue = view.issues[-1] if view.issues else None
    if view.status != "issued" or issue is None or issue.receipt_number != "P-SELFTEST":
        raise AssertionError("the permit was issued but does not read back issued and paid")
    return SelfTestResult(
        f"#{view.id}, {view.holder}: {view.status_label} for {view.year}, "
        f"receipt {issue.receipt_number}",
        pdf,
    )


def _fancier(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.permits.applying import FancierInput, apply_fancier
    from fieldops.services.permits.issuing import issue_permit
    from fieldops.services.permits.records import local_today
    from fieldops.services.permits.views import AnimalLine

    person = kit.made["person"]
    today = local_today(kit.profile)
    form = FancierInput(today, today.year, (AnimalLine("pigeons", 6, "Selftest Homers"),))
    made = apply_fancier(kit.db, kit.actor, person.id, "2 Self Test St", form, kit.profile)
    issue_permit(kit.db, kit.actor, made.id, today, kit.profile)
    view, pdf = _printed(kit, made.id)
    if [a.names for a in view.animals] != ["Selftest Homers"]:
        raise AssertionError("the fancier's animals were saved but are not on the permit read")
    return SelfTestResult(f"#{view.id}, {view.holder}: 6 pigeons, {view.status_label}", pdf)


PERMIT_STEPS = (SelfTestStep("permit", _chicken), SelfTestStep("fancier", _fancier))
