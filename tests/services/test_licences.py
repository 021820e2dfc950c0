"""Dog licences (issue 15): issue, renew, replace, transfer, void; every refusal names
its field; the licence is the pound release's evidence. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select, text
from support import local

from fieldops.db.models import DogLicence
from fieldops.errors import PermissionDeniedError, StaleRecordError, UserError, ValidationError
from fieldops.rules import licence_quote
from fieldops.services.animals import AnimalInput, create_animal, get_animal
from fieldops.services.audit import history
from fieldops.services.dispositions import ReleaseRequest, RequirementsNotMet, release
from fieldops.services.history import record_history
from fieldops.services.licences.changes import replace_tag, transfer_licence, void_licence
from fieldops.services.licences.issue import LicenceInput, issue_licence, preview
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.payments import quote as fee_quote

JUNE = date(2026, 6, 15)  # after the April late-fee day: an adult dog's licence is late


def lic(animal_id, tag="26-0001", year=2026, on=JUNE, **kw):
    kw.setdefault("altered", True)
    kw.setdefault("rabies_certificate", "RV-9")
    kw.setdefault("rabies_vaccinated_on", date(2026, 1, 5))
    kw.setdefault("rabies_expires_on", date(2029, 1, 5))
    return LicenceInput(animal_id=animal_id, licence_year=year, tag_number=tag, applied_on=on, **kw)


def errors(exc) -> set[str]:
    return {e.field for e in exc.value.errors}


def test_issue_at_the_counter_keeps_the_quote_payment_and_shows_on_the_dog(
    db, operator, rex, profile
):
    view = issue_licence(db, operator, lic(rex.id, "26-0042"), profile)
    q = licence_quote(2026, JUNE, profile, birth_date=None, altered=True)
    assert q.late and q.late_fee > 0
    assert (view.rate, view.late, view.late_fee, view.total) == (q.rate, True, q.late_fee, q.total)
    assert view.paid_amount == q.total and view.receipt_number == f"DL-{view.id:06d}"
    assert view.issued_place == "counter" and view.status == "current" and view.owner_name
    dog = get_animal(db, rex.id)
    assert (dog.licence_number, dog.licence_year) == ("26-0042", 2026)
    events = history(db, "dog_licence", view.id)
    assert [e.action for e in events] == ["licence_issue"]


def test_refusals_name_rabies_birth_date_tag_and_payment(db, operator, owner, rex, profile):
    issue_licence(db, operator, lic(rex.id, "26-0001"), profile)
    pup = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Tiny", birth_date=date(2026, 9, 1), owner_id=owner.id),
        today=date(2026, 11, 30),
    )
    # born 1 Sep 2026: five months old on 1 Feb 2027, so no licence for 2026
    with pytest.raises(ValidationError) as exc:
        issue_licence(db, operator, lic(pup.id, "26-0001", on=date(2026, 11, 30)), profile)
    assert {"birth_date", "tag_number"} <= errors(exc)
    with pytest.raises(ValidationError) as exc:
        issue_licence(
            db,
            operator,
            lic(pup.id, "26-0002", rabies_vaccinated_on=date(2022, 1, 5), rabies_certificate=""),
            profile,
        )
    assert "rabies_vaccinated_on" in errors(exc)
    with pytest.raises(ValidationError) as exc:
        issue_licence(
            db, operator, lic(pup.id, "26-0002", rabies_expires_on=date(2026, 3, 1)), profile
        )
    assert "rabies_expires_on" in errors(exc)
    with pytest.raises(ValidationError) as exc:
        issue_licence(db, operator, lic(rex.id, "26-0003"), profile)
    assert errors(exc) == {"animal_id"}  # already licensed for 2026
    with pytest.raises(ValidationError) as exc:
        issue_licence(
            db,
            operator,
            lic(pup.id, "27-0001", year=2027, on=date(2026, 11, 30), paid_amount="1.00"),
            profile,
        )
    assert "paid_amount" in errors(exc)
    with db.read() as s:
        assert s.scalar(select(DogLicence.id).where(DogLicence.animal_id == pup.id)) is None


def test_an_application_before_the_licence_is_sold_is_refused_naming_the_day_applied(
    db, operator, owner, rex, profile
):
    # A 2026 licence is sold from 1 January 2025 (licence_on_sale): an application of June
    # 2023 is refused naming applied_on, whether the birth date is unknown (it tripped an
    # assert) or known (the refusal blamed the birth date).
    early = {"on": date(2023, 6, 1), "rabies_vaccinated_on": date(2023, 5, 1)}
    bo = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Bo", birth_date=date(2020, 1, 1), owner_id=owner.id),
        today=JUNE,
    )
    for dog in (rex, bo):
        p = preview(db, lic(dog.id, **early), profile)
        assert p.quote is None and "applied_on" in p.errors and "birth_date" not in p.errors
        with pytest.raises(ValidationError) as exc:
            issue_licence(db, operator, lic(dog.id, **early), profile)
        assert "applied_on" in errors(exc) and "birth_date" not in errors(exc)
    with db.read() as s:
        assert s.scalar(select(text("count(*)")).select_from(DogLicence)) == 0


def test_a_dog_with_no_vaccination_and_no_altered_fact_is_refused_naming_both(
    db, operator, rex, profile
):
    inp = LicenceInput(animal_id=rex.id, licence_year=2026, tag_number="26-7", applied_on=JUNE)
    p = preview(db, inp, profile)
    assert p.quote is None and {"altered"} <= set(p.errors)
    p = preview(db, lic(rex.id), profile)
    assert p.errors == {} and p.quote is not None and p.quote.late


def test_a_future_residence_day_is_refused_like_the_other_days(db, operator, rex, profile, today):
    # It was taken as the day the duty to license began: no late fee, due in years to come.
    later = today + timedelta(days=40)
    for kw in ({"resident_since": later}, {"resident_since": date(2099, 1, 1)}):
        p = preview(db, lic(rex.id, **kw), profile)
        assert p.quote is None and set(p.errors) == {"resident_since"}
        with pytest.raises(ValidationError) as exc:
            issue_licence(db, operator, lic(rex.id, **kw), profile)
        assert errors(exc) == {"resident_since"}
    with db.read() as s:
        assert s.scalar(select(text("count(*)")).select_from(DogLicence)) == 0
    view = issue_licence(db, operator, lic(rex.id, resident_since=date(2026, 5, 1)), profile)
    assert view.status == "current" and view.due_by == date(2026, 6, 1)  # 30 days after


def test_the_registry_vaccination_is_used_when_the_form_gives_none(
    db, operator, rex, profile, vaccinate
):
    vaccinate(rex.id)  # RV-77, 10 Jan 2026
    inp = lic(rex.id, rabies_certificate="", rabies_vaccinated_on=None, rabies_expires_on=None)
    view = issue_licence(db, operator, inp, profile)
    assert view.rabies_certificate == "RV-77" and view.rabies_vaccinated_on == date(2026, 1, 10)


def test_a_retried_save_issues_one_licence(db, operator, rex, profile):
    a = issue_licence(db, operator, lic(rex.id), profile, client_key="k-1")
    b = issue_licence(db, operator, lic(rex.id), profile, client_key="k-1")
    assert a.id == b.id
    with db.read() as s:
        assert s.scalar(select(text("count(*)")).select_from(DogLicence)) == 1


def test_renew_replace_transfer_and_void(db, operator, supervisor, owner, adopter, rex, profile):
    first = issue_licence(
        db,
        operator,
        lic(
            rex.id, "25-0009", year=2025, on=date(2025, 2, 1), rabies_vaccinated_on=date(2025, 1, 5)
        ),
        profile,
    )
    assert not first.late
    renewed = issue_licence(
        db,
        operator,
        LicenceInput(
            animal_id=None,
            licence_year=None,
            tag_number="26-0010",
            applied_on=date(2026, 1, 20),
            altered=True,
            rabies_vaccinated_on=date(2025, 1, 5),
            renews_id=first.id,
        ),
        profile,
    )
    assert (renewed.licence_year, renewed.origin, renewed.previous_id) == (
        2026,
        "renewal",
        first.id,
    )
    assert not renewed.late and renewed.late_fee == 0
    with pytest.raises(ValidationError) as exc:
        replace_tag(db, operator, renewed.id, "26-0010", profile)
    assert errors(exc) == {"tag_number"}
    new = replace_tag(db, operator, renewed.id, "26-0011", profile, version=renewed.version)
    assert (new.origin, new.previous_id, new.licence_year, new.tag_number) == (
        "replacement",
        renewed.id,
        2026,
        "26-0011",
    )
    assert get_animal(db, rex.id).licence_number == "26-0011"
    with pytest.raises(UserError):  # the old licence is no longer current
        replace_tag(db, operator, renewed.id, "26-0012", profile)
    with pytest.raises(StaleRecordError):
        transfer_licence(db, operator, new.id, adopter.id, profile, version=new.version + 1)
    moved = transfer_licence(db, operator, new.id, adopter.id, profile, version=new.version)
    assert (moved.tag_number, moved.owner_id, moved.origin) == ("26-0011", adopter.id, "transfer")
    assert get_animal(db, rex.id).owner_id == adopter.id
    with pytest.raises(PermissionDeniedError):
        void_licence(db, operator, moved.id, "wrong dog")
    with pytest.raises(ValidationError) as exc:
        void_licence(db, supervisor, moved.id, "  ")
    assert errors(exc) == {"reason"}
    gone = void_licence(db, supervisor, moved.id, "Issued to the wrong dog")
    assert gone.status == "void" and gone.void_reason == "Issued to the wrong dog"
    dog = get_animal(db, rex.id)
    assert (dog.licence_number, dog.licence_year) == ("25-0009", 2025)  # last year's again
    statuses = {r.id: r.status for r in _all(db)}
    assert statuses == {
        first.id: "current",
        renewed.id: "replaced",
        new.id: "transferred",
        moved.id: "void",
    }
    words = [e.sentence for e in record_history(db, "dog_licence", renewed.id, profile.timezone)]
    assert any("26-0011" in w and "lost" in w for w in words)
    words = [e.sentence for e in record_history(db, "dog_licence", moved.id, profile.timezone)]
    assert words[0] == "Licence voided: Issued to the wrong dog."
    assert "Bea Quinn" in words[1]
    words = [e.sentence for e in record_history(db, "animal", rex.id, profile.timezone)]
    assert any("25-0009" in w for w in words)


def test_a_transfer_dated_before_the_licence_was_applied_for_is_refused_on_its_day(
    db, operator, rex, adopter, profile
):
    view = issue_licence(db, operator, lic(rex.id), profile)  # applied for on 15 June 2026
    for day in (date(2021, 3, 1), JUNE - timedelta(days=1)):
        with pytest.raises(ValidationError) as exc:
            transfer_licence(
                db, operator, view.id, adopter.id, profile, version=view.version, on=day
            )
        assert errors(exc) == {"on"}
    moved = transfer_licence(
        db, operator, view.id, adopter.id, profile, version=view.version, on=JUNE
    )
    assert (moved.owner_id, moved.applied_on) == (adopter.id, JUNE)


def _all(db):
    with db.read() as s:
        return list(s.scalars(select(DogLicence).order_by(DogLicence.id)))


def test_a_licence_issued_at_the_pound_is_the_release_evidence(
    db, operator, owner, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2))
    at = local(2026, 11, 4)
    fees = fee_quote(db, imp.id, at, True, profile)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput((LineInput("impound", fees.total),), "cash", "R-1"),
        profile,
    )
    req = ReleaseRequest(True, owner.id, at=at, rabies_certificate="RV-1 exp 2027")
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, profile)
    assert {r.code for r in exc.value.requirements} == {"licence"}
    view = issue_licence(
        db, operator, lic(None, "26-0500", on=date(2026, 11, 4), impoundment_id=imp.id), profile
    )
    assert view.issued_place == "pound" and view.impoundment_id == imp.id and view.late
    done = release(db, operator, imp.id, req, profile)
    evidence = {e.code: e.evidence for e in done.disposition.evidence}
    assert "26-0500" in evidence["licence"]


def test_the_tag_is_unique_in_its_year_in_the_database_too(db, operator, owner, rex, profile):
    issue_licence(db, operator, lic(rex.id, "26-0001"), profile)
    other = create_animal(
        db, operator, AnimalInput(species="dog", name="Bo", owner_id=owner.id), today=JUNE
    )
    with pytest.raises(ValidationError) as exc:
        issue_licence(db, operator, lic(other.id, "26-0001"), profile)
    assert errors(exc) == {"tag_number"}
    with pytest.raises(Exception), db.write() as s:  # noqa: B017 (IntegrityError, either engine)
        row = s.scalars(select(DogLicence)).one()
        s.execute(
            DogLicence.__table__.insert().values(
                {c.name: getattr(row, c.name) for c in DogLicence.__table__.c if c.name != "id"}
                | {"animal_id": other.id, "receipt_number": "x"}
            )
        )
