"""The city's chicken and animal fancier's permits (58-533): bench.generate.

3,000 permits per 1,000,000 impoundments (two chicken permits to each
fancier's), first applied for in one of the ten years and renewed most years
since, as the services write them: each year an application with its fee quote
(``applying._application``: ``permit_applied``), issued and paid at the counter
(``issuing.issue_permit``: a ``permit_issue`` row with the amount, method and
receipt, ``permit_issued``, and the summary change ``permit_status``). A
fancier's permit has its animal list from the application and a renewal review
before each renewal (``permit_reviewed``); a few chicken applications are
refused (a rooster), and a few this year's are still waiting to be issued.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.city import NOW, TODAY, City, scaled, ts

PERMITS_PER_MILLION = 3_000
FIRST_YEAR = TODAY.year - 9
CLERK = "bench"


def permits(city: City) -> None:
    from bench.generate_calls import _names
    from fieldops.rules import chicken_permit_problems, fancier_list_update_due, permit_quote

    rng = city.rng("permits")
    names, addresses, _ = _names(city)
    people, profile, audit = city.made["people"], city.profile, city.audit
    total = scaled(city.size, PERMITS_PER_MILLION)
    quotes: dict[tuple[str, int, date, bool], Any] = {}
    permits_: list[dict[str, Any]] = []
    apps: list[dict[str, Any]] = []
    issues: list[dict[str, Any]] = []
    lists: list[dict[str, Any]] = []
    reviews: list[dict[str, Any]] = []
    app_id = review_id = 0
    rooster = chicken_permit_problems(
        profile,
        first_permit=True,
        hoa_exists=False,
        hoa_consent=False,
        hens=4,
        roosters=1,
        setback_feet=60,
        neighbour_consent=False,
    )
    for pid in range(1, total + 1):
        kind = "fancier" if pid % 3 == 0 else "chicken"
        holder = rng.randint(1, people)
        address = addresses[holder] or f"{rng.randint(1, 4999)} Elm St"
        first_year = rng.randint(FIRST_YEAR, TODAY.year)
        refused = kind == "chicken" and rng.random() < 0.04
        waiting = not refused and first_year == TODAY.year and rng.random() < 0.1
        permit: dict[str, Any] = {
            "id": pid,
            "kind": kind,
            "holder_id": holder,
            "address": address,
            "status": "applied",
            "year": first_year,
            "first_year": None,
            "issued_on": None,
            "expires_on": None,
            "list_update_due": None,
            "appeal_by": None,
            "search_text": " ".join(x for x in (names[holder], address) if x).lower()[:800],
            "version": 1,
        }
        chicken = {
            "hens": rng.randint(2, 6),
            "roosters": 1 if refused else 0,
            "setback_feet": rng.choice((50, 60, 80, 120)),
            "neighbour_consent": False,
            "hoa_exists": False,
            "hoa_consent": None,
            "hoa_consent_on": None,
        }
        year = first_year
        while year <= TODAY.year:
            first = year == first_year
            applied = (
                date(year, rng.randint(1, 10), rng.randint(1, 28))
                if first
                else date(year, 1, 2) + timedelta(days=rng.randint(0, 45))
            )
            if applied > TODAY:
                applied = TODAY - timedelta(days=rng.randint(0, 20))
            key = (kind, year, applied, first)
            q = quotes.get(key) or quotes.setdefault(
                key, permit_quote(kind, year, applied, profile, first=first)
            )
            at = datetime.combine(applied, time(10, 0), profile.timezone).astimezone(UTC)
            if first:
                permit.update(created_at=ts(at), updated_at=ts(at))
            if kind == "fancier" and not first:
                review_id += 1
                day = applied - timedelta(days=1)
                moment = at - timedelta(hours=20)
                reviews.append(
                    {
                        "id": review_id,
                        "permit_id": pid,
                        "year": year - 1,
                        "review_day": day.isoformat(),
                        "purpose": "renewal",
                        "renew": 1,
                        "counted": "[]",
                        "incident_ids": "[]",
                        "may_reapply_on": None,
                        "notes": "",
                        "recorded_by": CLERK,
                        "recorded_at": ts(moment),
                    }
                )
                audit.add(
                    moment,
                    "permit_reviewed",
                    "permit",
                    pid,
                    {
                        "review": review_id,
                        "review_day": day.isoformat(),
                        "purpose": "renewal",
                        "renew": True,
                        "counted": [],
                        "may_reapply_on": None,
                    },
                )
            app_id += 1
            problems = (
                [{"code": p.code, "field": p.field, "message": p.message} for p in rooster]
                if refused
                else []
            )
            app: dict[str, Any] = {
                "id": app_id,
                "permit_id": pid,
                "first": int(first),
                "year": year,
                "applied_on": applied.isoformat(),
                "application_fee": _cents(q.application_fee),
                "annual_fee": _cents(q.annual_fee),
                "late_fee": _cents(q.late_fee),
                "total": _cents(q.total),
                "late": int(q.late),
                "due_by": q.due_by.isoformat() if q.due_by else None,
                "fee_why": json.dumps({str(k): str(w) for k, w in q.why.items()}),
                "refused": int(refused),
                "problems": json.dumps(problems),
                "notes": "",
                "recorded_by": CLERK,
                "recorded_at": ts(at),
            }
            after: dict[str, Any] = {
                "kind": kind,
                "first": first,
                "year": year,
                "applied_on": applied.isoformat(),
                "holder_id": holder,
                "address": address,
                "total": str(q.total),
                "late": q.late,
            }
            if kind == "chicken":
                app.update({k: _bool(v) for k, v in chicken.items()})
                after |= chicken
            if problems:
                after["problems"] = [p["message"] for p in problems]
            apps.append(app)
            audit.add(
                at,
                "permit_refused" if refused else "permit_applied",
                "permit",
                pid,
                after | {"application": app_id},
            )
            if kind == "fancier" and first:
                lists.append(
                    {
                        "permit_id": pid,
                        "kind": "update",
                        "changed_on": applied.isoformat(),
                        "updated_on": applied.isoformat(),
                        "due_by": fancier_list_update_due(applied, profile).isoformat(),
                        "animals": json.dumps(
                            [
                                {"species": "pigeons", "count": rng.randint(4, 30), "names": ""},
                                {"species": "rabbits", "count": rng.randint(0, 8), "names": ""},
                            ]
                        ),
                        "note": "The list given with the application.",
                        "recorded_by": CLERK,
                        "recorded_at": ts(at),
                    }
                )
            if refused:
                _summary(city, permit, at, "application refused", status="refused")
                break
            if waiting:
                break
            issued = min(applied + timedelta(days=rng.randint(0, 10)), TODAY)
            moment = min(
                datetime.combine(issued, time(14, 0), profile.timezone).astimezone(UTC),
                NOW - timedelta(hours=1),
            )
            expires = date(year, 12, 31)
            method = rng.choice(("cash", "card", "check"))
            receipt = f"PT-{app_id:06d}"
            issues.append(
                {
                    "permit_id": pid,
                    "application_id": app_id,
                    "year": year,
                    "issued_on": issued.isoformat(),
                    "expires_on": expires.isoformat(),
                    "recorded_by": CLERK,
                    "recorded_at": ts(moment),
                    "paid_amount": _cents(q.total),
                    "payment_method": method,
                    "receipt_number": receipt,
                }
            )
            audit.add(
                moment,
                "permit_issued",
                "permit",
                pid,
                {
                    "year": year,
                    "issued_on": issued.isoformat(),
                    "expires_on": expires.isoformat(),
                    "renewal": not first,
                    "paid_amount": str(q.total),
                    "payment_method": method,
                    "receipt_number": receipt,
                },
            )
            _summary(
                city,
                permit,
                moment,
                "permit issued",
                status="issued",
                year=year,
                issued_on=issued.isoformat(),
                expires_on=expires.isoformat(),
                first_year=permit["first_year"] or year,
            )
            if rng.random() < 0.12:
                break  # not renewed: the permit ran out with its year
            year += 1
        permits_.append(permit)
    city.insert("permit", permits_)
    city.insert("permit_application", apps)
    city.insert("permit_issue", issues)
    city.insert("permit_animal_list", lists)
    city.insert("permit_review", reviews)
    city.made["permits"] = total


def _summary(city: City, permit: dict[str, Any], at: datetime, reason: str, **changes: Any) -> None:
    """``records.change_summary``: the permit row's summary changed, audited before/after."""
    before = {k: permit[k] for k in changes}
    if before == changes:
        return
    city.audit.add(at, "permit_status", "permit", permit["id"], changes, before, reason)
    permit.update(changes, updated_at=ts(at), version=permit["version"] + 1)


def _cents(value: Any) -> int:
    return int(value * 100)


def _bool(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


__all__ = ["permits"]
