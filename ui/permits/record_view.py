"""A permit's record as rich text: the holder, the year in force, every application with
its fees and their "why", refusals, the animals, incidents, reviews, notices and appeals."""

from __future__ import annotations

from fieldops.services.permits.views import PermitView
from ui.common.text import day, escape_html, money


def _e(text: object) -> str:
    return escape_html(str(text))


def _yes(value: bool | None) -> str:
    return "yes" if value else "no"


def record_html(v: PermitView) -> str:
    out = [
        f"<h3>{_e(v.kind_label)} #{v.id} ({_e(v.section)})</h3>",
        f"<p><b>Holder:</b> {_e(v.holder)}<br><b>Address:</b> {_e(v.address)}<br>"
        f"<b>Status:</b> {_e(v.status_label)}",
    ]
    if v.issued_on is not None and v.expires_on is not None:
        out.append(
            f"<br><b>Year in force:</b> {v.year}, issued {day(v.issued_on)}, expires "
            f"{day(v.expires_on)}"
        )
        paid = v.issues[-1] if v.issues else None
        if paid is not None and paid.paid_amount is not None:
            out.append(
                f"<br><b>Fees paid:</b> {money(paid.paid_amount)} ({_e(paid.payment_method or '')}), "
                f"receipt {_e(paid.receipt_number or '')}"
            )
    if v.stayed:
        out.append(
            "<br><b>Appeal pending:</b> the decision is stayed and does not take effect "
            "until the appeal is decided."
        )
    if v.appeal_by is not None and not v.stayed:
        out.append(f"<br><b>Appeal due by:</b> {day(v.appeal_by)}")
    if v.list_update_due is not None:
        out.append(f"<br><b>Animal list due by:</b> {day(v.list_update_due)}")
    out.append("</p>")
    if v.revocation is not None:
        rv = v.revocation
        out.append(f"<p><b>Revoked {day(rv.revoked_on)}:</b> {_e(rv.reason)}</p>")
    if v.kind == "fancier":
        out.append("<h4>Animals kept</h4><ul>")
        out += [
            f"<li>{a.count} {_e(a.species)}" + (f" ({_e(a.names)})" if a.names else "") + "</li>"
            for a in v.animals
        ] or ["<li>none listed</li>"]
        out.append("</ul>")
        for e in v.list_entries:
            if e.kind == "change":
                out.append(
                    f"<p>Change on {day(e.changed_on)}: {_e(e.note)}; list due by "
                    f"{day(e.due_by)}. <i>Why this date?</i> {_e(e.due_why)}</p>"
                )
            elif e.late:
                out.append(
                    f"<p>List updated {day(e.updated_on)}, late: due by {day(e.due_by)}.</p>"
                )
    out.append("<h4>Applications</h4>")
    for a in v.applications:
        which = "first permit" if a.first else "renewal"
        out.append(f"<p><b>{a.year}, {which}, applied {day(a.applied_on)}</b>")
        if a.hens is not None:
            out.append(
                f"<br>Hens {a.hens}, roosters {a.roosters or 0}; enclosure {a.setback_feet} feet "
                f"from the line (neighbour's consent: {_yes(a.neighbour_consent)})"
            )
            if a.residence_setback_feet is not None:
                out.append(f"<br>{a.residence_setback_feet} feet from the nearest residence")
            if a.state_registered_on is not None:
                out.append(f"<br>State premises registration of {day(a.state_registered_on)}")
            if a.hoa_exists:
                consent = (
                    f"consent dated {day(a.hoa_consent_on)}" if a.hoa_consent else "no consent"
                )
                out.append(f"<br>Homeowners association: {consent}")
        fees = "Fees quoted" if a.refused else "Fees"
        out.append(
            f"<br>{fees} {money(a.total)}"
            + (" (late)" if a.late else "")
            + (", not charged: the application was refused" if a.refused else "")
        )
        out.append("<br><i>Why?</i> " + " ".join(_e(w) for _k, w in a.fee_why))
        if a.refused:
            out.append("<br><b>Refused:</b> " + " ".join(_e(p.message) for p in a.problems))
        elif not a.issued:
            out.append("<br>Accepted: to issue once the fees are paid.")
        out.append("</p>")
    if v.kind == "fancier" or v.incidents or v.reviews:
        out.append("<h4>Incidents</h4><ul>")
        out += [
            f"<li>{day(i.occurred_on)}: {_e(i.kind_label)}, {_e(i.ending_label.lower())}"
            + (f" {_e(i.citation_number)}" if i.citation_number else "")
            + (f" (complaint, {i.distance_feet} feet away)" if i.distance_feet is not None else "")
            + f": {_e(i.description)}</li>"
            for i in v.incidents
        ] or ["<li>none on record</li>"]
        out.append("</ul>")
        for r in v.reviews:
            decided = (
                "renew" if r.renew else ("not renewed" if r.purpose == "renewal" else "revoked")
            )
            counted = ", ".join(day(d) for d in r.counted) or "none"
            out.append(
                f"<p><b>{_e(r.purpose_label)} {day(r.review_day)}:</b> {decided}; "
                f"incidents counted: {counted}"
            )
            if r.may_reapply_on is not None:
                out.append(f"<br>No new permit here until {day(r.may_reapply_on)}.")
            if r.notice is not None:
                n = r.notice
                out.append(
                    f"<br>Notice mailed {day(n.mailed_on)} by certified mail, article "
                    f"{_e(n.article_number)}. <b>Appeal due by {day(n.appeal_by)}.</b> "
                    f"<i>Why this date?</i> {_e(n.appeal_why)}"
                )
            if r.appeal is not None:
                out.append(f"<br>Appeal filed {day(r.appeal.filed_on)}: {_e(r.appeal.grounds)}")
                d = r.appeal.decision
                if d is not None:
                    out.append(
                        f"<br>{_e(d.outcome_label)} by {_e(d.authority)}, {day(d.decided_on)}"
                        + (f": {_e(d.reason)}" if d.reason else "")
                    )
            out.append("</p>")
    return "".join(out)
