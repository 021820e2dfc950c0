"""Demo bite cases in every state (issue 9): home, clinic, unknown owner, a biting stray in the
pound, a broken home quarantine, an extension, an overdue certificate, signs of rabies, a death
with and without its specimen, an escape, a completed case and referrals of other species."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import select

from fieldops.db.models import Clinic, Impoundment
from fieldops.modules import Demo
from fieldops.services.animals import AnimalView
from fieldops.services.context import now
from fieldops.services.quarantine import bites, events, exams
from fieldops.services.quarantine.clinics import ClinicInput, create_clinic

POUND = "City Animal Control Pound"
VETS = ("Dr. Maya Kim", "Dr. Luis Ortega", "Dr. Priya Shah")
OFFICERS = ("Off. Dana Lee", "Off. Sam Ortiz", "Off. Jo Becker")
PLACES = (
    "Tenney Park playground",
    "400 block of E Johnson St",
    "Willy St Co-op parking lot",
    "Vilas Zoo entrance",
    "Olbrich Gardens path",
    "1200 Williamson St",
)
VICTIMS = (
    "Ruth Alvarez",
    "Tom Nguyen",
    "Keisha Brown",
    "Ole Hansen",
    "Mira Patel",
    "Jack O'Brien",
    "Grace Liu",
    "Ahmed Said",
    "Nora Fitz",
    "Pat Kowalski",
    "Li Wei",
    "Sara Kline",
    "Dev Rao",
    "Ivy Chen",
)


def q(r: bites.Reported) -> int:
    """The quarantine a dog's or cat's report ordered."""
    assert r.quarantine_id is not None
    return r.quarantine_id


def fill(d: Demo) -> int:
    profile, rng, db = d.profile, d.rng, d.db
    actor = d.actor  # a supervisor (fieldops.demo): clinics are a supervisor's to register
    with db.read() as s:
        names = set(s.scalars(select(Clinic.name)))
    for name, licensed in ((POUND, True), ("Westgate Pet Spa", False)):
        if name not in names:
            create_clinic(
                db,
                actor,
                ClinicInput(name, "2 Pound Rd, Madison", "608-555-0100", licensed, name == POUND),
            )
    with db.read() as s:
        clinics = dict(s.execute(select(Clinic.name, Clinic.id).where(Clinic.licensed)).all())
        in_pound = set(s.scalars(select(Impoundment.animal_id)))
        stray = s.scalar(
            select(Impoundment.id)
            .where(Impoundment.bit_person.is_(True), Impoundment.disposed.is_(False))
            .order_by(Impoundment.id.desc())
            .limit(1)
        )
        stray_at = (
            s.scalar(select(Impoundment.impounded_at).where(Impoundment.id == stray))
            if stray
            else None
        )
    pound = clinics[POUND]
    vets_clinic = next(i for n, i in clinics.items() if n != POUND)
    moment = min(now(), datetime.combine(d.anchor, time(17), profile.timezone))
    today = moment.astimezone(profile.timezone).date()
    free = [a for a in d.animals if a.id not in in_pound and a.owner_id is not None]
    rng.shuffle(free)
    vaccinated = [a for a in free if a.rabies_current_on(today - timedelta(days=30))]
    bare = [a for a in free if not a.vaccinations]
    victims = list(VICTIMS)
    n = 0

    def at(days_ago: float, hour: int = 10) -> datetime:
        t = datetime.combine(today - timedelta(days=int(days_ago)), time(hour), profile.timezone)
        return min(t, moment - timedelta(minutes=5))

    def report(
        when: datetime,
        animal: AnimalView | None = None,
        *,
        ordered: datetime | None = None,
        clinic: int | None = None,
        species: str = "",
        animal_description: str = "",
        owner_unknown: bool = False,
        impoundment_id: int | None = None,
        proof: bool = True,
    ) -> bites.Reported:
        nonlocal n
        n += 1
        inp = bites.BiteInput(
            bitten_at=when,
            place=rng.choice(PLACES),
            victim_name=victims.pop(0) if victims else "J. Doe",
            victim_contact=f"608-555-{rng.randint(1000, 9999)}",
            reported_by=rng.choice(("the person bitten", "a parent", "the owner")),
            reported_at=when + timedelta(minutes=30),
            officer=rng.choice(OFFICERS),
            ordered_at=ordered or when + timedelta(hours=1),
            clinic_id=clinic,
            species=species,
            animal_description=animal_description,
            owner_unknown=owner_unknown,
            impoundment_id=impoundment_id,
        )
        if animal is not None:
            inp = replace(inp, animal_id=animal.id, owner_id=animal.owner_id)
            cert = animal.rabies_current_on(when.date())
            if cert is not None and proof:
                inp = replace(
                    inp,
                    rabies_certificate=cert.certificate_number,
                    rabies_vaccinated_on=cert.vaccinated_on,
                    rabies_expires_on=cert.expires_on,
                )
        return bites.report_bite(db, actor, inp, profile)

    def exam(q: int, day: date, finding: str = "no_signs", clinic: int | None = None) -> None:
        exams.record_exam(
            db,
            actor,
            q,
            exams.ExamInput(
                day,
                rng.choice(VETS),
                finding,
                Decimal(rng.choice(("45.00", "55.00", "60.00"))),
                clinic or vets_clinic,
            ),
            profile,
        )

    def days(k: int) -> date:
        return today - timedelta(days=k)

    # Home quarantine, day 4: first exam done.
    if vaccinated:
        r = report(at(4), vaccinated.pop())
        exam(q(r), days(4))
    # Clinic quarantine, no proof shown, delivered, first exam done.
    if bare:
        r = report(at(2), bare.pop(), clinic=vets_clinic)
        events.record_delivery(db, actor, q(r), at(2, 14), profile)
        exam(q(r), days(2))
    # Unknown owner: ordered a few hours ago, delivery due within the day.
    r = report(
        moment - timedelta(hours=3),
        species="dog",
        owner_unknown=True,
        animal_description="Brown terrier mix, red collar",
        clinic=vets_clinic,
        ordered=moment - timedelta(hours=2),
    )
    # A biting stray now in the pound, quarantined there.
    if stray and stray_at and stray_at > now() - timedelta(days=9):
        r = report(
            stray_at - timedelta(hours=2),
            None,
            impoundment_id=stray,
            owner_unknown=True,
            clinic=pound,
            ordered=stray_at,
        )
        events.record_delivery(db, actor, q(r), stray_at + timedelta(minutes=10), profile)
        exam(q(r), stray_at.astimezone(profile.timezone).date(), clinic=pound)
    # Broken home quarantine: found at large, moved to the clinic, cited.
    if vaccinated:
        r = report(at(6), vaccinated.pop())
        exam(q(r), days(6))
        events.record_broken_home(
            db,
            actor,
            q(r),
            at(3, 19),
            vets_clinic,
            profile,
            citation=f"C-{rng.randint(10000, 99999)}",
            notes="Found loose in the alley behind the house",
        )
        events.record_delivery(db, actor, q(r), at(3, 21), profile)
        exam(q(r), days(3))
    # Overdue exam: ordered three days ago, no exam yet.
    if vaccinated:
        report(at(3), vaccinated.pop())
    # Extended by the veterinarian.
    if bare:
        r = report(at(11), bare.pop(), clinic=vets_clinic)
        events.record_delivery(db, actor, q(r), at(11, 13), profile)
        exam(q(r), days(11))
        exam(q(r), days(6))
        events.extend_period(
            db,
            actor,
            q(r),
            days(11) + timedelta(days=14),
            VETS[0],
            profile,
            notes="Lethargic; observe four more days",
        )
    # Released on time, certificate overdue.
    if vaccinated:
        r = report(at(19), vaccinated.pop())
        for k in (19, 14, 9):
            exam(q(r), days(k))
        events.release_certified(db, actor, q(r), at(9, 16), VETS[1], profile)
    # Completed: released, certificate back.
    if vaccinated:
        r = report(at(25), vaccinated.pop())
        for k in (25, 20, 15):
            exam(q(r), days(k))
        events.release_certified(db, actor, q(r), at(15, 16), VETS[2], profile)
        events.record_certificate_received(db, actor, q(r), days(13), profile)
    # Signs of rabies: health officer notified, euthanized, specimen sent.
    if bare:
        r = report(at(5), bare.pop(), clinic=vets_clinic)
        events.record_delivery(db, actor, q(r), at(5, 12), profile)
        exam(q(r), days(5))
        exam(q(r), days(2), "signs_of_rabies")
        events.record_signs_of_rabies(
            db,
            actor,
            q(r),
            at(2, 12),
            "Dr. Ellen Park, Public Health Madison & Dane County",
            profile,
        )
        events.record_death(
            db,
            actor,
            q(r),
            "euthanized",
            at(2, 15),
            profile,
            notes="On the health officer's order; head kept intact",
        )
        events.record_specimen_sent(db, actor, q(r), at(1, 9), OFFICERS[0], profile)
    # Died in the clinic; specimen not yet sent.
    if bare:
        r = report(at(3), bare.pop(), clinic=vets_clinic)
        events.record_delivery(db, actor, q(r), at(3, 12), profile)
        exam(q(r), days(3))
        exam(q(r), days(1), "died")
    # Escaped from home.
    if vaccinated:
        r = report(at(8), vaccinated.pop())
        exam(q(r), days(8))
        events.record_escape(
            db, actor, q(r), at(6, 7), profile, notes="Dug under the fence; not found"
        )
    # Other species: referred to the health officer (one sent, one not yet).
    r = report(at(1), species="other", animal_description="Ferret", owner_unknown=True)
    report(
        moment - timedelta(hours=1),
        species="other",
        animal_description="Bat, in a bedroom",
        owner_unknown=True,
    )
    events.record_referral_sent(
        db,
        actor,
        r.bite_report_id,
        at(1, 12),
        "Dr. Ellen Park, Public Health Madison & Dane County",
    )
    return n
