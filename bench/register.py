"""The rows of a 37-day register of 10,000 impoundments, gathered through the provider.

Baseline: one raw sqlite3 query over the same rows and columns (impoundment,
animal, the disposition in force and its recipient, the fees paid), measured
in the same run on the same file. The provider's statement count does not
grow with the period; what it adds on top of the raw query is the frozen rows
(and each animal's age on its custody day). Built one impoundment at a time
through the record views, the same rows took about 18 s for 10,361 (TOOLCHAIN.md).

The database is bulk-inserted (30,000 impoundments: the period's 10,000 and
10,000 either side), with dispositions, corrections, releases and payments.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import insert

from bench.common import Result, median_time
from fieldops.db.engine import Database
from fieldops.db.migrate import upgrade
from fieldops.services.context import Actor

CHICAGO = ZoneInfo("America/Chicago")
PEOPLE = 5_000
PER_PERIOD = 10_000
PERIOD = (date(2026, 3, 1), date(2026, 4, 6))  # 37 days
# The frozen rows (10,000 descriptions with their ages, dispositions, fees) cost
# about twice the query itself: 3-5x measured on a shared two-core machine. Read
# one impoundment at a time, as before, the same rows were over 100x.
LIMIT = 6
KINDS = ("reclaimed", "adopted", "transferred", "euthanized", "died", "escaped")

RAW = """
SELECT i.id, i.impounded_at, i.custody_day, i.altered, a.id, a.name, a.species,
       a.species_detail, a.breed, a.colour, a.sex, a.altered, a.birth_date, a.markings,
       a.microchip, a.licence_number, a.licence_year, d.kind, d.at, d.transfer_to, p.id,
       p.full_name, p.address, p.city, p.state, p.postal_code, p.phone,
       (SELECT sum(l.amount) FROM payment pay JOIN payment_line l ON l.payment_id = pay.id
         WHERE pay.impoundment_id = i.id)
FROM impoundment i JOIN animal a ON a.id = i.animal_id
LEFT JOIN disposition d
  ON d.id = (SELECT max(x.id) FROM disposition x WHERE x.impoundment_id = i.id)
LEFT JOIN person p ON p.id = d.recipient_id
WHERE i.custody_day >= ? AND i.custody_day <= ?
ORDER BY i.impounded_at, i.id
"""


def _custody_days() -> list[date]:
    """10,000 impoundments in the period and 10,000 in each of the 37 days before and after."""
    start, end = PERIOD
    span = (end - start).days + 1
    days = []
    for first in (start - timedelta(days=span), start, end + timedelta(days=1)):
        days += [first + timedelta(days=n * span // PER_PERIOD) for n in range(PER_PERIOD)]
    return days


def _fill(db: Database, rng: random.Random) -> None:
    from fieldops.db.models import (
        Animal,
        Disposition,
        Impoundment,
        Payment,
        PaymentLine,
    )

    at_now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    days = _custody_days()
    animals, imps, disps, pays, lines = [], [], [], [], []
    for n, day in enumerate(days, start=1):
        dog = n % 3 != 0
        animals.append(
            {
                "id": n,
                "name": rng.choice(("Rex", "Bella", "Tom", "")),
                "species": "dog" if dog else "cat",
                "species_detail": "",
                "breed": "Beagle" if dog else "",
                "colour": rng.choice(("tan", "black", "white")),
                "sex": rng.choice(("male", "female")),
                "altered": rng.random() < 0.5,
                "birth_date": day - timedelta(days=rng.randint(90, 4000)),
                "markings": "",
                "microchip": None,
                "licence_number": f"D-{n}" if dog else None,
                "licence_year": 2026 if dog else None,
                "owner_id": rng.randint(1, PEOPLE),
                "notes": "",
                "created_at": at_now,
                "updated_at": at_now,
                "version": 1,
            }
        )
        impounded = datetime.combine(day, time(rng.randint(7, 18), rng.randint(0, 59)), CHICAGO)
        disposed = rng.random() < 0.75
        imps.append(
            {
                "id": n,
                "animal_id": n,
                "impounded_at": impounded,
                "custody_day": day,
                "last_claim_day": day + timedelta(days=7),
                "release_to_others_from": impounded + timedelta(days=8),
                "found_place": "Elm St",
                "found_at": None,
                "officer": "Off. Lee",
                "reason": "at_large",
                "reason_detail": "",
                "bit_person": False,
                "surrendered": False,
                "owner_id": animals[-1]["owner_id"],
                "kennel": "",
                "notes": "",
                "altered": None,
                "condition": "",
                "injuries": "",
                "repeat_of_id": None,
                "recorded_by": "bench",
                "disposed": disposed,
                "created_at": at_now,
                "updated_at": at_now,
                "version": 1,
            }
        )
        if disposed:
            kind = KINDS[n % len(KINDS)]
            when = impounded + timedelta(days=rng.randint(1, 12))
            release = kind in ("reclaimed", "adopted")
            row = {
                "impoundment_id": n,
                "kind": kind,
                "at": when,
                "recipient_id": rng.randint(1, PEOPLE) if release else None,
                "to_owner": kind == "reclaimed",
                "transfer_to": "Dane County Humane Society" if kind == "transferred" else "",
                "notes": "",
                "hopeless_or_threat": False,
                "preserve_until": None,
                "recorded_by": "bench",
                "recorded_at": when,
                "corrects_id": None,
                "correction_reason": "",
            }
            disps.append({**row, "id": len(disps) + 1})
            if n % 10 == 0:  # a supervisor's correction: a newer row naming the one in force
                disps.append(
                    {
                        **row,
                        "id": len(disps) + 1,
                        "at": when + timedelta(hours=2),
                        "corrects_id": len(disps),
                        "correction_reason": "time",
                    }
                )
            if release:
                pays.append(
                    {
                        "id": len(pays) + 1,
                        "impoundment_id": n,
                        "paid_at": when,
                        "payer_id": row["recipient_id"],
                        "method": "card",
                        "receipt_number": f"R-{n}",
                        "recorded_by": "bench",
                    }
                )
                for kind_paid, amount in (
                    ("impound", "40.00"),
                    ("boarding", "87.50"),
                    ("adoption", "50.00"),
                ):
                    if kind_paid != "adoption" or kind == "adopted":
                        lines.append(
                            {
                                "payment_id": len(pays),
                                "kind": kind_paid,
                                "description": "",
                                "amount": Decimal(amount),
                            }
                        )
        elif n % 7 == 0:
            pays.append(
                {
                    "id": len(pays) + 1,
                    "impoundment_id": n,
                    "paid_at": impounded + timedelta(hours=3),
                    "payer_id": None,
                    "method": "cash",
                    "receipt_number": f"L-{n}",
                    "recorded_by": "bench",
                }
            )
            lines.append(
                {
                    "payment_id": len(pays),
                    "kind": "licence",
                    "description": "",
                    "amount": Decimal("12.50"),
                }
            )
    with db.write() as s:
        for model, rows in (
            (Animal, animals),
            (Impoundment, imps),
            (Disposition, disps),
            (Payment, pays),
            (PaymentLine, lines),
        ):
            s.execute(insert(model), rows)


def build(path: Path) -> Database:
    from fieldops.demo import _bulk_people

    db = Database(f"sqlite:///{path}")
    fresh = not path.exists() or path.stat().st_size == 0
    upgrade(db.engine, db.url)
    if fresh:
        rng = random.Random(7)
        _bulk_people(db, Actor("bench", "admin"), rng, PEOPLE, 0)
        _fill(db, rng)
    return db


def run(path: Path) -> list[Result]:
    from fieldops.services.registers import impound_register_rows

    db = build(path)
    raw = sqlite3.connect(path)
    days = tuple(d.isoformat() for d in PERIOD)
    rows = impound_register_rows(db, *PERIOD)
    assert len(rows) == len(raw.execute(RAW, days).fetchall()) == PER_PERIOD, len(rows)
    results = [
        Result(
            f"register rows: {len(rows):,} impoundments, 37 days",
            median_time(lambda: impound_register_rows(db, *PERIOD)),
            "one raw sqlite3 query, same rows",
            median_time(lambda: raw.execute(RAW, days).fetchall()),
            LIMIT,
        )
    ]
    raw.close()
    db.dispose()
    return results
