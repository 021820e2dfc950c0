"""What a bite still has to send: a referral to the health officer, a dead animal's
specimen to the laboratory (``bite_to_send``, kept by migration 0032's triggers).

Today reads the kept rows: the few cases still open, where asking every referred bite
and every dead animal for its event read the whole history each time. ``fieldops
check`` compares them with their sources (``stale_bites_to_send``).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, CompoundSelect, Connection, String, literal, select, union
from sqlalchemy.orm import QueryableAttribute

from fieldops.db.models import BiteReport, BiteToSend, Quarantine, QuarantineEvent
from fieldops.rules import plural

# The statuses of a quarantine whose animal's specimen must be sent (died, euthanized).
DEAD = ("died", "euthanized")


def none_recorded(kind: str, bite_id: QueryableAttribute[int]) -> ColumnElement[bool]:
    """No ``kind`` event on record for the bite."""
    return ~(
        select(QuarantineEvent.id)  # not "*": the probe then reads the index alone
        .where(QuarantineEvent.bite_report_id == bite_id, QuarantineEvent.kind == kind)
        .exists()
    )


def to_send_from_sources() -> CompoundSelect[str, int]:
    """(kind, bite_report_id) of everything still to send, from the bites, quarantines and
    events themselves: what ``bite_to_send`` must hold."""
    referrals = select(
        literal("referral_sent", String).label("kind"), BiteReport.id.label("bite_report_id")
    ).where(BiteReport.referral.is_(True), none_recorded("referral_sent", BiteReport.id))
    specimens = select(literal("specimen_sent", String), Quarantine.bite_report_id).where(
        Quarantine.status.in_(DEAD), none_recorded("specimen_sent", Quarantine.bite_report_id)
    )
    return union(referrals, specimens)


def stale_bites_to_send(conn: Connection) -> list[str]:
    """Bites whose kept "still to send" differs from their records: a trigger lost, or a
    row written around it, and Today would miss a referral or a specimen, or list one
    already sent."""
    expected = {(str(k), int(b)) for k, b in conn.execute(to_send_from_sources())}
    kept = {(k, b) for k, b in conn.execute(select(BiteToSend.kind, BiteToSend.bite_report_id))}
    bites = sorted({bite for _, bite in expected ^ kept})
    if not bites:
        return []
    return [
        f"{plural(len(bites), 'bite report')} kept with another referral or specimen still "
        "to send than its records say (Today's bite items): "
        + ", ".join(f"#{b}" for b in bites[:10])
    ]
