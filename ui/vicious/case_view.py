"""The case as read-only text: declaration, incidents, findings, notices, outcome, next steps.

Every value is user text or ordinance text, escaped once here; "Why this date?" is the
rules' explanation carried by the notice view.
"""

from __future__ import annotations

from collections.abc import Iterable

from fieldops.services.vicious.views import CaseView
from ui.common.text import day, escape_html, when
from ui.context import AppContext


def _rows(pairs: Iterable[tuple[str, str]]) -> str:
    return (
        "<table cellspacing='0' cellpadding='3'>"
        + "".join(
            f"<tr><td valign='top'><b>{escape_html(k)}</b></td><td>{escape_html(v)}</td></tr>"
            for k, v in pairs
        )
        + "</table>"
    )


LINK_SCHEME = "record"


def record_link(module: str, kind: str, record_id: int) -> str:
    """The anchor a linked incident opens its record by (module, kind, id)."""
    return f"{LINK_SCHEME}:{module}/{kind}/{record_id}"


def parse_record_link(url: str) -> tuple[str, str, int] | None:
    scheme, _, rest = url.partition(":")
    parts = rest.split("/")
    if scheme != LINK_SCHEME or len(parts) != 3 or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def record_html(ctx: AppContext, v: CaseView) -> str:
    """The declaration (or the refusal), its incidents and every finding."""
    parts = [
        "<h3>Declaration</h3>",
        _rows(
            [
                ("Animal", v.animal),
                ("Owner", v.owner),
                ("Address (as declared)", v.owner_address),
                ("Decided", f"{when(ctx, v.decided_at)} by {v.officer}"),
                ("Recorded by", v.recorded_by),
                ("Status", v.status_label),
            ]
        ),
    ]
    if v.refusal_reasons:
        parts.append(
            "<p style='color:#a4161a'><b>Refused:</b> "
            + "<br>".join(escape_html(r) for r in v.refusal_reasons)
            + "</p>"
        )
    if v.notes:
        parts.append(f"<p><b>Notes:</b> {escape_html(v.notes)}</p>")
    parts.append(
        "<h3>Incidents</h3><ul>"
        + "".join(
            f"<li><b>{escape_html(when(ctx, i.occurred_at))}</b>, {escape_html(i.place)}: "
            + "<br>".join(escape_html(line) for line in i.what.splitlines())
            + (f" <a href='{record_link(*i.linked)}'>Open the record</a>" if i.linked else "")
            + "</li>"
            for i in v.incidents
        )
        + "</ul>"
    )
    parts.append(
        "<h3>Grounds, 58-524(a)(1)</h3><ul>"
        + "".join(f"<li><b>{escape_html(s)}</b> {escape_html(t)}</li>" for _c, s, t in v.grounds)
        + "</ul>"
    )
    rows = []
    for f in v.findings:
        verdict = "<b style='color:#a4161a'>Applies</b>" if f.applies else "Does not apply"
        found = f"<br><i>Found: {escape_html(f.why)}</i>" if f.why else ""
        rows.append(
            f"<tr><td valign='top'><b>{escape_html(f.section)}</b></td>"
            f"<td valign='top'>{verdict}</td><td>{escape_html(f.text)}{found}</td></tr>"
        )
    parts.append(
        "<h3>Findings on the exceptions, 58-524(a)(2)</h3><table cellpadding='3'>"
        + "".join(rows)
        + "</table>"
    )
    return "".join(parts)


def follow_up_html(ctx: AppContext, v: CaseView) -> str:
    """Notices (with "Why this date?"), the outcome, next steps, and any ending."""
    parts = ["<h3>Notices</h3>"]
    if not v.notices:
        parts.append("<p>No notice served yet.</p>")
    for n in v.notices:
        parts.append(
            _rows(
                [
                    ("How served", n.method_label),
                    ("Served", when(ctx, n.served_at)),
                    ("By", n.served_by),
                    ("Where", n.place),
                    ("Deadline", n.deadline_text),
                    ("Notes", n.notes or "—"),
                ]
            )
        )
        parts.append(f"<p><b>Why this date?</b> {escape_html(n.deadline_why)}</p>")
    parts.append("<h3>Outcome</h3>")
    o = v.outcome
    if o is None:
        parts.append("<p>No outcome recorded.</p>")
    else:
        pairs = [("Outcome", o.label), ("When", when(ctx, o.at))]
        pairs += [
            (k, x)
            for k, x in (
                ("Destroyed by", o.by_whom),
                ("Proof", o.proof),
                ("Removed to", o.removed_to),
                ("Confirmed how", o.confirmed_how),
                ("Notes", o.notes),
            )
            if x
        ]
        parts.append(_rows(pairs))
    if v.steps or v.status == "not_complied":
        parts.append("<h3>Next steps</h3>")
        if not v.steps:
            parts.append("<p>None recorded yet.</p>")
        parts.append(
            _rows(
                [
                    (
                        f"{s.label} ({s.section})",
                        f"due {day(s.due_on)}"
                        + (
                            f"; taken {day(s.done_on)}: {s.result}"
                            if s.done_on
                            else "; not yet taken"
                        )
                        + (f". {s.what}" if s.what else ""),
                    )
                    for s in v.steps
                ]
            )
        )
    if v.ending is not None:
        e = v.ending
        parts.append(
            "<h3>"
            + escape_html(e.label)
            + "</h3>"
            + _rows(
                [
                    ("Decided", day(e.decided_on)),
                    ("By", e.authority),
                    ("Reason", e.reason),
                    ("Recorded by", e.recorded_by),
                ]
            )
        )
    return "".join(parts)
