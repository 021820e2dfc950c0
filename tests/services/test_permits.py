"""Chicken permits (58-533(b)) through their services: applied, refused, issued, renewed,
revoked; each refusal names its form field and writes nothing unless it is recorded."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from fieldops.db.models import Permit
from fieldops.errors import PermissionDeniedError, StaleRecordError, ValidationError
from fieldops.rules import Profile, chicken_renewal, permit_quote
from fieldops.services.history import record_history
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import ChickenInput, apply_chicken, renew_chicken
from fieldops.services.permits.enforcing import (
    IncidentInput,
    record_incident,
    review_permit,
    revoke_chicken,
)
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.records import load_permit

APPLIED = date(2026, 3, 2)


@pytest.fixture
def holder(db, operator):
    return create_person(
        db, operator, PersonInput(full_name="Hana Novak", address="21 Maple Dr", city="Madison")
    )


def _form(**kw) -> ChickenInput:
    data = {
        "applied_on": APPLIED,
        "year": 2026,
        "hens": 4,
        "roosters": 0,
        "setback_feet": 60,
        "hoa_exists": True,
        "hoa_consent": True,
        "hoa_consent_on": date(2026, 2, 20),
        # asked only where the profile sets them (Dodgeville, the village); ignored elsewhere
        "residence_setback_feet": 40,
        "state_registered_on": date(2025, 6, 1),
    }
    data.update(kw)
    return ChickenInput(**data)


def _count(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Permit)) or 0


def test_a_first_permit_without_the_association_consent_is_refused_beside_the_field(
    db, operator, holder, profile
):
    form = _form(hoa_consent=False, hoa_consent_on=None)
    with pytest.raises(ValidationError) as e:
        apply_chicken(db, operator, holder.id, holder.address, form, profile)
    assert set(e.value.by_field()) == {"hoa_consent"}
    assert _count(db) == 0  # nothing half-written
    view = apply_chicken(db, operator, holder.id, holder.address, form, profile, refuse=True)
    assert view.status == "refused"
    assert [p.code for p in view.application.problems] == ["hoa_consent_missing"]
    assert view.application.refused and not view.can_issue
    lines = record_history(db, "permit", view.id, profile.timezone)
    assert any(h.action == "permit_refused" and "consent" in h.sentence for h in lines)


def test_a_renewal_needs_no_association_consent_and_a_good_form_is_not_refused(
    db, operator, holder, profile
):
    form = _form(hoa_consent=False, hoa_consent_on=None)
    view = apply_chicken(db, operator, holder.id, holder.address, form, profile, first=False)
    assert view.status == "applied"
    with pytest.raises(ValidationError) as e:  # nothing to refuse it for
        apply_chicken(db, operator, holder.id, "9 Other St", _form(), profile, refuse=True)
    assert e.value.field == "refuse"


def test_a_short_setback_needs_the_neighbours_written_consent(db, operator, holder, profile):
    with pytest.raises(ValidationError) as e:
        apply_chicken(db, operator, holder.id, holder.address, _form(setback_feet=20), profile)
    assert set(e.value.by_field()) == {"setback_feet"}
    view = apply_chicken(
        db,
        operator,
        holder.id,
        holder.address,
        _form(setback_feet=20, neighbour_consent=True),
        profile,
    )
    assert view.application.setback_feet == 20 and view.application.neighbour_consent


def test_form_mistakes_name_their_fields(db, operator, holder, profile):
    with pytest.raises(ValidationError) as e:
        apply_chicken(
            db,
            operator,
            None,
            "",
            _form(hens=None, applied_on=date(2199, 1, 1), hoa_consent_on=None),
            profile,
        )
    assert {"holder_id", "address"} <= set(e.value.by_field())
    with pytest.raises(ValidationError) as e:
        apply_chicken(
            db, operator, holder.id, holder.address, _form(hens=None, hoa_consent_on=None), profile
        )
    assert set(e.value.by_field()) == {"hens", "hoa_consent_on"}
    assert _count(db) == 0


def test_issued_renewed_with_the_quoted_fees_then_revoked(
    db, operator, supervisor, holder, profile
):
    v = apply_chicken(
        db, operator, holder.id, holder.address, _form(), profile, client_key="k-first"
    )
    again = apply_chicken(
        db, operator, holder.id, holder.address, _form(), profile, client_key="k-first"
    )
    assert again.id == v.id and _count(db) == 1  # a retried save made one permit
    quote = permit_quote("chicken", 2026, APPLIED, profile, first=True)
    assert v.application.total == quote.total and dict(v.application.fee_why) == dict(quote.why)
    with pytest.raises(StaleRecordError):
        issue_permit(db, operator, v.id, date(2026, 3, 3), profile, version=v.version - 1)
    v = issue_permit(db, operator, v.id, date(2026, 3, 3), profile, version=v.version)
    assert (v.status, v.year, v.expires_on) == ("issued", 2026, date(2026, 12, 31))
    assert v.in_force(date(2026, 6, 1)) and not v.in_force(date(2027, 1, 1))
    assert not v.renewed
    with pytest.raises(ValidationError) as e:  # a second first permit at the same address
        apply_chicken(db, operator, holder.id, holder.address, _form(), profile)
    assert e.value.field == "holder_id"
    renewal = _form(applied_on=date(2026, 11, 20), year=2027, hoa_consent=False)
    v = renew_chicken(db, operator, v.id, renewal, profile, version=v.version)
    assert not v.application.first
    assert (
        v.application.total
        == permit_quote("chicken", 2027, date(2026, 11, 20), profile, first=False).total
    )
    v = issue_permit(db, operator, v.id, date(2026, 11, 21), profile)
    assert v.renewed and v.status_label == "Renewed" and v.expires_on == date(2027, 12, 31)
    assert v.in_force(date(2026, 12, 1))  # the renewal issued in November runs on
    with pytest.raises(PermissionDeniedError):  # revoking is not the counter's
        revoke_chicken(db, operator, v.id, date(2026, 11, 25), "Loose hens", profile)
    with pytest.raises(ValidationError) as e:
        revoke_chicken(db, supervisor, v.id, date(2026, 11, 25), " ", profile)
    assert e.value.field == "reason"
    v = revoke_chicken(db, supervisor, v.id, date(2026, 11, 25), "Hens loose again", profile)
    assert v.status == "revoked" and v.revocation.reason == "Hens loose again"
    assert not v.in_force(date(2026, 11, 26))
    with pytest.raises(ValidationError):
        revoke_chicken(db, supervisor, v.id, date(2026, 11, 26), "Twice", profile)
    said = {h.action for h in record_history(db, "permit", v.id, profile.timezone)}
    assert {"permit_applied", "permit_issued", "permit_revoked", "permit_status"} <= said


def test_a_rooster_is_refused_where_the_profile_allows_none(db, operator, holder, profile):
    if profile.chickens.roosters_allowed:
        pytest.skip("the city's profile allows roosters")
    with pytest.raises(ValidationError) as e:
        apply_chicken(db, operator, holder.id, holder.address, _form(roosters=1), profile)
    assert set(e.value.by_field()) == {"roosters"}
    assert Decimal(0) <= permit_quote("chicken", 2026, APPLIED, profile, first=True).total


def test_an_application_for_no_hens_is_a_mistake_beside_the_field_never_recorded(
    db, operator, holder, profile
):
    # Sent with 0 hens (a stray Enter), it was applied, could not be withdrawn, and the real
    # application at the address was refused as a second one.
    for refuse in (False, True):
        with pytest.raises(ValidationError) as e:
            apply_chicken(
                db, operator, holder.id, holder.address, _form(hens=0), profile, refuse=refuse
            )
        assert set(e.value.by_field()) == {"hens"}
    assert _count(db) == 0
    v = apply_chicken(db, operator, holder.id, holder.address, _form(hens=1), profile)
    assert v.status == "applied" and v.application.hens == 1
    v = issue_permit(db, operator, v.id, date(2026, 3, 3), profile)
    with pytest.raises(ValidationError) as e:  # nor is a renewal for none
        renew_chicken(db, operator, v.id, _form(hens=0, year=2027), profile)
    assert set(e.value.by_field()) == {"hens"}


def test_under_dodgevilles_profile_hens_only_five_at_most_and_10_dollars_late(db, operator, holder):
    from fieldops.rules import Profile

    dodgeville = Profile.named("dodgeville")
    plain = {"hoa_exists": False, "hoa_consent": False, "hoa_consent_on": None}
    for bad, field in ((_form(hens=6, **plain), "hens"), (_form(roosters=1, **plain), "roosters")):
        with pytest.raises(ValidationError) as e:
            apply_chicken(db, operator, holder.id, holder.address, bad, dodgeville)
        assert set(e.value.by_field()) == {field}
    v = apply_chicken(
        db,
        operator,
        holder.id,
        holder.address,
        _form(hens=5, applied_on=date(2025, 6, 2), year=2025, **plain),
        dodgeville,
    )  # no association's consent asked for
    assert v.application.total == Decimal("50.00")  # $25 application + $25 a year
    v = issue_permit(db, operator, v.id, date(2025, 6, 3), dodgeville)
    late = _form(hens=5, applied_on=date(2026, 3, 3), year=2026, **plain)  # 1 March a Sunday
    v = renew_chicken(db, operator, v.id, late, dodgeville)
    assert v.application.late and v.application.late_fee == Decimal("10.00")
    assert v.application.total == Decimal("35.00")


def test_under_the_villages_profile_neighbours_complaints_stop_renewal_for_five_years(
    db, operator, officer, holder
):
    from fieldops.rules import Profile, chicken_renewal
    from fieldops.services.permits.enforcing import IncidentInput, record_incident, review_permit

    village = Profile.named("village")
    plain = {"hoa_exists": False, "hoa_consent": False, "hoa_consent_on": None}
    form = _form(applied_on=date(2026, 1, 5), year=2026, **plain)
    v = apply_chicken(db, operator, holder.id, holder.address, form, village)
    v = issue_permit(db, operator, v.id, date(2026, 1, 6), village)
    for day, feet, ending in (
        (date(2026, 3, 1), 40, "none"),
        (date(2026, 5, 1), 90, "none"),
        (date(2026, 6, 1), 400, "none"),  # too far away to count
        (date(2026, 7, 1), 60, "citation"),  # a complaint, and a violation found
    ):
        number = "V-1" if ending == "citation" else ""
        record_incident(
            db,
            operator,
            v.id,
            IncidentInput(day, "noise", ending, "Crowing", number, distance_feet=feet),
            village,
        )
    v = review_permit(db, officer, v.id, date(2026, 11, 20), village)
    expected = chicken_renewal(
        date(2026, 11, 20),
        village,
        complaints=[
            (date(2026, 3, 1), 40),
            (date(2026, 5, 1), 90),
            (date(2026, 6, 1), 400),
            (date(2026, 7, 1), 60),
        ],
        violations=[date(2026, 7, 1)],
    )
    assert not expected.renew and v.status == "not_renewed"
    assert v.review.may_reapply_on == expected.may_reapply_on is not None
    with pytest.raises(ValidationError) as e:  # the ban: no new permit at that address
        apply_chicken(
            db,
            operator,
            holder.id,
            holder.address,
            _form(applied_on=date(2026, 11, 25), year=2026, **plain),
            village,
        )
    assert e.value.field == "holder_id" and str(expected.may_reapply_on.year) in str(e.value)


VILLAGE_PLAIN = {"hoa_exists": False, "hoa_consent": False, "hoa_consent_on": None}


def _village_permit(db, operator, holder, village):
    """A village chicken permit for 2026 with three neighbours' complaints within 100 feet,
    the last a violation found (a citation): ch. 12 (h) bars its renewal."""
    form = _form(applied_on=date(2026, 1, 5), year=2026, **VILLAGE_PLAIN)
    v = apply_chicken(db, operator, holder.id, holder.address, form, village)
    v = issue_permit(db, operator, v.id, date(2026, 1, 6), village)
    for month, feet, ending in ((2, 40, "none"), (3, 50, "none"), (4, 60, "citation")):
        number = "V-1" if ending == "citation" else ""
        v = record_incident(
            db,
            operator,
            v.id,
            IncidentInput(date(2026, month, 1), "noise", ending, "Crowing", number, feet),
            village,
        )
    return v


def test_the_village_ban_binds_the_permittee_at_any_address_not_a_neighbour_at_theirs(
    db, operator, officer, holder
):
    # Ch. 12 (h): "Any permittee whose permit is non-renewed ... may not re-apply for
    # another permit under this section for a period of 5 years."
    village = Profile.named("village")
    v = _village_permit(db, operator, holder, village)
    v = review_permit(db, officer, v.id, date(2026, 6, 1), village)
    assert v.status == "not_renewed" and v.review.may_reapply_on is not None
    form = _form(applied_on=date(2026, 6, 2), year=2026, **VILLAGE_PLAIN)
    for address in (holder.address, "77 Other Rd"):
        with pytest.raises(ValidationError) as e:
            apply_chicken(db, operator, holder.id, address, form, village)
        assert e.value.field == "holder_id"
    # The ban names the permittee: another person of the address is not banned by it.
    spouse = create_person(db, operator, PersonInput(full_name="Ivo Novak", address=holder.address))
    assert apply_chicken(db, operator, spouse.id, holder.address, form, village).status == "applied"


def test_a_village_renewal_is_refused_when_the_rules_complaint_test_bars_it(db, operator, holder):
    village = Profile.named("village")
    v = _village_permit(db, operator, holder, village)
    renewal = _form(applied_on=date(2026, 11, 2), year=2027, **VILLAGE_PLAIN)
    assert not chicken_renewal(  # as the rules decide it on the day applied
        date(2026, 11, 2),
        village,
        complaints=[(i.occurred_on, i.distance_feet or 0) for i in v.incidents],
        violations=[i.occurred_on for i in v.incidents if i.counts],
    ).renew
    with pytest.raises(ValidationError) as e:
        renew_chicken(db, operator, v.id, renewal, village, version=v.version)
    assert e.value.field == "permit"
    assert load_permit(db, v.id, village).application.year == 2026  # nothing applied for
