"""The city's field calls (issue 16): bench.generate.

500,000 calls per 1,000,000 impoundments over the ten years, each received and
audited as ``calls.records.create_call`` writes it, nearly all dispatched
(``dispatching.dispatch``) and closed with an outcome (``update_dispatch``): the
call row carries the copies of its last dispatch (status, officer, outcome,
follow-up) that ``fieldops check`` compares. A warned or cited call may carry a
follow-up day, and a later call is mostly its recheck (``open_recheck``); the
last days' calls are still waiting for an officer or an outcome (Today's call
lines). Noise and waste calls bring complaints (with the owner's notice, a few
petitions, accepted or refused); a cited call a citation priced from the
profile's ladder (the person's earlier citations for the section counted), paid
unless recent; and a few thousand caution flags per million stand on people and
addresses, some cleared. Migrations 0022/0023 (call parties, links, voids) are
not generated here.
"""

from __future__ import annotations

from collections import deque
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from bench.city import NOW, City, iso, scaled, span_moment, ts

CALLS_PER_MILLION = 500_000
#: The newest calls: waiting for an officer, and sent without an outcome yet.
OPEN_PER_MILLION = 120
DISPATCHED_PER_MILLION = 180
FLAGS_PER_MILLION = 2_000
OFFICERS = ("lee", "ruiz")  # the staff's field officers (bench.generate_pound.STAFF)
SUPERVISOR = "kim"
STREETS = (
    "Elm St",
    "Oak Ave",
    "Birch Ct",
    "Monroe St",
    "Park St",
    "Willow Ln",
    "Main St",
    "Regent St",
    "Sherman Ave",
    "Atwood Ave",
)
#: (kind, weight, priority weights emergency/urgent/routine)
KINDS = (
    ("at_large", 34, (1, 3, 6)),
    ("noise", 16, (0, 1, 9)),
    ("welfare", 10, (2, 4, 4)),
    ("bite", 5, (8, 2, 0)),
    ("vicious", 3, (7, 3, 0)),
    ("waste", 7, (0, 1, 9)),
    ("wild", 9, (2, 3, 5)),
    ("not_allowed", 4, (0, 2, 8)),
    ("dead", 7, (0, 3, 7)),
    ("other", 5, (0, 2, 8)),
)
WHAT = {
    "at_large": "Dog running loose in the street, no collar seen.",
    "bite": "A dog bit a neighbour through the fence.",
    "vicious": "Dog lunges at people walking past.",
    "noise": "Dog barking for hours every night.",
    "waste": "Dog waste piling up in the yard.",
    "wild": "Raccoon in a garage acting strangely in daylight.",
    "not_allowed": "Goats kept in a back yard in a residential district.",
    "welfare": "Dog left outside without water or shade.",
    "dead": "Dead deer on the road shoulder.",
    "other": "Caller asks what to do about a stray cat colony.",
}
OUTCOMES = (
    ("gone_on_arrival", 22),
    ("returned_to_owner", 14),
    ("impounded", 12),
    ("warned", 20),
    ("cited", 8),
    ("referred_cd", 3),
    ("no_violation", 21),
)
PLACES = ("Back yard", "Front sidewalk", "Alley behind the garage", "", "", "")


def _names(city: City) -> tuple[list[str], list[str], list[str]]:
    """Each person's name and address and each animal's name, by id (index 0 unused)."""
    if "person_names" not in city.made:
        raw = city.raw
        names, addresses = [""], [""]
        for name, address in raw.execute("SELECT full_name, address FROM person ORDER BY id"):
            names.append(name)
            addresses.append(address)
        animals = [""] + [n for (n,) in raw.execute("SELECT name FROM animal ORDER BY id")]
        city.made.update(person_names=names, person_addresses=addresses, animal_names=animals)
    return city.made["person_names"], city.made["person_addresses"], city.made["animal_names"]


def calls(city: City) -> None:
    """The calls with their dispatches, complaints, petitions and citations."""
    from fieldops.rules import calls as rules
    from fieldops.rules import penalty_for

    rng = city.rng("calls")
    total = scaled(city.size, CALLS_PER_MILLION)
    waiting = min(total, scaled(city.size, OPEN_PER_MILLION))
    sent_only = min(total - waiting, scaled(city.size, DISPATCHED_PER_MILLION))
    people, animals = city.made["people"], city.made["animals"]
    owners = city.made["animal_owner"]
    names, addresses, animal_names = _names(city)
    profile, audit = city.profile, city.audit
    tz = profile.timezone
    kinds = [(k, pw) for k, w, pw in KINDS for _ in range(w)]
    outcomes = [o for o, w in OUTCOMES for _ in range(w)]
    penalties: dict[tuple[str, int], Any] = {}
    cited: dict[tuple[int, str], int] = {}  # (person, section) -> citations so far
    cited_days: set[tuple[int, str, date]] = set()
    follow_ups: deque[tuple[int, date, dict[str, Any]]] = deque()  # waiting for a recheck
    calls_: list[dict[str, Any]] = []
    dispatches: list[dict[str, Any]] = []
    complaints: list[dict[str, Any]] = []
    petitions: list[dict[str, Any]] = []
    citations: list[dict[str, Any]] = []
    disp_id = complaint_id = petition_id = citation_id = 0
    recent = NOW - timedelta(days=45)
    for cid in range(1, total + 1):
        at = span_moment(cid, total, rng)
        if cid > total - waiting - sent_only:  # the last ones: today's and yesterday's
            at = NOW - timedelta(minutes=(total + 1 - cid) * 7 + rng.randint(0, 5))
        else:  # closed: cleared before the city's "now"
            at = min(at, NOW - timedelta(hours=4, minutes=cid % 60))
        recheck = None
        if follow_ups and follow_ups[0][1] <= at.date() and rng.random() < 0.9:
            recheck_of, _, old = follow_ups.popleft()
            recheck = old
        if recheck is not None:
            inp = {
                **recheck,
                "received_at": iso(at),
                "description": f"Recheck of call #{recheck_of}. {recheck['description']}".strip(),
                "recheck_of_id": recheck_of,
            }
            kind, priority = inp["kind"], inp["priority"]
        else:
            kind, pw = rng.choice(kinds)
            priority = rng.choices((1, 2, 3), pw)[0]
            anonymous = rng.random() < 0.1
            caller = None if anonymous or rng.random() < 0.3 else rng.randint(1, people)
            animal = rng.randint(1, animals) if kind in ("at_large", "bite", "vicious") else None
            if animal is not None and rng.random() < 0.6:
                animal = None
            owner = (owners[animal] or None) if animal else None
            if owner is None and kind not in ("wild", "dead") and rng.random() < 0.5:
                owner = rng.randint(1, people)
            address = (
                addresses[owner]
                if owner and addresses[owner]
                else f"{rng.randint(1, 4999)} {rng.choice(STREETS)}"
            )
            inp = {
                "received_at": iso(at),
                "received_how": rng.choice(("phone", "phone", "phone", "walk_in", "police")),
                "anonymous": anonymous,
                "caller_id": caller,
                "caller_name": "" if anonymous or caller else f"Caller {rng.randint(1, 9999)}",
                "caller_phone": ""
                if anonymous or caller
                else f"608-555-{rng.randint(0, 9999):04d}",
                "address": address,
                "place": rng.choice(PLACES),
                "kind": kind,
                "section": rules.kind_section(kind),
                "priority": priority,
                "description": WHAT[kind],
                "owner_id": owner,
                "owner_description": "",
                "animal_id": animal,
                "animal_description": "Brown mixed breed, medium"
                if kind == "at_large" and animal is None
                else "",
                "recheck_of_id": None,
            }
        owner, caller, animal = inp["owner_id"], inp["caller_id"], inp["animal_id"]
        text = [inp["address"], inp["caller_name"], inp["owner_description"]]
        text.append(inp["animal_description"])
        text += [names[p] for p in (caller, owner) if p]
        if animal and animal_names[animal]:
            text.append(animal_names[animal])
        noted = at + timedelta(minutes=2)
        audit.add(noted, "create_call", "field_call", cid, inp)
        row = {
            **inp,
            "id": cid,
            "received_at": ts(at),
            "anonymous": int(inp["anonymous"]),
            "address_key": rules.address_key(inp["address"]),
            "search_text": " ".join(x for x in text if x).lower()[:1000],
            "recorded_by": "bench",
            "created_at": ts(noted),
            "updated_at": ts(noted),
            "version": 1,
        }
        calls_.append(row)
        if cid > total - waiting:
            continue  # no officer sent yet
        disp_id += 1
        officer = rng.choice(OFFICERS)
        sent = at + timedelta(minutes=rng.randint(5, 90 if priority == 3 else 20))
        sent = max(at, min(sent, NOW - timedelta(minutes=1)))
        audit.add(
            sent,
            "dispatch",
            "call_dispatch",
            disp_id,
            {
                "call_id": cid,
                "officer": officer,
                "sent_at": iso(sent),
                "arrived_at": None,
                "cleared_at": None,
                "outcome": None,
                "follow_up_on": None,
                "impoundment_id": None,
                "notes": "",
            },
        )
        d = {
            "id": disp_id,
            "call_id": cid,
            "officer": officer,
            "sent_at": ts(sent),
            "recorded_by": "bench",
            "created_at": ts(sent),
            "updated_at": ts(sent),
            "version": 1,
        }
        dispatches.append(d)
        row.update(status="dispatched", officer=officer, updated_at=ts(sent), version=2)
        if cid > total - waiting - sent_only:
            continue  # sent, no outcome yet
        arrived = sent + timedelta(minutes=rng.randint(5, 40))
        cleared = arrived + timedelta(minutes=rng.randint(10, 80))
        outcome = rng.choice(outcomes)
        section = inp["section"]
        if outcome == "cited" and (not owner or not section):
            outcome = "warned"
        day = cleared.astimezone(tz).date()
        follow = None
        if outcome in ("warned", "cited") and rng.random() < 0.3:
            follow = day + timedelta(days=rng.choice((7, 10, 14)))
            follow_ups.append((cid, follow, {**inp, "recheck_of_id": None}))
        notes = "Spoke with the resident." if outcome == "warned" else ""
        was: dict[str, Any] = {"arrived_at": None, "cleared_at": None, "outcome": None}
        became: dict[str, Any] = {
            "call_id": cid,
            "arrived_at": iso(arrived),
            "cleared_at": iso(cleared),
            "outcome": outcome,
        }
        if follow is not None:
            was["follow_up_on"], became["follow_up_on"] = None, follow.isoformat()
        if notes:
            was["notes"], became["notes"] = "", notes
        audit.add(cleared, "update_dispatch", "call_dispatch", disp_id, became, was)
        d.update(
            arrived_at=ts(arrived),
            cleared_at=ts(cleared),
            outcome=outcome,
            follow_up_on=follow.isoformat() if follow else None,
            notes=notes,
            updated_at=ts(cleared),
            version=2,
        )
        row.update(
            status="closed",
            outcome=outcome,
            follow_up_on=d["follow_up_on"],
            updated_at=ts(cleared),
            version=3,
        )
        if kind in ("noise", "waste") and owner and rng.random() < 0.25:
            complaint_id += 1
            logged = cleared + timedelta(minutes=10)
            notified = logged + timedelta(days=rng.randint(1, 5))
            complainant = names[caller] if caller else f"Neighbour {rng.randint(1, 999)}"
            alleged = (
                "Habitual barking at night (58-531)."
                if kind == "noise"
                else "Waste not removed from the yard (58-529)."
            )
            audit.add(
                logged,
                "log_complaint",
                "call_complaint",
                complaint_id,
                {
                    "call_id": cid,
                    "complainant": complainant,
                    "complainant_adult": True,
                    "alleged": alleged,
                    "logged_at": iso(logged),
                },
            )
            how = rng.choice(("mail", "mail", "in_person", "posted"))
            audit.add(
                notified,
                "notify_owner",
                "call_complaint",
                complaint_id,
                {"call_id": cid, "notified_how": how, "notified_at": iso(notified)},
                {"notified_how": None, "notified_at": None},
            )
            complaints.append(
                {
                    "id": complaint_id,
                    "call_id": cid,
                    "complainant": complainant,
                    "complainant_adult": 1,
                    "alleged": alleged,
                    "logged_at": ts(logged),
                    "notified_how": how,
                    "notified_at": ts(notified),
                    "notified_by": "bench",
                    "recorded_by": "bench",
                    "created_at": ts(logged),
                    "updated_at": ts(notified),
                    "version": 2,
                }
            )
            if rng.random() < 0.15 and notified + timedelta(days=20) < NOW:
                petition_id += 1
                received = notified.astimezone(tz).date() + timedelta(days=rng.randint(5, 15))
                complete = rng.random() < 0.7
                parts = {
                    "complaint_id": complaint_id,
                    "received_on": received.isoformat(),
                    "petitioners": f"{complainant}, 608-555-0101, {inp['address']}",
                    "animal": f"Dog; owner {names[owner]}, {addresses[owner]}",
                    "violations": "Continued on several nights after the notice.",
                    "reported_on": "Reported by phone on the nights in question"
                    if complete
                    else "",
                    "will_testify": complete,
                    "status": "accepted" if complete else "refused",
                    "missing": [] if complete else ["reported_on", "will_testify"],
                    "referred_to": "police" if complete else None,
                    "referred_on": (received + timedelta(days=1)).isoformat() if complete else None,
                }
                moment = datetime.combine(received, datetime.min.time(), tz) + timedelta(hours=15)
                audit.add(
                    moment,
                    "accept_petition" if complete else "refuse_petition",
                    "call_petition",
                    petition_id,
                    {"call_id": cid, **parts},
                )
                petitions.append(
                    {
                        **parts,
                        "id": petition_id,
                        "call_id": cid,
                        "will_testify": int(complete),
                        "missing": _json(parts["missing"]),
                        "recorded_at": ts(moment),
                        "recorded_by": "bench",
                    }
                )
        if outcome == "cited":
            offence = at.astimezone(tz).date()
            if (owner, section, offence) in cited_days:
                continue
            cited_days.add((owner, section, offence))
            n = cited[(owner, section)] = cited.get((owner, section), 0) + 1
            p = penalties.get((section, n)) or penalties.setdefault(
                (section, n), penalty_for(section, n, profile)
            )
            citation_id += 1
            court = offence + timedelta(days=30)
            forfeiture = None if p.forfeiture is None else str(p.forfeiture)
            issued = cleared + timedelta(minutes=5)
            audit.add(
                issued,
                "cite",
                "call_citation",
                citation_id,
                {
                    "call_id": cid,
                    "person_id": owner,
                    "section": section,
                    "offence_on": offence.isoformat(),
                    "offence_number": p.offence_number,
                    "forfeiture": forfeiture,
                    "warning": p.warning,
                    "address": inp["address"],
                    "court_on": court.isoformat(),
                    "issued_by": officer,
                },
            )
            c = {
                "id": citation_id,
                "call_id": cid,
                "person_id": owner,
                "section": section,
                "offence_on": offence.isoformat(),
                "offence_number": p.offence_number,
                "forfeiture": None if p.forfeiture is None else _cents(p.forfeiture),
                "warning": int(p.warning),
                "plus_court_costs": int(p.plus_court_costs),
                "penalty_why": p.why,
                "address": inp["address"],
                "address_key": row["address_key"],
                "description": "",
                "court_on": court.isoformat(),
                "paid_on": None,
                "issued_by": officer,
                "issued_at": ts(issued),
                "recorded_by": "bench",
                "created_at": ts(issued),
                "updated_at": ts(issued),
                "version": 1,
            }
            citations.append(c)
            if forfeiture is not None and (cleared < recent or rng.random() < 0.6):
                paid = min(offence + timedelta(days=rng.randint(3, 28)), NOW.date())
                paid_at = datetime.combine(paid, datetime.min.time(), tz) + timedelta(hours=14)
                paid_at = min(paid_at, NOW - timedelta(minutes=10))
                audit.add(
                    paid_at,
                    "update_citation",
                    "call_citation",
                    citation_id,
                    {"paid_on": paid.isoformat()},
                    {"paid_on": None},
                )
                c.update(paid_on=paid.isoformat(), updated_at=ts(paid_at), version=2)
        if len(calls_) >= 20_000:
            _flush(city, calls_, dispatches, complaints, petitions, citations)
    _flush(city, calls_, dispatches, complaints, petitions, citations)
    city.made.update(calls=total)
    caution_flags(city)


def _flush(city: City, *parts: list[dict[str, Any]]) -> None:
    for table, rows in zip(
        ("field_call", "call_dispatch", "call_complaint", "call_petition", "call_citation"),
        parts,
        strict=True,
    ):
        city.insert(table, rows)
        rows.clear()


def caution_flags(city: City) -> None:
    """Cautions on people and addresses, set by a supervisor; one in ten cleared since."""
    from fieldops.rules import calls as rules

    rng = city.rng("caution_flags")
    _, addresses, _ = _names(city)
    people = city.made["people"]
    rows = []
    reasons = (
        "Threatened an officer at the door; go in pairs.",
        "Large dog that has attacked a meter reader; loose in the yard.",
        "Resident keeps a loaded firearm by the door.",
    )
    total = scaled(city.size, FLAGS_PER_MILLION)
    for i in range(1, total + 1):
        at = span_moment(i, total, rng)
        person = rng.randint(1, people) if i % 2 else None
        address = "" if person else (addresses[rng.randint(1, people)] or "7 Birch Ct")
        reason = rng.choice(reasons)
        city.audit.add(
            at,
            "set_caution",
            "caution_flag",
            i,
            {
                "person_id": person,
                "address": address,
                "reason": reason,
                "set_at": iso(at),
                "set_by": SUPERVISOR,
            },
            reason=reason,
        )
        row = {
            "id": i,
            "person_id": person,
            "address": address,
            "address_key": rules.address_key(address),
            "reason": reason,
            "set_at": ts(at),
            "set_by": SUPERVISOR,
            "cleared_at": None,
            "cleared_by": "",
            "clear_reason": "",
            "created_at": ts(at),
            "updated_at": ts(at),
            "version": 1,
        }
        if i % 10 == 3:
            cleared = min(at + timedelta(days=rng.randint(30, 400)), NOW - timedelta(hours=1))
            why = "The dog has moved away."
            city.audit.add(
                cleared,
                "clear_caution",
                "caution_flag",
                i,
                {"cleared_at": iso(cleared), "cleared_by": SUPERVISOR},
                {"cleared_at": None},
                reason=why,
            )
            row.update(
                cleared_at=ts(cleared),
                cleared_by=SUPERVISOR,
                clear_reason=why,
                updated_at=ts(cleared),
                version=2,
            )
        rows.append(row)
    city.insert("caution_flag", rows)
    city.made["caution_flags"] = total


def _cents(value: Decimal) -> int:
    return int(value * 100)


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


__all__ = ["calls", "caution_flags"]
