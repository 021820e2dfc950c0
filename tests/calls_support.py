"""Helpers for the field calls tests: a call with a notified complaint, a call closed with
a follow-up date, and its dialogs."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from fieldops.services.calls.complaints import log_complaint, record_notification
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.records import CallInput, create_call


def call_input(address: str = "12 Elm St", owner_id: int | None = None, **kw) -> CallInput:
    data = {
        "received_at": datetime.now(UTC) - timedelta(hours=1),
        "received_how": "phone",
        "kind": "noise",
        "address": address,
        "priority": 2,
        "caller_name": "Nora Neighbour",
        "owner_id": owner_id,
        "description": "Barking all night.",
    }
    data.update(kw)
    return CallInput(**data)


def complained_call(db, actor, owner_id: int):
    """A barking call, dispatched, with a complaint whose owner was notified."""
    c = create_call(db, actor, call_input(owner_id=owner_id))
    c = dispatch(db, actor, c.id, c.version, actor.username)
    c = log_complaint(db, actor, c.id, complainant="Nora Neighbour", alleged="Barking")
    return record_notification(db, actor, c.complaints[0].id, c.complaints[0].version, how="mail")


def closed_with_follow_up(db, officer, follow_up_on: date | None, owner_id: int | None = None):
    """A noise call received three hours ago, dispatched, cleared "warned" with
    ``follow_up_on`` as its follow-up date (none when None)."""
    c = create_call(
        db,
        officer,
        CallInput(
            received_at=datetime.now(UTC) - timedelta(hours=3),
            received_how="phone",
            kind="noise",
            address="12 Elm St",
            caller_name="Nora",
            owner_id=owner_id,
        ),
    )
    v = dispatch(
        db, officer, c.id, c.version, officer.username, datetime.now(UTC) - timedelta(hours=2)
    )
    d = v.dispatches[0]
    return update_dispatch(
        db,
        officer,
        d.id,
        d.version,
        DispatchUpdate(
            arrived_at=d.sent_at + timedelta(minutes=10),
            cleared_at=d.sent_at + timedelta(minutes=30),
            outcome="warned",
            follow_up_on=follow_up_on,
        ),
    )


def call_dialogs(ctx, sup, db, supervisor, owner_id: int) -> list:
    """Every calls dialog, for the mnemonic walk (``sup`` a supervisor's context)."""
    from fieldops.rules import Profile
    from fieldops.services.calls.citations import CitationInput, cite
    from fieldops.services.calls.flags import set_flag
    from fieldops.services.calls.records import get_call
    from ui.calls import action_dialogs as act
    from ui.calls import call_actions as more
    from ui.calls.call_dialog import CallDialog
    from ui.calls.call_form import CallForm
    from ui.calls.citation_dialog import CitationDialog

    set_flag(db, supervisor, reason="Dog has attacked", address="12 Elm St")
    v = complained_call(db, supervisor, owner_id)
    profile = Profile.default()
    today = datetime.now(profile.timezone).date()  # the city's day, not the machine's
    cite(db, supervisor, CitationInput(owner_id, "58-531", (today,), "X", call_id=v.id), profile)
    v = get_call(db, v.id)
    involved = CallForm(ctx)
    for kind in ("person", "animal", "person"):
        involved.parties.add_row(kind)
    return [
        ("call form", CallForm(ctx)),
        ("call form, with people and animals involved", involved),
        ("call form, correcting", CallForm(ctx, None, v)),
        ("call view, supervisor", CallDialog(sup, v)),
        ("call dispatch", act.DispatchDialog(ctx, v)),
        ("call outcome", act.OutcomeDialog(ctx, v, v.dispatches[-1])),
        ("call complaint", act.ComplaintDialog(ctx, v)),
        ("call owner notified", act.NoticeDialog(ctx, v, v.complaints[-1])),
        ("call petition", act.PetitionDialog(ctx, v, v.complaints[-1])),
        ("call citation", CitationDialog(ctx, v)),
        ("call caution", act.CautionDialog(sup, v)),
        ("call clear caution", act.ClearCautionDialog(sup, v)),
        ("call court or paid", act.CitationUpdateDialog(ctx, v)),
        ("call follow-up done", more.FollowUpDoneDialog(ctx, v)),
        ("call citation fix, supervisor", more.CitationFixDialog(sup, v)),
    ]
