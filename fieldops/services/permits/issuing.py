"""Issuing a permit for its year: the accepted application, the first issue or a renewal."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import PAYMENT_METHOD_CODES, PermitApplication, PermitIssue
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import (
    Profile,
)
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.permits.records import (
    build_view,
    change_summary,
    load,
    local_today,
    refuse_unless,
)
from fieldops.services.permits.views import PermitView


def year_end(year: int) -> date:
    """The last day of a permit year: the permit year is the calendar year (the city's and
    Dodgeville's, Jan 1 - Dec 31)."""
    return date(year, 12, 31)


@requires(Permission.RECORDS)
def issue_permit(
    db: Database,
    actor: Actor,
    permit_id: int,
    issued_on: date | None,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
    paid_amount: Decimal | str | None = None,
    payment_method: str = "cash",
    receipt_number: str = "",
) -> PermitView:
    """Issue the accepted application: the first permit, or the renewal for the next year,
    with the fee paid at the counter (``paid_amount`` blank: the application's total; less is
    refused, as a licence's is; ``receipt_number`` blank: the issue's own, ``PT-`` and the
    application's number)."""
    c = Collector()
    if issued_on is None:
        c.add("issued_on", "The day of issue is required.")
    elif v.day(c, "issued_on", issued_on, "The day of issue"):
        v.not_future(c, "issued_on", issued_on, "The day of issue", local_today(profile))
    col = PermitIssue.__table__.c
    receipt = v.clean(receipt_number)
    v.optional_len(c, "receipt_number", receipt, "The receipt number", col.receipt_number)
    c.check(
        payment_method in PAYMENT_METHOD_CODES,
        "payment_method",
        "Choose how it was paid: cash, check, card or other.",
    )
    paid = (
        None
        if paid_amount in (None, "")
        else v.money(c, "paid_amount", paid_amount, "The amount paid")
    )
    c.raise_if_any()
    assert issued_on is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "permit_action", actor)) is not None:
            return build_view(s, load(s, done), profile)
        permit = load(s, permit_id, lock=True, version=version)
        app = s.scalar(
            select(PermitApplication)
            .where(
                PermitApplication.permit_id == permit.id,
                PermitApplication.refused.is_(False),
                PermitApplication.id.not_in(select(PermitIssue.application_id)),
            )
            .order_by(PermitApplication.id.desc())
            .limit(1)
        )
        refuse_unless(
            app is not None and permit.status in ("applied", "issued"),
            "permit",
            "There is no accepted application to issue.",
        )
        assert app is not None
        refuse_unless(
            issued_on >= app.applied_on,
            "issued_on",
            "A permit cannot be issued before it was applied for.",
        )
        expires = year_end(app.year)
        refuse_unless(issued_on <= expires, "issued_on", f"The permit year {app.year} has ended.")
        start = issued_on  # a renewal issued in December is in force from then on
        paid = app.total if paid is None else paid
        if paid < app.total:
            raise ValidationError(
                {"paid_amount": f"The permit costs ${app.total:,.2f}; ${paid:,.2f} was entered."}
            )
        receipt = receipt or f"PT-{app.id:06d}"
        s.add(
            PermitIssue(
                permit_id=permit.id,
                application_id=app.id,
                year=app.year,
                issued_on=start,
                expires_on=expires,
                recorded_by=actor.username,
                recorded_at=now(),
                paid_amount=paid,
                payment_method=payment_method,
                receipt_number=receipt,
            )
        )
        s.flush()
        audit(
            s,
            actor,
            "permit_issued",
            "permit",
            permit.id,
            after=jsonable(
                {
                    "year": app.year,
                    "issued_on": start,
                    "expires_on": expires,
                    "renewal": not app.first and permit.first_year is not None,
                    "paid_amount": paid,
                    "payment_method": payment_method,
                    "receipt_number": receipt,
                }
            ),
        )
        change_summary(
            s,
            actor,
            permit,
            "permit issued",
            status="issued",
            year=app.year,
            issued_on=start,
            expires_on=expires,
            first_year=permit.first_year or app.year,
        )
        remember_save(s, client_key, "permit_action", permit.id, actor)
        return build_view(s, permit, profile)
