"""The written notice to destroy or remove a vicious animal (58-524(c)(2)), checked by its text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support import images_besides_the_letterhead, local
from vicious_cases import HOSTILE, declared, owner_and_dog

from fieldops.reports.vicious import vicious_notice
from fieldops.services.vicious.notices import NoticeInput, serve_notice

PRINTED = datetime(2026, 11, 21, 15, tzinfo=UTC)
JURISDICTION = "City of Riverton Animal Control"


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    records printed here are recorded by one."""
    return officer


@pytest.fixture
def profile():
    from fieldops.rules import Profile

    return Profile.default()


def render(view, profile):
    return vicious_notice(view, jurisdiction=JURISDICTION, tz=profile.timezone, printed_at=PRINTED)


@pytest.fixture
def posted(sqlite_db, operator, profile, today):
    _, dog = owner_and_dog(sqlite_db, operator, today, HOSTILE, "Rex <the dog>")
    case = declared(
        sqlite_db,
        operator,
        profile,
        dog.id,
        grounds=("bit_or_clawed", "approached_to_attack"),
        decided_at=local(2026, 11, 19, 9),
    )
    return serve_notice(
        sqlite_db,
        operator,
        case.id,
        NoticeInput(
            "posted",
            local(2026, 11, 20, 15, 30),
            "Off. Marco Vang",
            "Front door, 12 Elm St, Madison",
        ),
        profile,
    )


def test_the_notice_names_everything_the_ordinance_asks(posted, profile, read_pdf):
    pdf = render(posted, profile)
    text = " ".join(read_pdf(pdf))
    assert "Notice to destroy or remove a vicious animal" in text
    assert HOSTILE in text and "Rex <the dog>" in text and "12 Elm St" in text
    # The deadline as weekday, date and time: posted Friday 3:30 PM -> Monday 3:30 PM.
    assert "Deadline: Mon 23 Nov 2026 3:30 PM CST" in text
    assert "58-524(a)(1)a" in text and "58-524(a)(1)b" in text
    assert "approaches any person in an apparent attitude of attack" in text
    assert "No person shall own or keep a vicious animal." in text
    assert "within 48 hours of service of written notice" in text
    assert "Certificate of service" in text and "Signature of the serving officer" in text
    assert "Off. Marco Vang" in text and "Fri 20 Nov 2026 3:30 PM CST" in text
    assert images_besides_the_letterhead(pdf) == []


def test_a_notice_not_yet_served_says_how_the_deadline_is_counted(
    sqlite_db, operator, profile, today, read_pdf
):
    _, dog = owner_and_dog(sqlite_db, operator, today)
    case = declared(sqlite_db, operator, profile, dog.id)
    text = " ".join(read_pdf(render(case, profile)))
    assert "48 hours after the time of service written on the certificate" in text
    assert "Date and time of service" in text


def test_no_notice_for_a_refused_declaration(sqlite_db, operator, profile, today):
    _, dog = owner_and_dog(sqlite_db, operator, today)
    case = declared(
        sqlite_db, operator, profile, dog.id, applies={"law_enforcement_dog": "K-9 unit on duty"}
    )
    with pytest.raises(ValueError):
        render(case, profile)


@pytest.mark.parametrize("hours", [48, 72])
def test_the_notice_states_the_profiles_hours_served_or_not(
    sqlite_db, operator, profile, today, read_pdf, hours
):
    """Another town's profile may give the owner 72 hours: the printed order, its deadline
    line before service say the profile's figure, never a fixed 48."""
    from dataclasses import replace

    town = replace(profile, notice_hours=hours)
    _, dog = owner_and_dog(sqlite_db, operator, today)
    case = declared(sqlite_db, operator, town, dog.id, decided_at=local(2026, 11, 19, 9))
    text = " ".join(read_pdf(render(case, town))).replace("\n", " ")
    assert f"within {hours} hours of service" in text
    assert f"Deadline: {hours} hours after the time of service" in text
    assert f"counting the {hours} hours" in text  # (the ordinance quoted below keeps its 48)
