"""The dog licences' part of the activity summary: the licences issued in the period, the
late ones, and what was paid for them, counted from the licences themselves; a voided one
counts for nothing. Before, the summary's only licence figure was the pound's payment line
('Dog licence $0.00') while the counter had taken the licence fees."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from sqlalchemy import select

from fieldops import modules
from fieldops.db.models import DogLicence
from fieldops.rules import to_local
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import now
from fieldops.services.licences.changes import void_licence
from fieldops.services.licences.issue import issue_licence
from tests.services.test_licences import lic


def test_the_summary_counts_the_licences_issued_and_their_fees(
    db, operator, supervisor, owner, rex, profile, today
):
    bo = create_animal(
        db, operator, AnimalInput(species="dog", name="Bo", owner_id=owner.id), today=today
    )
    ivy = create_animal(
        db, operator, AnimalInput(species="dog", name="Ivy", owner_id=owner.id), today=today
    )
    issue_licence(db, operator, lic(rex.id, "26-0001"), profile)  # June: late
    issue_licence(db, operator, lic(bo.id, "26-0002"), profile)
    voided = issue_licence(db, operator, lic(ivy.id, "26-0003"), profile)
    void_licence(db, supervisor, voided.id, "Issued to the wrong dog")
    with db.read() as s:
        kept = s.scalars(select(DogLicence).where(DogLicence.status != "void")).all()
    assert len(kept) == 2
    local_today = to_local(now(), profile).date()  # the licences were issued now
    (section,) = [
        s
        for s in modules.activity_sections(db, local_today - timedelta(days=30), local_today)
        if s.title.startswith("Dog licences")
    ]
    figures = {f.label: (f.value, f.year_earlier) for f in section.figures}
    assert figures == {
        "Licences issued (voided ones left out)": (2, 0),
        "Of them, with the late fee": (sum(1 for k in kept if k.late), 0),
        "Paid for them, at the counter and at the pound": (
            sum((k.paid_amount for k in kept), Decimal("0.00")),
            Decimal("0.00"),
        ),
    }
    assert figures["Paid for them, at the counter and at the pound"][0] > 0
