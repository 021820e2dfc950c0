"""History reads staff changes as before and after, and audited looks as words."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from accounts_support import enrol

from fieldops.services.context import Actor, audit_read
from fieldops.services.history import record_history
from fieldops.services.staff import set_staff

ADMIN = Actor("ada", "admin", "Ada Admin")
CHICAGO = ZoneInfo("America/Chicago")


def test_a_role_change_reads_old_and_new_role(db):
    enrol(db, ADMIN)  # roles are the database's: the administrator needs an account
    view = set_staff(db, ADMIN, "opal", "operator", full_name="Opal Operator")
    set_staff(db, ADMIN, "opal", "supervisor")
    with db.read() as s:
        from fieldops.db.models import StaffUser

        staff_id = s.query(StaffUser.id).filter_by(username=view.username).scalar()
    lines = record_history(db, "staff_user", staff_id, CHICAGO)
    changed = next(h for h in lines if h.action == "update")
    assert "role" in changed.sentence
    assert changed.sentence.index("operator") < changed.sentence.index("supervisor")
    assert "full_name" not in changed.sentence


def test_an_audited_look_reads_as_words(db):
    with db.write() as s:
        audit_read(s, Actor("opal"), "victim_contact", "bite_report", 3)
    (line,) = record_history(db, "bite_report", 3, CHICAGO)
    assert line.what == "Private details viewed"
    assert line.sentence == "Looked at the victim contact."
