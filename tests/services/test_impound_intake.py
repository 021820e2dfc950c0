"""Intake: the hold, the repeat impoundment, validation."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from support import local

from fieldops.errors import ValidationError
from fieldops.services.animals import AnimalInput, count_animals
from fieldops.services.audit import history
from fieldops.services.impound_list import ImpoundFilter, count_impounds
from fieldops.services.impounds import IntakeInput, Photo, get_photo, intake
from fieldops.services.intake_check import intake_check
from fieldops.services.payments import quote


def test_intake_records_the_hold_and_who_logged_it(db, rex, impound):
    view = impound(rex.id, local(2026, 11, 2, 10))  # Monday
    assert view.custody_day == date(2026, 11, 2)
    assert view.last_claim_day == date(2026, 11, 9)  # 7 days, a Monday
    assert view.release_to_others_from == local(2026, 11, 10, 0)
    assert "7 days" in view.hold_why["last_claim_day"]
    assert view.owner.full_name == "Ana Ruiz"  # the registry's owner, recorded on the impoundment
    assert [h.action for h in history(db, "impoundment", view.id)] == ["intake"]
    assert history(db, "impoundment", view.id)[0].actor == "opal"


def test_a_biting_animal_is_held_ten_days_extended_past_a_holiday(db, rex, impound):
    view = impound(rex.id, local(2026, 11, 16, 9), reason="bite", bit_person=True)
    # 16 Nov + 10 = Thu 26 Nov, Thanksgiving: the owner has until Fri 27 Nov.
    assert view.last_claim_day == date(2026, 11, 27)


def test_owner_surrender_is_adoptable_at_once(db, rex, owner, impound):
    at = local(2026, 11, 3, 15)
    view = impound(rex.id, at, reason="owner_surrender", owner_id=owner.id)
    assert view.surrendered and view.release_to_others_from == at


def test_second_impoundment_within_60_days_doubles_the_owner_fee_and_names_the_first(
    db, rex, impound, escaped, profile
):
    first = impound(rex.id, local(2026, 9, 10))
    escaped(first.id, local(2026, 9, 11))
    second = impound(rex.id, local(2026, 11, 8))  # 59 days later
    assert second.repeat_of == first.id and second.repeat_custody_day == date(2026, 9, 10)
    fees = quote(db, second.id, local(2026, 11, 9), True, profile)
    dog = profile.fees["dog"]
    assert fees.lines[0].amount == dog.impound * 2
    assert f"#{first.id}" in fees.repeat_note and "Thu 10 Sep 2026" in fees.repeat_note
    # the adopter is never charged the owner's penalty
    assert quote(db, second.id, local(2026, 11, 20), False, profile).lines[0].amount == dog.impound


def test_sixty_days_apart_is_not_a_repeat(db, rex, impound, escaped, profile):
    escaped(impound(rex.id, local(2026, 9, 9)).id, local(2026, 9, 10))
    assert intake_check(db, rex.id, local(2026, 11, 8), profile).repeat is None
    later = impound(rex.id, local(2026, 11, 8))
    assert later.repeat_of is None
    assert (
        quote(db, later.id, local(2026, 11, 9), True, profile).lines[0].amount
        == profile.fees["dog"].impound
    )


def test_intake_of_a_new_animal_creates_it_in_the_registry(db, operator, profile):
    view = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
            new_animal=AnimalInput(species="cat", colour="grey tabby"),
            photo=Photo("cat.png", "image/png", b"\x89PNG fake"),
        ),
        profile,
    )
    assert view.animal.species == "cat" and view.has_photo
    assert get_photo(db, view.id).content == b"\x89PNG fake"
    assert count_animals(db) == 1


def test_invalid_intake_names_each_field_and_saves_nothing(db, operator, profile):
    with pytest.raises(ValidationError) as exc:
        intake(
            db,
            operator,
            IntakeInput(
                impounded_at=local(2099, 1, 1),
                officer=" ",
                reason="other",
                new_animal=AnimalInput(species="horse"),
            ),
            profile,
        )
    fields = exc.value.by_field()
    assert {"impounded_at", "officer", "reason_detail", "animal.species"} <= set(fields)
    assert count_animals(db) == 0
    assert count_impounds(db, ImpoundFilter(status="all"), local(2026, 11, 30)) == 0


def test_owner_surrender_needs_the_owner(db, rex, operator, profile):
    with pytest.raises(ValidationError) as exc:
        intake(
            db,
            operator,
            IntakeInput(
                impounded_at=local(2026, 11, 2),
                officer="Lee",
                reason="owner_surrender",
                animal_id=rex.id,
            ),
            profile,
        )
    assert exc.value.field == "owner_id"


def test_fees_use_the_schedule_in_force_on_the_impoundment_day(
    db, rex, impound, escaped, supervisor, profile
):
    from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule

    fees = {s: SpeciesFees("50.00", "20.00", "90.00") for s in ("dog", "cat", "other")}
    enter_fee_schedule(db, supervisor, FeeScheduleInput("R-2026-41", date(2026, 11, 5), fees))
    before = impound(rex.id, local(2026, 11, 4))
    escaped(before.id, local(2026, 11, 5))
    after = impound(rex.id, local(2026, 11, 6))
    q_before = quote(db, before.id, local(2026, 11, 6), True, profile)
    q_after = quote(db, after.id, local(2026, 11, 7), True, profile)
    assert q_before.lines[0].amount == profile.fees["dog"].impound
    assert q_after.lines[0].amount == Decimal("100.00")  # repeat: 2 x 50.00
    assert "R-2026-41" in q_after.schedule and "R-2026-41" not in q_before.schedule


def test_fee_schedule_needs_a_supervisor_and_valid_money(db, operator, supervisor):
    from fieldops.errors import PermissionDeniedError
    from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule

    good = {s: SpeciesFees("50.00", "20.00", "90.00") for s in ("dog", "cat", "other")}
    with pytest.raises(PermissionDeniedError):
        enter_fee_schedule(db, operator, FeeScheduleInput("R-1", date(2026, 12, 1), good))
    bad = {**good, "cat": SpeciesFees("-1", "abc", "1.005")}
    with pytest.raises(ValidationError) as exc:
        enter_fee_schedule(db, supervisor, FeeScheduleInput("", date(2026, 12, 1), bad))
    assert {"resolution", "cat.impound", "cat.boarding_per_day", "cat.adoption"} <= set(
        exc.value.by_field()
    )


def test_a_schedule_never_re_prices_a_record_already_paid_or_released(
    db, operator, supervisor, owner, rex, impound, profile, vaccinate
):
    """58-528: the record of a release keeps the fees it was released on. A schedule
    effective on or before the custody day of an impoundment already paid for or disposed
    of under the fees it would replace is refused, on its effective date; from the day
    after, it is taken, and an impoundment nobody has paid for takes the new fees."""
    from fieldops.services.dispositions import ReleaseRequest, release
    from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
    from fieldops.services.impounds import get_impoundment
    from fieldops.services.payments import LineInput, PaymentInput, record_payment

    vaccinate(rex.id)
    imp = impound(rex.id, local(2026, 11, 2))
    at = local(2026, 11, 4)
    owed = quote(db, imp.id, at, True, profile)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput((LineInput("impound", owed.total),), "cash", "R-1"),
        profile,
    )
    req = ReleaseRequest(True, owner.id, at=at, licence_receipt="L-1")
    done = release(db, operator, imp.id, req, profile)
    cat = create_animal_for_intake(db, operator)
    unpaid = impound(cat, local(2026, 11, 5))
    higher = dict.fromkeys(("dog", "cat", "other"), SpeciesFees("99.00", "20.00", "80.00"))
    for day in (date(2026, 1, 1), date(2026, 11, 2)):
        with pytest.raises(ValidationError) as exc:
            enter_fee_schedule(db, supervisor, FeeScheduleInput("R-99", day, higher))
        assert set(exc.value.by_field()) == {"effective_on"}
    after = get_impoundment(db, imp.id, profile).fees
    assert (after.total, after.balance) == (done.fees.total, Decimal("0.00"))
    # the day after that custody day: the paid record keeps its fees, the unpaid one is re-priced
    enter_fee_schedule(db, supervisor, FeeScheduleInput("R-99", date(2026, 11, 3), higher))
    assert get_impoundment(db, imp.id, profile).fees.total == done.fees.total
    assert quote(db, unpaid.id, local(2026, 11, 6), True, profile).lines[0].amount == Decimal(
        "99.00"
    )


def create_animal_for_intake(db, operator) -> int:
    from fieldops.services.animals import create_animal

    stray = AnimalInput(species="cat", breed="Tabby")
    return create_animal(db, operator, stray, today=date(2026, 11, 5)).id


def test_an_escaped_animals_record_charges_no_adoption_fee(db, operator, rex, impound, profile):
    """RULES.md section 2 (Fees): the adoption fee is what a person other than the owner
    pays to adopt. An animal that escaped was adopted by nobody: its record shows what the
    owner owes (impound fee and boarding), as the owner's fees."""
    from fieldops.services.dispositions import record_escape
    from fieldops.services.impounds import get_impoundment

    imp = impound(rex.id, local(2026, 10, 1, 10))
    record_escape(db, operator, imp.id, profile, at=local(2026, 10, 3, 10), notes="gate")
    fees = get_impoundment(db, imp.id, profile).fees
    assert [line.kind for line in fees.lines] == ["impound", "boarding"]
    assert fees.to_owner
    dog = profile.fees["dog"]
    assert fees.total == dog.impound + 2 * dog.boarding_per_day


def test_a_surrender_is_signed_by_the_animals_owner_of_record(
    db, operator, owner, rex, impound, profile
):
    """Wis. Stat. 173.13(3)(c): only the *owner's* written relinquishment ends the claim
    period at once; a stranger cannot surrender a registry animal that has an owner."""
    from fieldops.services.people import PersonInput, create_person

    stranger = create_person(db, operator, PersonInput(full_name="Zed Stranger", address="9 Pine"))
    surrender = {"reason": "owner_surrender", "found_place": "Counter"}
    with pytest.raises(ValidationError) as exc:
        impound(rex.id, local(2026, 11, 2), owner_id=stranger.id, **surrender)
    assert set(exc.value.by_field()) == {"owner_id"}
    view = impound(rex.id, local(2026, 11, 2), owner_id=owner.id, **surrender)
    assert view.surrendered and view.owner.id == owner.id


def test_an_animal_with_no_owner_on_record_is_surrendered_by_who_says_they_own_it(
    db, operator, impound, profile, today
):
    from fieldops.services.animals import create_animal
    from fieldops.services.people import PersonInput, create_person

    stray = create_animal(db, operator, AnimalInput(species="cat", breed="Tabby"), today=today)
    finder = create_person(db, operator, PersonInput(full_name="Zed Keeper", address="9 Pine"))
    view = impound(stray.id, local(2026, 11, 2), reason="owner_surrender", owner_id=finder.id)
    assert view.surrendered and view.no_claim_period


def test_an_animal_is_not_impounded_before_it_was_born(db, operator, owner, impound, today):
    """An intake dated before the recorded birth date cannot be true (a mistyped year, the
    wrong animal): refused beside the time, for a registry animal and a new one alike."""
    from fieldops.services.animals import create_animal

    born = date(2026, 11, 1)
    pup = AnimalInput(species="dog", name="Pup", breed="Lab", birth_date=born, owner_id=owner.id)
    registered = create_animal(db, operator, pup, today=today)
    with pytest.raises(ValidationError) as exc:
        impound(registered.id, local(2026, 10, 31, 23))
    assert set(exc.value.by_field()) == {"impounded_at"}
    with pytest.raises(ValidationError) as exc:
        impound(None, local(2026, 10, 31, 23), new_animal=pup)
    assert "impounded_at" in exc.value.by_field()
    assert impound(registered.id, local(2026, 11, 1, 0, 30)).animal.id == registered.id


@pytest.mark.parametrize(
    ("birth", "age"),
    [
        (date(2025, 10, 1), "about 1 year"),
        (date(2023, 11, 1), "about 3 years"),
        (date(2026, 10, 1), "about 1 month"),
        (None, "unknown"),
    ],
)
def test_the_record_gives_an_approximate_age(db, operator, impound, today, birth, age):
    from fieldops.services.animals import create_animal

    a = create_animal(db, operator, AnimalInput(species="dog", birth_date=birth), today=today)
    assert impound(a.id, local(2026, 11, 2)).animal.approximate_age == age


def _count_impoundments(db) -> int:
    return count_impounds(db, ImpoundFilter(status="all"), local(2026, 11, 30))


def test_an_intake_needs_where_found_and_a_description(db, operator, profile):
    # The counter's defect: a chip and an officer saved "#20 (no name), dog" and nothing else.
    with pytest.raises(ValidationError) as exc:
        intake(
            db,
            operator,
            IntakeInput(
                impounded_at=local(2026, 11, 2),
                officer="Off. Lee",
                reason="at_large",
                new_animal=AnimalInput(species="dog", microchip="985112345678901"),
            ),
            profile,
        )
    assert {"found_place", "animal.breed"} <= set(exc.value.by_field())
    assert "registry animal" in exc.value.by_field()["animal.breed"]
    assert count_animals(db) == 0 and _count_impoundments(db) == 0


def test_a_registry_animal_is_its_own_description(db, rex, operator, profile):
    with pytest.raises(ValidationError) as exc:
        intake(
            db,
            operator,
            IntakeInput(
                impounded_at=local(2026, 11, 2),
                officer="Off. Lee",
                reason="at_large",
                animal_id=rex.id,
            ),
            profile,
        )
    assert set(exc.value.by_field()) == {"found_place"}
    view = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            officer="Off. Lee",
            reason="at_large",
            animal_id=rex.id,
            found_place="Elm & 3rd",
        ),
        profile,
    )
    assert view.found_place == "Elm & 3rd"


def test_a_known_chip_described_as_new_points_to_the_registry_animal(db, operator, profile, today):
    from fieldops.services.animals import create_animal

    rex = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", microchip="985112345678901"),
        today=today,
    )
    with pytest.raises(ValidationError) as exc:
        intake(
            db,
            operator,
            IntakeInput(
                impounded_at=local(2026, 11, 2),
                officer="Off. Lee",
                reason="at_large",
                found_place="Elm & 3rd",
                new_animal=AnimalInput(
                    species="dog", colour="tan", microchip="985 112 345 678 901"
                ),
            ),
            profile,
        )
    message = exc.value.by_field()["animal.microchip"]
    assert f"#{rex.id}" in message and "Use this animal" in message
    assert count_animals(db) == 1 and _count_impoundments(db) == 0


def test_altered_condition_and_injuries_are_kept_with_the_intake(
    db, rex, operator, profile, escaped
):
    view = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
            animal_id=rex.id,
            altered=True,
            condition=" thin,  matted ",
            injuries="Cut on the left fore paw",
        ),
        profile,
    )
    assert (view.animal.altered, view.condition, view.injuries) == (
        True,
        "thin, matted",
        "Cut on the left fore paw",
    )
    escaped(view.id, local(2026, 11, 2, 18))
    new = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
            new_animal=AnimalInput(species="cat", colour="black"),
            altered=False,
        ),
        profile,
    )
    from fieldops.services.animals import get_animal

    assert new.animal.altered is False
    assert get_animal(db, new.animal.id).altered is False  # the registry learns it too
    plain = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 3),
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
            animal_id=rex.id,
        ),
        profile,
    )
    assert plain.animal.altered is None and plain.condition == "" and plain.injuries == ""


def test_officer_choices_are_the_staff_and_the_last_officer_this_user_named(
    db, rex, operator, supervisor, admin, profile, escaped
):
    # Issue 12: an administrator manages accounts and goes on no calls, so is no choice.
    from fieldops.services.impounds import officer_choices
    from fieldops.services.staff import set_staff

    set_staff(db, admin, "ada", "admin", full_name="Ada Admin")
    set_staff(db, admin, "marco", "officer", full_name="Off. Marco Vang")
    set_staff(db, admin, "opal", "operator", full_name="Opal Operator")
    set_staff(db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    set_staff(db, admin, "gone", "officer", full_name="Off. Gone", active=False)
    first = officer_choices(db, operator)
    assert first.names == ("Off. Marco Vang", "Sam Supervisor") and first.last == ""
    for day, officer, who in ((2, "Off. Marco Vang", operator), (3, "Off. Dana Lee", supervisor)):
        logged = intake(
            db,
            who,
            IntakeInput(
                impounded_at=local(2026, 11, day),
                officer=officer,
                reason="at_large",
                animal_id=rex.id,
                found_place="Elm",
            ),
            profile,
        )
        escaped(logged.id, local(2026, 11, day, 18))
    assert officer_choices(db, operator).last == "Off. Marco Vang"
    assert officer_choices(db, supervisor).last == "Off. Dana Lee"


@pytest.mark.parametrize(
    "on",
    [date(2026, 11, 2), date(2026, 2, 28), date(2028, 2, 29), date(2026, 8, 31), date(2026, 1, 1)],
)
@pytest.mark.parametrize("years", [0, 1, 3, 12])
def test_an_age_in_years_reads_back_as_that_age(on, years):
    from fieldops.services.animals import approximate_age, birth_date_for_age

    expected = "about 6 months" if years == 0 else f"about {years} year{'s' if years != 1 else ''}"
    assert approximate_age(birth_date_for_age(years, on), on) == expected


def test_an_age_counts_whole_months():
    from fieldops.services.animals import approximate_age

    assert approximate_age(date(2023, 11, 20), date(2026, 11, 2)) == "about 2 years"
    assert approximate_age(date(2026, 10, 20), date(2026, 11, 2)) == "about 0 months"
