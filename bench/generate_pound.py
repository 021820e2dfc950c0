"""The city's people, animals and impoundments (with dispositions and payments): bench.generate.

Every record with the audit events its service writes (``people.create_person``,
``animals.create_animal``, ``impounds.intake``, the dispositions and
``payments.record_payment``): the same actions and the same ``after`` keys, so
``fieldops check`` finds each record as its trail describes it.
"""

from __future__ import annotations

from array import array
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from bench.city import IN_CUSTODY_PER_MILLION as IN_CUSTODY
from bench.city import NOW, TODAY, City, iso, scaled, span_moment, ts

SPECIES_CODES = ("dog", "cat", "other")


#: The staff accounts ("bench", a supervisor, recorded the bulk; the benchmarks act as it).
STAFF = (
    ("bench", "Benchmark Clerk", "supervisor"),
    ("admin", "Systems Administrator", "admin"),
    ("lee", "Officer Lee", "officer"),
    ("ruiz", "Officer Ruiz", "officer"),
    ("kim", "Pat Kim", "supervisor"),
    ("front", "Front Desk", "operator"),
)


def staff(city: City) -> None:
    """The pound's staff accounts, each created as ``staff.set_staff`` audits it."""
    at = NOW - timedelta(days=3660)
    rows = []
    for i, (username, name, role) in enumerate(STAFF, start=1):
        rows.append(
            {
                "id": i,
                "username": username,
                "full_name": name,
                "role": role,
                "active": 1,
                "created_at": ts(at),
                "updated_at": ts(at),
                "version": 1,
            }
        )
        city.audit.add(
            at,
            "create",
            "staff_user",
            i,
            {
                "username": username,
                "role": role,
                "full_name": name,
                "active": True,
                "os_user": None,
            },
        )
    city.insert("staff_user", rows)


def people(city: City) -> None:
    """As many people as impoundments, each created (and audited) over the ten years."""
    from fieldops.db.search import phone_search_text
    from fieldops.demo import _person
    from fieldops.services.people import PersonInput, sort_name

    rng = city.rng("people")
    n = city.size
    names = tuple(PersonInput.__dataclass_fields__)

    def rows() -> Any:
        for i in range(n):
            p = _person(rng, i)
            at = span_moment(i, n, rng)
            yield {
                **{k: _bool(getattr(p, k)) for k in names},
                "id": i + 1,
                "sort_name": sort_name(p.full_name),
                "search_phone": phone_search_text(p.phone),
                "created_at": ts(at),
                "updated_at": ts(at),
                "version": 1,
            }
            city.audit.add(at, "create", "person", i + 1, {k: getattr(p, k) for k in names})

    city.insert("person", rows())
    city.made["people"] = n


def animals(city: City) -> None:
    """As many animals as impoundments; half have an owner, most are dogs and cats."""
    from fieldops.demo import CAT_BREEDS, CAT_NAMES, COLOURS, DOG_BREEDS, DOG_NAMES
    from fieldops.services.audit_records import ANIMAL_COLUMNS

    rng = city.rng("animals")
    n, people = city.size, city.made["people"]
    owners = array("i", bytes(4 * (n + 1)))  # 0: no owner
    species = bytearray(n + 1)

    def rows() -> Any:
        for i in range(1, n + 1):
            roll = rng.random()
            kind = 0 if roll < 0.6 else 1 if roll < 0.95 else 2
            dog = kind == 0
            owner = rng.randint(1, people) if rng.random() < 0.5 else None
            owners[i] = owner or 0
            species[i] = kind
            at = span_moment(i, n, rng)
            licensed = dog and owner is not None and rng.random() < 0.4
            row: dict[str, Any] = {
                "species": SPECIES_CODES[kind],
                "name": rng.choice(DOG_NAMES if dog else CAT_NAMES) if rng.random() < 0.85 else "",
                "breed": rng.choice(DOG_BREEDS if dog else CAT_BREEDS) if kind < 2 else "",
                "colour": rng.choice(COLOURS),
                "sex": rng.choice(("male", "female", "unknown")),
                "altered": rng.choice((True, False, None)),
                "birth_date": (at.date() - timedelta(days=rng.randint(60, 3000))).isoformat()
                if rng.random() < 0.5
                else None,
                "microchip": f"985{i:012d}" if rng.random() < 0.4 else None,
                "licence_number": f"D-{at.year}-{i:07d}" if licensed else None,
                "licence_year": at.year if licensed else None,
                "owner_id": owner,
            }
            city.audit.add(at, "create", "animal", i, {k: row[k] for k in ANIMAL_COLUMNS})
            yield {
                **{k: _bool(v) for k, v in row.items()},
                "id": i,
                "species_detail": "rabbit" if kind == 2 else "",
                "created_at": ts(at),
                "updated_at": ts(at),
                "version": 1,
            }

    city.insert("animal", rows())
    city.made.update(animals=n, animal_owner=owners, animal_species=species)


# Dispositions, weighted; a reclaim needs an owner (else the animal is adopted).
KINDS = (
    ("reclaimed", 38),
    ("adopted", 22),
    ("transferred", 18),
    ("euthanized", 12),
    ("died", 6),
    ("escaped", 4),
)
REASONS = (("at_large", 80), ("owner_surrender", 8), ("bite", 4), ("seizure", 4), ("other", 4))


def impoundments(city: City) -> None:
    """The pound's ten years: ~3,218 per million still in custody (the last days' intakes)."""
    from fieldops.rules.impound import ImpoundHold, impound_hold, preserve_until

    rng = city.rng("impoundments")
    n, people = city.size, city.made["people"]
    owners, species = city.made["animal_owner"], city.made["animal_species"]
    animals = city.made["animals"]
    in_custody = scaled(n, IN_CUSTODY)
    profile = city.profile
    holds: dict[tuple[date, bool], ImpoundHold] = {}
    kinds = [k for k, w in KINDS for _ in range(w)]
    reasons = [k for k, w in REASONS for _ in range(w)]
    disp_id = pay_id = 0
    for first in range(1, n + 1, 10_000):
        imps: list[dict[str, Any]] = []
        disps: list[dict[str, Any]] = []
        pays: list[dict[str, Any]] = []
        lines: list[dict[str, Any]] = []
        for i in range(first, min(first + 10_000, n + 1)):
            at = span_moment(i, n, rng)
            animal = rng.randint(1, animals)
            owner = owners[animal] or None
            reason = rng.choice(reasons)
            bit = reason == "bite" or rng.random() < 0.01
            surrendered = reason == "owner_surrender" and owner is not None
            if surrendered:
                hold = impound_hold(at, profile, bit_person=bit, surrendered=True)
            else:
                key = (_local_day(at, profile), bit)
                cached = holds.get(key)
                if cached is None:
                    cached = holds[key] = impound_hold(at, profile, bit_person=bit)
                hold = cached
            disposed = i <= n - in_custody
            after = {
                "animal_id": animal,
                "impounded_at": iso(at),
                "officer": rng.choice(("Off. Lee", "Off. Ruiz", "Off. Chen", "Off. Okafor")),
                "reason": "owner_surrender"
                if surrendered
                else "at_large"
                if reason == "owner_surrender"
                else reason,
                "reason_detail": "",
                "bit_person": bit,
                "owner_id": owner,
                "kennel": f"K-{i % 60 + 1}" if not disposed else f"K-{rng.randint(1, 60)}",
                "last_claim_day": hold.last_claim_day.isoformat(),
                "repeat_of_id": None,
                "found_place": f"{rng.randint(1, 4999)} Elm St" if reason == "at_large" else "",
                "found_at": None,
                "altered": None,
                "condition": "",
                "injuries": "",
            }
            imps.append(
                {
                    **{k: _bool(v) for k, v in after.items()},
                    "id": i,
                    "impounded_at": ts(at),
                    "custody_day": hold.custody_day.isoformat(),
                    "release_to_others_from": ts(hold.release_to_others_from),
                    "surrendered": int(surrendered),
                    "recorded_by": "bench",
                    "disposed": int(disposed),
                    "created_at": ts(at),
                    "updated_at": ts(at),
                    "version": 1,
                }
            )
            noted = at + timedelta(minutes=5)
            city.audit.add(noted, "intake", "impoundment", i, after)
            city.audit.add(
                noted, "impounded", "animal", animal, {"impoundment": i, "impounded_at": iso(at)}
            )
            if not disposed:
                continue
            kind = rng.choice(kinds)
            if kind == "reclaimed" and owner is None:
                kind = "adopted"
            out = at + timedelta(minutes=rng.randint(120, 60 * 24 * 12))
            if kind in ("adopted", "euthanized"):
                out = max(out, hold.release_to_others_from + timedelta(hours=rng.randint(1, 72)))
            out = min(out, NOW - timedelta(hours=1))
            recipient = owner if kind == "reclaimed" else None
            if kind == "adopted":
                recipient = rng.randint(1, people)
            disp_id += 1
            d: dict[str, Any] = {
                "id": disp_id,
                "impoundment_id": i,
                "kind": kind,
                "at": ts(out),
                "recipient_id": recipient,
                "to_owner": int(kind == "reclaimed"),
                "transfer_to": "Dane County Humane Society" if kind == "transferred" else "",
                "recorded_by": "bench",
                "recorded_at": ts(out),
            }
            event: dict[str, Any] = {
                "disposition": disp_id,
                "recipient_id": recipient,
                "at": iso(out),
                "to_owner": kind == "reclaimed",
            }
            if kind == "transferred":
                event["transfer_to"] = d["transfer_to"]
            if kind == "euthanized":
                keep = preserve_until(out, profile)
                d.update(
                    euthanasia_basis="hold_ended",
                    decided_by="Dr. Kim (veterinarian)",
                    preserve_until=keep.isoformat(),
                )
                event.update(
                    euthanasia_basis="hold_ended",
                    decided_by=d["decided_by"],
                    preserve_until=keep.isoformat(),
                )
            disps.append(d)
            city.audit.add(out, kind, "impoundment", i, event)
            if i % 50 == 7:  # a supervisor corrects the time: a newer row naming the first
                disp_id += 1
                fixed = min(out + timedelta(hours=1), NOW - timedelta(minutes=30))
                disps.append(
                    {
                        **d,
                        "id": disp_id,
                        "at": ts(fixed),
                        "corrects_id": disp_id - 1,
                        "correction_reason": "the time was entered wrong",
                    }
                )
                city.audit.add(
                    fixed,
                    "correct_disposition",
                    "impoundment",
                    i,
                    {"disposition": disp_id, "corrects": disp_id - 1, "at": iso(fixed)},
                    reason="the time was entered wrong",
                )
            if recipient is not None:
                pay_id += 1
                days = max(1, (out - at).days)
                fee = Decimal("40.00") if species[animal] == 0 else Decimal("25.00")
                charges = [("impound", fee), ("boarding", Decimal("15.00") * days)]
                if kind == "adopted":
                    charges.append(("adoption", Decimal("50.00")))
                paid = out - timedelta(minutes=5)
                method = rng.choice(("cash", "card", "card", "check"))
                receipt = f"R-{pay_id:07d}"
                pays.append(
                    {
                        "id": pay_id,
                        "impoundment_id": i,
                        "paid_at": ts(paid),
                        "payer_id": recipient,
                        "method": method,
                        "receipt_number": receipt,
                        "recorded_by": "bench",
                    }
                )
                lines.extend(
                    {"payment_id": pay_id, "kind": k, "amount": int(a * 100)} for k, a in charges
                )
                city.audit.add(
                    paid,
                    "payment",
                    "impoundment",
                    i,
                    {
                        "payment": pay_id,
                        "method": method,
                        "receipt_number": receipt,
                        "payer_id": recipient,
                        "paid_at": iso(paid),
                        "lines": [
                            {"kind": k, "amount": str(a), "description": ""} for k, a in charges
                        ],
                    },
                )
        city.insert("impoundment", imps)
        city.insert("disposition", disps)
        city.insert("payment", pays)
        city.insert("payment_line", lines)
    city.made.update(impoundments=n, in_custody=in_custody)


def _local_day(moment: datetime, profile: Any) -> date:
    return moment.astimezone(profile.timezone).date()


def _bool(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


__all__ = ["TODAY", "animals", "impoundments", "people", "staff"]
