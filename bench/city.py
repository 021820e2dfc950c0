"""What the city generators share: the file, its audit trail, storage forms (bench.generate)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from hashlib import sha256
from typing import Any

from fieldops.db.models import Base
from fieldops.rules import Profile

#: The generated city's "today" (its newest records are from the days before).
TODAY = date(2026, 11, 30)
NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
YEARS = 10
SEED = 14
BATCH = 20_000
#: In custody at 1,000,000 impoundments (issue 14's measured database).
IN_CUSTODY_PER_MILLION = 3_218
ACTOR = "bench"


def scaled(size: int, per_million: int) -> int:
    return max(1, round(size * per_million / 1_000_000))


def ts(moment: datetime) -> str:
    """An instant as ``fieldops.db.types.UTCDateTime`` stores it on SQLite
    ("2026-11-30 17:00:00.000000", UTC)."""
    return _stamps(moment)[0]


def iso(moment: datetime) -> str:
    """An instant as the services put it in an audit event (``context.jsonable``)."""
    return _stamps(moment)[1]


_last: list[Any] = [None, ("", "")]


def _stamps(moment: datetime) -> tuple[str, str]:
    """``ts`` and ``iso`` of one instant, from one isoformat; the same instant asked again
    (a row's created and updated, its event) is answered from the last one."""
    if moment is _last[0]:
        return _last[1]  # type: ignore[no-any-return]
    utc = moment if moment.tzinfo is UTC else moment.astimezone(UTC)
    text = utc.isoformat()
    if len(text) == 25:  # whole seconds: isoformat leaves the microseconds out
        pair = (f"{text[:10]} {text[11:19]}.000000", text)
    else:
        pair = (f"{text[:10]} {text[11:26]}", text)
    _last[0], _last[1] = moment, pair
    return pair


#: ``fieldops.db.models.audit.canonical_json``'s settings.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Audit:
    """The audit trail, appended in order: each event chained to the one before."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw
        self.seq, self.prev = raw.execute(
            "SELECT seq, hash FROM audit_chain WHERE id = 1"
        ).fetchone()
        self.rows: list[tuple[Any, ...]] = []
        self.count = 0

    def add(
        self,
        at: datetime,
        action: str,
        entity: str,
        entity_id: int,
        after: dict[str, Any] | None,
        before: dict[str, Any] | None = None,
        reason: str = "",
    ) -> None:
        self.seq += 1
        # ``event_body``'s canonical JSON, written out in its (sorted) key order around the
        # two values that need encoding, so each event's before and after are encoded once:
        # that text is the stored column too (the same JSON value; ``fieldops check`` and
        # the tests prove both equal to what the services write).
        enc = _CANONICAL.encode
        after_text = "null" if after is None else enc(after)
        before_text = "null" if before is None else enc(before)
        at_ts, at_iso = _stamps(at)
        body = (
            f'{{"action":"{action}","actor":"{ACTOR}","after":{after_text},"at":"{at_iso}",'
            f'"before":{before_text},"entity":"{entity}","entity_id":{entity_id},'
            f'"prev":"{self.prev}","reason":{enc(reason) if reason else chr(34) * 2},'
            f'"seq":{self.seq}}}'
        )
        digest = sha256(body.encode("utf-8")).hexdigest()
        self.rows.append(
            (
                at_ts,
                ACTOR,
                action,
                entity,
                entity_id,
                None if before is None else before_text,
                None if after is None else after_text,
                reason,
                self.seq,
                self.prev,
                digest,
                body,
            )
        )
        self.prev = digest
        self.count += 1
        if len(self.rows) >= BATCH:
            self.flush()

    def flush(self) -> None:
        self.raw.executemany(
            "INSERT INTO audit_event (at, actor, action, entity, entity_id, before, after, "
            "reason, seq, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            self.rows,
        )
        self.rows.clear()

    def close(self) -> None:
        self.flush()
        self.raw.execute(
            "UPDATE audit_chain SET seq = ?, hash = ? WHERE id = 1", (self.seq, self.prev)
        )


@dataclass
class City:
    """What the generators share: the file, the size, the trail and what was made so far."""

    raw: sqlite3.Connection
    size: int
    audit: Audit
    profile: Profile
    #: Counts and facts earlier generators leave for later ones (people, animals, owners).
    made: dict[str, Any] = field(default_factory=dict)
    _columns: dict[str, tuple[tuple[str, Any], ...]] = field(default_factory=dict)

    def rng(self, part: str) -> random.Random:
        """Each part its own stream: adding a part never changes another's rows."""
        return random.Random(f"{SEED}:{part}:{self.size}")

    def insert(self, table: str, rows: Iterable[Mapping[str, Any]]) -> int:
        """Rows of ``table`` in storage form; missing columns take the model's scalar default."""
        cols = self._columns.get(table)
        if cols is None:
            cols = tuple(
                (
                    c.name,
                    _storage(getattr(c.default, "arg", None))
                    if c.default is not None and c.default.is_scalar
                    else None,
                )
                for c in Base.metadata.tables[table].columns
            )
            self._columns[table] = cols
        names = ", ".join(n for n, _ in cols)
        marks = ", ".join("?" for _ in cols)
        sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        n = 0
        batch: list[tuple[Any, ...]] = []
        names_, defaults = [n for n, _ in cols], [d for _, d in cols]
        for r in rows:
            batch.append(tuple(map(r.get, names_, defaults)))
            if len(batch) >= BATCH:
                self.raw.executemany(sql, batch)
                n += len(batch)
                batch.clear()
        self.raw.executemany(sql, batch)
        return n + len(batch)


def _storage(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        return int(value * 100)
    return value


def span_moment(i: int, count: int, rng: random.Random) -> datetime:
    """The ``i``-th of ``count`` moments spread over the ``YEARS`` before ``NOW``."""
    start = NOW - timedelta(days=365 * YEARS)
    seconds = (NOW - start).total_seconds() - 3600
    jitter = rng.randint(0, 3599)
    return start + timedelta(seconds=int(seconds * i / count) + jitter)
