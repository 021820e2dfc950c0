"""The decision's notice by certified mail, the appeal (enforcement stayed while it is
open) and its decision (58-533(a))."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import (
    PermitAppeal,
    PermitAppealDecision,
    PermitNotice,
    PermitReview,
)
from fieldops.db.models.permit import APPEAL_OUTCOMES
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, fancier_renewal
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, jsonable, now
from fieldops.services.permits.enforcing import (
    _TEXT,
    _adverse_review,
    _day,
    _fancier,
    _finish,
    _open,
)
from fieldops.services.permits.records import (
    change_summary,
    refuse_unless,
)
from fieldops.services.permits.views import PermitView


@requires(Permission.NOTICES)
def mail_notice(
    db: Database,
    actor: Actor,
    permit_id: int,
    mailed_on: date | None,
    article_number: str,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The decision's notice sent by certified mail: the appeal is due by
    ``RenewalDecision.appeal_by`` of the day it was mailed."""
    c = Collector()
    _day(c, "mailed_on", mailed_on, "The day it was mailed", profile)
    number = v.clean(article_number)
    v.required(
        c,
        "article_number",
        number,
        "The certified mail article number",
        PermitNotice.__table__.c.article_number,
    )
    c.raise_if_any()
    assert mailed_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        _fancier(permit)  # the chicken rules set no notice or appeal
        review = _adverse_review(s, permit)
        refuse_unless(
            review is not None and permit.status in ("not_renewed", "revoked"),
            "permit",
            "There is no decision against this permit to give notice of.",
        )
        assert review is not None
        refuse_unless(
            s.scalar(select(PermitNotice.id).where(PermitNotice.review_id == review.id)) is None,
            "permit",
            "The notice of this decision is already mailed.",
        )
        refuse_unless(
            mailed_on >= review.review_day,
            "mailed_on",
            "The notice cannot be mailed before the review was made.",
        )
        counted = [date.fromisoformat(x) for x in review.counted]
        appeal_by = fancier_renewal(counted, review.review_day, profile).appeal_by(mailed_on)
        n = PermitNotice(
            permit_id=permit.id,
            review_id=review.id,
            mailed_on=mailed_on,
            article_number=number,
            appeal_by=appeal_by,
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(n)
        s.flush()
        audit(
            s,
            actor,
            "permit_notice_mailed",
            "permit",
            permit.id,
            after=jsonable(
                {"mailed_on": mailed_on, "article_number": number, "appeal_by": appeal_by}
            ),
        )
        change_summary(s, actor, permit, "notice mailed", appeal_by=appeal_by)
        return _finish(s, actor, permit, client_key, profile)


@requires(Permission.NOTICES)
def file_appeal(
    db: Database,
    actor: Actor,
    permit_id: int,
    filed_on: date | None,
    grounds: str,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The holder's appeal, on time: enforcement is stayed until it is decided."""
    c = Collector()
    _day(c, "filed_on", filed_on, "The day the appeal was filed", profile)
    v.optional_len(c, "grounds", (grounds or "").strip(), "Grounds", _TEXT)
    c.raise_if_any()
    assert filed_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        _fancier(permit)
        review = _adverse_review(s, permit)
        notice = (
            s.scalar(select(PermitNotice).where(PermitNotice.review_id == review.id))
            if review is not None
            else None
        )
        refuse_unless(
            notice is not None and permit.status in ("not_renewed", "revoked"),
            "permit",
            "There is no noticed decision on this permit to appeal.",
        )
        assert notice is not None
        refuse_unless(
            s.scalar(select(PermitAppeal.id).where(PermitAppeal.notice_id == notice.id)) is None,
            "permit",
            "This decision is already appealed.",
        )
        refuse_unless(
            filed_on >= notice.mailed_on,
            "filed_on",
            "An appeal cannot be filed before the notice was mailed.",
        )
        if filed_on > notice.appeal_by:
            from fieldops.rules import format_day

            raise ValidationError(
                {
                    "filed_on": f"The appeal was due by {format_day(notice.appeal_by)}: "
                    "filed later, it does not stay the decision."
                }
            )
        a = PermitAppeal(
            permit_id=permit.id,
            notice_id=notice.id,
            filed_on=filed_on,
            grounds=(grounds or "").strip(),
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(a)
        s.flush()
        audit(
            s,
            actor,
            "permit_appeal_filed",
            "permit",
            permit.id,
            after=jsonable({"filed_on": filed_on, "decision": permit.status}),
        )
        change_summary(
            s, actor, permit, "appeal filed: enforcement stayed", status="appeal_pending"
        )
        return _finish(s, actor, permit, client_key, profile)


@requires(Permission.NOTICES)
def decide_appeal(
    db: Database,
    actor: Actor,
    permit_id: int,
    decided_on: date | None,
    outcome: str,
    authority: str,
    profile: Profile,
    *,
    reason: str = "",
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The appeal decided: ``upheld`` (the decision takes effect) or ``reversed`` (the
    permit stands issued)."""
    c = Collector()
    _day(c, "decided_on", decided_on, "The day of the decision", profile)
    c.check(
        outcome in APPEAL_OUTCOMES, "outcome", "Choose whether the decision is upheld or reversed."
    )
    v.required(
        c,
        "authority",
        v.clean(authority),
        "Who decided",
        PermitAppealDecision.__table__.c.authority,
    )
    v.optional_len(c, "reason", (reason or "").strip(), "Reason", _TEXT)
    c.raise_if_any()
    assert decided_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        refuse_unless(
            permit.status == "appeal_pending", "permit", "No appeal is pending on this permit."
        )
        row = s.execute(
            select(PermitAppeal, PermitReview)
            .join(PermitNotice, PermitNotice.id == PermitAppeal.notice_id)
            .join(PermitReview, PermitReview.id == PermitNotice.review_id)
            .where(
                PermitAppeal.permit_id == permit.id,
                PermitAppeal.id.not_in(select(PermitAppealDecision.appeal_id)),
            )
            .order_by(PermitAppeal.id.desc())
            .limit(1)
        ).first()
        refuse_unless(row is not None, "permit", "No appeal is pending on this permit.")
        assert row is not None
        appeal, review = row
        refuse_unless(
            decided_on >= appeal.filed_on,
            "decided_on",
            "An appeal cannot be decided before it was filed.",
        )
        s.add(
            PermitAppealDecision(
                appeal_id=appeal.id,
                decided_on=decided_on,
                outcome=outcome,
                authority=v.clean(authority),
                reason=(reason or "").strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        s.flush()
        audit(
            s,
            actor,
            "permit_appeal_decided",
            "permit",
            permit.id,
            after=jsonable(
                {"decided_on": decided_on, "outcome": outcome, "authority": v.clean(authority)}
            ),
            reason=(reason or "").strip(),
        )
        if outcome == "upheld":
            status = "not_renewed" if review.purpose == "renewal" else "revoked"
        else:
            status = "issued"
        change_summary(s, actor, permit, f"appeal {outcome}", status=status, appeal_by=None)
        return _finish(s, actor, permit, client_key, profile)
