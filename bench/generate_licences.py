"""The city's dog licences: bench.generate.

300,000 licences per 1,000,000 impoundments: last year's (2025) for owned dogs, and
this year's renewals of most of them, so about one dog in seven licensed for 2025 is
still unrenewed on the city's "today" (late: past the late-fee day) and Today has its
licence line to count. Each licence carries the audit event its service writes
(``licence_issue`` or ``licence_renew``), as ``fieldops check`` asks.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.city import City, ts

LICENCES_PER_MILLION = 300_000
RENEWED = 0.85  # of last year's licences, renewed this year
#: Licences held before they are written.
CHUNK = 20_000


def _cents(value: Any) -> int:
    return int(value * 100)


def licences(city: City) -> None:
    from bench.city import scaled
    from fieldops.rules import LicenceQuote, licence_quote

    rng = city.rng("licences")
    total = scaled(city.size, LICENCES_PER_MILLION)
    species, owners, animals = (
        city.made["animal_species"],
        city.made["animal_owner"],
        city.made["animals"],
    )
    dogs = [a for a in range(1, animals + 1) if species[a] == 0 and owners[a]]
    first = min(len(dogs), int(total / (1 + RENEWED)))
    renewals = min(first, total - first)
    p = city.profile
    rows: list[dict[str, Any]] = []
    quotes: dict[tuple[int, date, bool], LicenceQuote] = {}
    lid = 0
    for year, picked in ((2025, dogs[:first]), (2026, dogs[:renewals])):
        for n, animal in enumerate(picked):
            if len(rows) >= CHUNK:  # written as they go: less memory
                city.insert("dog_licence", rows)
                rows.clear()
            lid += 1
            altered = rng.random() < 0.7
            applied = date(year, 1, 2) + timedelta(days=rng.randint(0, 80))
            key = (year, applied, altered)
            q = quotes.get(key) or quotes.setdefault(
                key, licence_quote(year, applied, p, birth_date=None, altered=altered)
            )
            at = datetime.combine(applied, time(15, 0), UTC)
            row = {
                "id": lid,
                "animal_id": animal,
                "owner_id": owners[animal],
                "licence_year": year,
                "tag_number": f"{year % 100}-{n + 1}",
                "origin": "new" if year == 2025 else "renewal",
                "previous_id": None if year == 2025 else n + 1,
                "applied_on": applied.isoformat(),
                "altered": int(altered),
                "rate": _cents(q.rate),
                "half_rate": int(q.half_rate),
                "due_by": q.due_by.isoformat(),
                "late": int(q.late),
                "late_fee": _cents(q.late_fee),
                "total": _cents(q.total),
                "paid_amount": _cents(q.total),
                "payment_method": "cash",
                "receipt_number": "",
                "issued_at": ts(at),
                "issued_place": "counter",
                "issued_by": "bench",
                "status": "current",
                "created_at": ts(at),
                "updated_at": ts(at),
                "version": 1,
            }
            rows.append(row)
            after = {
                k: row[k] for k in ("animal_id", "owner_id", "licence_year", "tag_number", "origin")
            }
            action = "licence_issue" if year == 2025 else "licence_renew"
            city.audit.add(at, action, "dog_licence", lid, after)
    city.insert("dog_licence", rows)
    city.made["licences"] = lid
