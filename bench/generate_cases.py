"""The city's bite reports with their quarantines, and its vicious-animal cases: bench.generate.

At 1,000,000 impoundments: 210,000 bite reports, 200,000 of them dogs and cats
quarantined (the others referred), each quarantine planned by the real rules
(``fieldops.rules.quarantine.quarantine_plan``), with its exams and events
(delivered to a clinic, the certificate, the release, a few deaths and
escapes); those of the last ten days still open. 20,000 vicious-animal cases,
most of them long closed (removed, destroyed, withdrawn, overturned or refused),
the last few still declared, served or not complied with. Each record carries
the audit events its service writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from bench.city import NOW, TODAY, City, iso, scaled, span_moment, ts

BITES_PER_MILLION = 210_000
QUARANTINES_PER_MILLION = 200_000
VICIOUS_PER_MILLION = 20_000
#: Bite reports held before they (and their quarantines, exams and events) are written.
CHUNK = 20_000
HEALTH_OFFICER = "Public Health Madison & Dane County"
CLINICS = ("Eastside Veterinary Clinic", "Lakeview Animal Hospital")
BITE_COLUMNS = (
    "bitten_at",
    "place",
    "victim_name",
    "species",
    "animal_id",
    "owner_id",
    "impoundment_id",
    "reported_by",
    "reported_at",
    "rabies_certificate",
    "rabies_vaccinated_on",
    "rabies_expires_on",
    "rabies_proof",
    "officer",
    "referral",
)


def _names(city: City, table: str, column: str, ids: list[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        out.update(
            city.raw.execute(f"SELECT id, {column} FROM {table} WHERE id IN ({marks})", chunk)
        )
    return out


def bites_and_quarantines(city: City) -> None:
    from fieldops.rules.quarantine import quarantine_plan

    rng = city.rng("bites")
    total = scaled(city.size, BITES_PER_MILLION)
    target = scaled(city.size, QUARANTINES_PER_MILLION)
    species, owners = city.made["animal_species"], city.made["animal_owner"]
    animals = city.made["animals"]
    t0 = NOW - timedelta(days=3650)
    city.insert(
        "clinic",
        (
            {
                "id": k + 1,
                "name": name,
                "address": "100 Clinic Way, Madison",
                "licensed": 1,
                "created_at": ts(t0),
                "updated_at": ts(t0),
                "version": 1,
            }
            for k, name in enumerate(CLINICS)
        ),
    )
    chosen: list[tuple[int, int | None]] = []
    for j in range(1, total + 1):
        quarantined = j * target // total != (j - 1) * target // total
        while True:
            a = rng.randint(1, animals)
            if (species[a] < 2) == quarantined:
                break
        chosen.append((a, owners[a] or None))
    animal_names = _names(city, "animal", "name", sorted({a for a, _ in chosen}))
    owner_names = _names(city, "person", "full_name", sorted({o for _, o in chosen if o}))
    bites: list[dict[str, Any]] = []
    quarantines: list[dict[str, Any]] = []
    exams: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    q_id = 0
    parts: tuple[tuple[str, list[dict[str, Any]]], ...] = (
        ("bite_report", bites),
        ("quarantine", quarantines),
        ("quarantine_exam", exams),
        ("quarantine_event", events),
    )
    for j, (animal, owner) in enumerate(chosen, start=1):
        if len(bites) >= CHUNK:  # written as they go, each table in its order: less memory
            for table, rows in parts:
                city.insert(table, rows)
                rows.clear()
        bitten = span_moment(j, total, rng) - timedelta(days=1)
        reported = bitten + timedelta(hours=1)
        kind = ("dog", "cat", "other")[species[animal]]
        quarantined = kind != "other"
        proof = owner is not None and rng.random() < 0.6
        vaccinated = bitten.date() - timedelta(days=rng.randint(30, 700))
        bite = {
            "id": j,
            "bitten_at": ts(bitten),
            "place": f"{rng.randint(1, 4999)} Oak Ave",
            "victim_name": f"Victim {j}",
            "species": kind,
            "animal_id": animal,
            "owner_id": owner,
            "owner_unknown": int(owner is None),
            "impoundment_id": None,
            "reported_by": "Dr. Patel, St. Mary's ER",
            "reported_at": ts(reported),
            "rabies_certificate": f"RV-{j:07d}" if proof else "",
            "rabies_vaccinated_on": vaccinated.isoformat() if proof else None,
            "rabies_expires_on": (vaccinated + timedelta(days=1095)).isoformat() if proof else None,
            "rabies_proof": int(proof),
            "officer": "Off. Lee",
            "referral": int(not quarantined),
            "recorded_at": ts(reported),
            "recorded_by": "bench",
        }
        bites.append(bite)
        city.audit.add(
            reported,
            "bite_report",
            "bite_report",
            j,
            {
                k: (iso(bitten) if k == "bitten_at" else iso(reported) if k == "reported_at" else v)
                for k in BITE_COLUMNS
                for v in (bool(bite[k]) if k in ("rabies_proof", "referral") else bite[k],)
            },
        )
        if not quarantined:  # neither dog nor cat: referred to the health officer
            sent = reported + timedelta(hours=3)
            events.append(
                {
                    "bite_report_id": j,
                    "kind": "referral_sent",
                    "at": ts(sent),
                    "who": HEALTH_OFFICER,
                    "recorded_at": ts(sent),
                    "recorded_by": "bench",
                }
            )
            city.audit.add(
                sent, "bite_referral", "bite_report", j, {"at": iso(sent), "who": HEALTH_OFFICER}
            )
            continue
        q_id += 1
        ordered = reported + timedelta(hours=2)
        plan = quarantine_plan(
            bitten, ordered, city.profile, owner_known=owner is not None, rabies_proof=proof
        )
        clinic = 1 + q_id % 2 if plan.placement == "clinic" else None
        city.audit.add(
            ordered,
            "quarantine_order",
            "quarantine",
            q_id,
            {
                "bite_report_id": j,
                "placement": plan.placement,
                "clinic_id": clinic,
                "ordered_at": iso(ordered),
                "deliver_by": iso(plan.deliver_by) if plan.deliver_by else None,
                "first_exam_day": plan.first_exam_day.isoformat(),
                "last_day": plan.last_day.isoformat(),
            },
        )
        q: dict[str, Any] = {
            "id": q_id,
            "bite_report_id": j,
            "animal_id": animal,
            "ordered_at": ts(ordered),
            "ordered_placement": plan.placement,
            "ordered_clinic_id": clinic,
            "status": "open",
            "placement": plan.placement,
            "clinic_id": clinic,
            "deliver_by": ts(plan.deliver_by) if plan.deliver_by else None,
            "first_exam_day": plan.first_exam_day.isoformat(),
            "last_day": plan.last_day.isoformat(),
            "certificate_due": plan.certificate_due.isoformat(),
            "animal_name": animal_names.get(animal, "") or f"unnamed {kind}",
            "owner_name": owner_names.get(owner, "") if owner else "",
            "recorded_by": "bench",
            "created_at": ts(ordered),
            "updated_at": ts(ordered),
            "version": 1,
        }

        case = _Quarantine(city, j, q_id, clinic, events, exams)
        event, exam = case.event, case.exam
        if clinic:
            delivered = ordered + timedelta(hours=rng.randint(1, 20))
            if delivered < NOW:
                event(
                    "delivered",
                    delivered,
                    "quarantine_delivered",
                    who=CLINICS[clinic - 1],
                    clinic_id=clinic,
                )
                q["delivered_at"] = ts(delivered)
        if plan.first_exam_day < TODAY:
            exam(plan.first_exam_day, "first")
        if plan.last_day >= TODAY:  # still being observed
            q["next_exam_due"] = q["next_exam_by"] = plan.last_day.isoformat()
            quarantines.append(q)
            continue
        roll = rng.random()
        end = datetime.combine(plan.last_day + timedelta(days=1), time(10), city.profile.timezone)
        if roll < 0.02:
            died = datetime.combine(
                plan.last_day - timedelta(days=2), time(9), city.profile.timezone
            )
            event("died", died, "quarantine_died", notes="found dead in the kennel")
            event(
                "specimen_sent",
                died + timedelta(hours=3),
                "quarantine_specimen",
                who="State Laboratory of Hygiene",
            )
            q.update(status="died", closed_at=ts(died))
        elif roll < 0.03:
            gone = datetime.combine(
                plan.last_day - timedelta(days=3), time(9), city.profile.timezone
            )
            event("escaped", gone, "quarantine_escaped", citation=f"C-{j:07d}")
            q.update(status="escaped", closed_at=ts(gone))
        else:
            exam(plan.last_day, "last")
            # The certificate of quarantine comes back, from home or clinic.
            got = plan.last_day + timedelta(days=1)
            event(
                "certificate_received",
                end - timedelta(hours=1),
                "quarantine_certificate",
                received_on=got,
            )
            q["certificate_received_on"] = got.isoformat()
            event("released", end, "quarantine_released", who="Dr. Kim")
            q.update(status="certified", closed_at=ts(end))
        quarantines.append(q)
    for table, rows in parts:
        city.insert(table, rows)
    city.made.update(bites=total, quarantines=q_id)


@dataclass
class _Quarantine:
    """One quarantine's exams and events, each with its audit event."""

    city: City
    bite_id: int
    id: int
    clinic: int | None
    events: list[dict[str, Any]]
    exams: list[dict[str, Any]]

    def event(self, kind: str, at: datetime, action: str, **extra: Any) -> None:
        values = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in extra.items()}
        self.events.append(
            {
                "bite_report_id": self.bite_id,
                "kind": kind,
                "at": ts(at),
                "recorded_at": ts(at),
                "recorded_by": "bench",
                **values,
            }
        )
        self.city.audit.add(at, action, "quarantine", self.id, {"at": iso(at), **values})

    def exam(self, day: date, slot: str) -> None:
        at = datetime.combine(day, time(15), self.city.profile.timezone)
        fee = Decimal("25.00") if self.clinic else Decimal("35.00")
        self.exams.append(
            {
                "quarantine_id": self.id,
                "examined_on": day.isoformat(),
                "veterinarian": "Dr. Kim",
                "clinic_id": self.clinic,
                "finding": "no_signs",
                "fee": int(fee * 100),
                "slot": slot,
                "recorded_at": ts(at),
                "recorded_by": "bench",
            }
        )
        self.city.audit.add(
            at,
            "quarantine_exam",
            "quarantine",
            self.id,
            {
                "examined_on": day.isoformat(),
                "veterinarian": "Dr. Kim",
                "finding": "no_signs",
                "fee": str(fee),
                "counts_as": slot,
            },
        )


CLOSED = (
    ("removed", 30),
    ("destroyed", 25),
    ("refused", 15),
    ("withdrawn", 15),
    ("overturned", 5),
)
OPEN = ("declared", "served", "served", "not_complied")


def vicious_cases(city: City) -> None:
    from fieldops.rules.vicious import EXCEPTIONS

    rng = city.rng("vicious")
    total = scaled(city.size, VICIOUS_PER_MILLION)
    owners = city.made["animal_owner"]
    animals = city.made["animals"]
    closed = [k for k, w in CLOSED for _ in range(w)]
    picks = []
    for _ in range(total):
        while not owners[a := rng.randint(1, animals)]:
            pass
        picks.append((a, owners[a]))
    animal_names = _names(city, "animal", "name", sorted({a for a, _ in picks}))
    people = {
        i: (n, addr)
        for i, n, addr in _rows(city, "person", "full_name, address", sorted({o for _, o in picks}))
    }
    rows: dict[str, list[dict[str, Any]]] = {
        t: []
        for t in (
            "vicious_case",
            "vicious_declaration",
            "vicious_incident",
            "vicious_notice",
            "vicious_outcome",
            "vicious_step",
            "vicious_ending",
        )
    }
    recent = total - max(1, total * 3 // 100)
    findings = json.dumps({k: {"applies": False, "why": ""} for k in EXCEPTIONS})
    for c, (animal, owner) in enumerate(picks, start=1):
        opened = span_moment(c, total, rng) - timedelta(days=20)
        status = rng.choice(OPEN) if c > recent else rng.choice(closed)
        name, address = people[owner]
        allowed = status != "refused"
        case: dict[str, Any] = {
            "id": c,
            "animal_id": animal,
            "owner_id": owner,
            "status": status,
            "opened_at": ts(opened),
            "search_text": " ".join((animal_names.get(animal, ""), name, address)).lower()[:800],
            "created_at": ts(opened),
            "updated_at": ts(opened),
            "version": 1,
        }
        rows["vicious_case"].append(case)
        rows["vicious_declaration"].append(
            {
                "case_id": c,
                "decided_at": ts(opened),
                "officer": "Off. Ruiz",
                "allowed": int(allowed),
                "grounds": json.dumps(["bit_or_clawed"]),
                "findings": findings,
                "refusal_reasons": json.dumps([] if allowed else ["an exception applies"]),
                "owner_address": address,
                "recorded_by": "bench",
                "recorded_at": ts(opened),
            }
        )
        rows["vicious_incident"].append(
            {
                "case_id": c,
                "occurred_at": ts(opened - timedelta(days=2)),
                "place": address,
                "what": "bit a neighbour",
            }
        )
        city.audit.add(
            opened,
            "declare" if allowed else "refuse_declaration",
            "vicious_case",
            c,
            {
                "animal_id": animal,
                "owner_id": owner,
                "decided_at": iso(opened),
                "officer": "Off. Ruiz",
                "grounds": ["bit_or_clawed"],
                "exceptions_found": [],
                "incidents": 1,
                "linked": [],
            },
            reason="" if allowed else "an exception applies",
        )
        if not allowed:
            continue
        city.audit.add(opened, "declared_vicious", "animal", animal, {"vicious_case": c})
        if status == "declared":
            continue
        served = opened + timedelta(days=1)
        deadline = served + timedelta(days=14)
        rows["vicious_notice"].append(
            {
                "case_id": c,
                "method": "in_person",
                "served_at": ts(served),
                "served_by": "Off. Ruiz",
                "place": address,
                "deadline": ts(deadline),
                "recorded_by": "bench",
                "recorded_at": ts(served),
            }
        )
        case["notice_deadline"] = ts(deadline)
        after: dict[str, Any] = {
            "status": "served",
            "notice_deadline": iso(deadline),
            "next_step_due": None,
        }
        city.audit.add(served, "status", "vicious_case", c, after, before={"status": "declared"})
        if status == "served":
            continue
        at = (
            deadline - timedelta(days=1)
            if status in ("removed", "destroyed")
            else deadline + timedelta(days=1)
        )
        if status in ("removed", "destroyed", "not_complied"):
            rows["vicious_outcome"].append(
                {
                    "case_id": c,
                    "kind": status,
                    "at": ts(at),
                    "removed_to": "Janesville" if status == "removed" else "",
                    "by_whom": "Dr. Kim" if status == "destroyed" else "",
                    "recorded_by": "bench",
                    "recorded_at": ts(at),
                }
            )
        step_due = None
        if status == "not_complied":
            step_due = (at + timedelta(days=30)).date()
            rows["vicious_step"].append(
                {
                    "case_id": c,
                    "kind": "court_action",
                    "due_on": step_due.isoformat(),
                    "recorded_by": "bench",
                    "recorded_at": ts(at),
                }
            )
            case["next_step_due"] = step_due.isoformat()
        if status in ("withdrawn", "overturned"):
            rows["vicious_ending"].append(
                {
                    "case_id": c,
                    "kind": status,
                    "decided_on": at.date().isoformat(),
                    "authority": "Municipal Court",
                    "reason": "the owner appealed",
                    "recorded_by": "bench",
                    "recorded_at": ts(at),
                }
            )
        city.audit.add(
            at,
            "status",
            "vicious_case",
            c,
            {
                "status": status,
                "notice_deadline": iso(deadline),
                "next_step_due": step_due.isoformat() if step_due else None,
            },
            before={"status": "served"},
        )
    for table, batch in rows.items():
        city.insert(table, batch)
    city.made["vicious_cases"] = total


def _rows(city: City, table: str, columns: str, ids: list[int]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        out += city.raw.execute(f"SELECT id, {columns} FROM {table} WHERE id IN ({marks})", chunk)
    return out


__all__ = ["bites_and_quarantines", "vicious_cases"]
