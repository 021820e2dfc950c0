"""The licence module's history sentences: its audit actions in words (contributed to
every record's history through ``Module.event_kinds``)."""

from __future__ import annotations

from fieldops.services.history import Event, EventKind, Names, _clause, money


def _issued(e: Event, names: Names) -> str:
    a = e.after
    what = "Renewed" if e.action == "licence_renew" else "Licensed"
    place = (
        f" at the pound (impoundment #{a['impoundment_id']})"
        if a.get("issued_place") == "pound" and a.get("impoundment_id")
        else " at the counter"
    )
    fee = money(a.get("rate"))
    if a.get("half_rate"):
        fee = f"half the rate of {fee}"
    text = (
        f"{what} {names.animal(a.get('animal_id'))} for {a.get('licence_year')}{place}: "
        f"tag {a.get('tag_number')}, owner {names.person(a.get('owner_id'))}; {fee}"
    )
    if a.get("late"):
        text += f" plus the late fee of {money(a.get('late_fee'))} (due by {names.day(a.get('due_by'))})"
    text += f"; paid {money(a.get('paid_amount'))} ({a.get('payment_method')}), receipt {a.get('receipt_number')}"
    return _clause(text)


def _replacement(e: Event, names: Names) -> str:
    a = e.after
    return _clause(
        f"Replacement tag {a.get('tag_number')} issued for {a.get('licence_year')} "
        f"(licence #{a.get('previous_id')}'s tag lost); paid {money(a.get('paid_amount'))}"
    )


def _transfer(e: Event, names: Names) -> str:
    a = e.after
    return _clause(
        f"Licence for {a.get('licence_year')} (tag {a.get('tag_number')}) transferred from "
        f"licence #{a.get('previous_id')} to the new owner, {names.person(a.get('owner_id'))}"
    )


def _ended(e: Event, names: Names) -> str:
    a = e.after
    if e.action == "licence_replaced":
        return _clause(
            f"Tag reported lost; replaced by tag {a.get('tag_number')} (licence #{a.get('replaced_by')})"
        )
    return _clause(
        f"Transferred to {names.person(a.get('owner_id'))} (licence #{a.get('transferred_to')})"
    )


def _void(e: Event, _names: Names) -> str:
    return _clause(f"Licence voided: {e.reason or 'no reason given'}")


def _exported(e: Event, _names: Names) -> str:
    a = e.after
    what = "non-compliance list" if a.get("late_only") else "renewal list"
    if a.get("format") == "pdf":
        what = "renewal reminder letters" + (
            " (dogs past the late-fee day)" if a.get("late_only") else ""
        )
    return _clause(
        f"Wrote the {what} for {a.get('year')}: {a.get('dogs')} dog(s), file {a.get('file')}"
    )


EVENT_KINDS: dict[str, EventKind] = {
    "licence_issue": EventKind("Licence issued", _issued),
    "licence_renew": EventKind("Licence renewed", _issued),
    "licence_replacement": EventKind("Replacement tag", _replacement),
    "licence_transfer": EventKind("Licence transferred in", _transfer),
    "licence_replaced": EventKind("Tag replaced", _ended),
    "licence_transferred": EventKind("Licence transferred", _ended),
    "licence_void": EventKind("Licence voided", _void),
    "renewals_exported": EventKind("Renewals written", _exported),
}
