"""The documents no self-test step prints, printed from records made for them: the calls
module's citation, complaint notice, petition form and officer's day, the licence reminder
letters and a fancier's non-renewal notice (tests/test_version.py checks every footer)."""

from __future__ import annotations

from datetime import date, timedelta

from calls_support import complained_call

from fieldops.reports.calls import citation_pdf, complaint_notice_pdf, petition_pdf
from fieldops.reports.calls_day import officer_day_pdf
from fieldops.reports.permit import non_renewal_notice
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.day import officer_day
from fieldops.services.context import now
from fieldops.services.licences.documents import letters_pdf
from fieldops.services.licences.renewals import renewals_due
from fieldops.services.permits.appeals import mail_notice
from fieldops.services.permits.applying import FancierInput, apply_fancier
from fieldops.services.permits.enforcing import IncidentInput, record_incident, review_permit
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import AnimalLine


def print_the_rest(kit) -> None:
    db, actor, p = kit.db, kit.actor, kit.profile
    kw = {"jurisdiction": p.name, "tz": p.timezone, "printed_at": now()}
    today = now().astimezone(p.timezone).date()
    owner = kit.made["person"]
    call = complained_call(db, actor, owner.id)
    cited = cite(
        db, actor, CitationInput(owner.id, "58-531", (today - timedelta(days=1),), "Off. Lee"), p
    )
    citation_pdf(cited[0], **kw)
    complaint_notice_pdf(call, call.complaints[0], **kw)
    petition_pdf(call, **kw)
    officer_day_pdf(officer_day(db, actor.username, today, p), **kw)
    # the self-test's licence is this year's: next January its dog is due for renewal
    rows = renewals_due(db, today.year + 1, date(today.year + 1, 1, 15), p)
    letters_pdf(rows, today.year + 1, date(today.year + 1, 1, 15), p)
    start = date(today.year - 1, 1, 5)
    v = apply_fancier(
        db,
        actor,
        owner.id,
        "3 Loft Lane",
        FancierInput(start, start.year, (AnimalLine("pigeons", 12, "Racing homers"),)),
        p,
        first=True,
    )
    v = issue_permit(db, actor, v.id, start + timedelta(days=1), p)
    for n, kind in enumerate(("noise", "at_large", "waste"), start=1):
        day = start + timedelta(days=30 * n)
        record_incident(db, actor, v.id, IncidentInput(day, kind, "warning", "A complaint", ""), p)
    review_at = start + timedelta(days=300)
    review_permit(db, actor, v.id, review_at, p)
    v = mail_notice(db, actor, v.id, review_at + timedelta(days=1), "7019 0700 0000 4242", p)
    non_renewal_notice(v, **kw)
