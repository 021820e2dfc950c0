"""The permit module's windows for the mnemonic walk (tests/ui/test_mnemonics.py): the tab,
both forms, the record of each kind, every action form."""

from __future__ import annotations

from datetime import date


def permit_dialogs(ctx, sup, db, person, profile):
    from fieldops.services.permits.applying import (
        ChickenInput,
        FancierInput,
        apply_chicken,
        apply_fancier,
    )
    from fieldops.services.permits.issuing import issue_permit
    from fieldops.services.permits.views import AnimalLine
    from ui.permits import action_dialogs as a
    from ui.permits.chicken_dialog import ChickenPermitDialog
    from ui.permits.fancier_dialog import FancierPermitDialog
    from ui.permits.page import PermitsTab
    from ui.permits.record_dialog import PermitDialog

    chicken = apply_chicken(
        db,
        sup.actor,
        person.id,
        "1 Coop Ln",
        ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60),
        profile,
    )
    chicken = issue_permit(db, sup.actor, chicken.id, date(2026, 3, 3), profile)
    fancier = apply_fancier(
        db,
        sup.actor,
        person.id,
        "2 Loft Ln",
        FancierInput(date(2026, 3, 2), 2026, (AnimalLine("pigeons", 4),)),
        profile,
    )
    fancier = issue_permit(db, sup.actor, fancier.id, date(2026, 3, 3), profile)
    out = [
        ("permits tab", PermitsTab(ctx)),
        ("chicken permit (new)", ChickenPermitDialog(ctx)),
        ("chicken permit (renewal)", ChickenPermitDialog(ctx, chicken)),
        ("fancier permit (new)", FancierPermitDialog(ctx)),
        ("chicken permit record, supervisor", PermitDialog(sup, chicken)),
        ("fancier permit record, supervisor", PermitDialog(sup, fancier)),
        ("fancier renewal", a.FancierRenewDialog(ctx, fancier)),
    ]
    for cls in (
        a.IssueDialog,
        a.RevokeDialog,
        a.ChangeDialog,
        a.ListUpdateDialog,
        a.IncidentDialog,
        a.ReviewDialog,
        a.NoticeDialog,
        a.AppealDialog,
        a.DecisionDialog,
    ):
        out.append((f"permit {cls.__name__}", cls(sup, fancier)))
    out.append(("chicken permit incident", a.IncidentDialog(sup, chicken)))
    return out
