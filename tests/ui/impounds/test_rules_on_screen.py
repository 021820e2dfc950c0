"""The record reads ordinance facts from its view, not from words or its own arithmetic."""

from __future__ import annotations

from support import local

from fieldops.services import impound_views
from ui.impounds import opening


def _open(ctx, host, wait_dialog, wait_idle, impoundment_id):
    opening.open_impoundment(ctx, impoundment_id, host)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    return record


def test_the_status_chip_follows_the_status_code_not_its_words(
    ctx, host, pound, wait_dialog, wait_idle, monkeypatch
):
    monkeypatch.setitem(impound_views.IN_CUSTODY_STATUS, "adoptable", "Ready for a new home")
    past = pound.impound(pound.animal("Penny", species="cat"), local(2026, 11, 12, 9, 30))
    record = _open(ctx, host, wait_dialog, wait_idle, past.id)
    assert record.status_chip.text() == "Ready for a new home"
    assert record.status_chip.property("kind") == "adoptable"
    record.close()


def test_the_hold_length_is_the_views(ctx, host, pound, wait_dialog, wait_idle):
    view = pound.impound(
        pound.animal("Ace"), local(2026, 11, 20, 9), reason="bite", bit_person=True
    )
    surrender = pound.impound(
        pound.animal("Gus", owner=pound.ana),
        local(2026, 11, 26, 9),
        reason="owner_surrender",
        owner_id=pound.ana.id,
    )
    assert (view.hold_days, view.no_claim_period) == (pound.profile.bite_hold_days, False)
    assert (surrender.hold_days, surrender.no_claim_period) == (0, True)
    record = _open(ctx, host, wait_dialog, wait_idle, view.id)
    assert record.summary.hold.pairs.value("Hold length") == (
        f"{pound.profile.bite_hold_days} days, because the animal bit a person"
    )
    record.close()
    record = _open(ctx, host, wait_dialog, wait_idle, surrender.id)
    assert record.summary.hold.pairs.value("Hold length") == (
        "None: the owner surrendered the animal in writing"
    )
    assert record.summary.hold.pairs.value("Owner may claim until").endswith(
        "(no claim period: surrendered)"
    )
    record.close()
