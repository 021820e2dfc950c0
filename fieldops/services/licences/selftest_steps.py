"""``fieldops --self-test``'s licence step: a dog licence issued for a vaccinated dog of
the self-test's person, read back from the database and its certificate printed."""

from __future__ import annotations

from fieldops.modules import SelfTestKit, SelfTestResult, SelfTestStep


def _licence(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.selftest_records import new_dog
    from fieldops.services.context import now
    from fieldops.services.licences.documents import certificate_pdf
    from fieldops.services.licences.issue import LicenceInput, issue_licence
    from fieldops.services.licences.views import get_licence

    dog = new_dog(kit, "Selftest Licensed")
    today = now().astimezone(kit.profile.timezone).date()
    made = issue_licence(
        kit.db,
        kit.actor,
        LicenceInput(dog.id, today.year, "T-SELFTEST", receipt_number="DL-SELFTEST"),
        kit.profile,
    )
    view = get_licence(kit.db, made.id)
    if view.tag_number != "T-SELFTEST" or view.animal_id != dog.id:
        raise AssertionError("the licence was issued but does not read back with its dog and tag")
    pdf = certificate_pdf(kit.db, view.id, kit.profile)
    return SelfTestResult(f"#{view.id}, {view.animal_name}: tag {view.tag_number}", pdf)


LICENCE_STEPS = (SelfTestStep("licence", _licence),)
