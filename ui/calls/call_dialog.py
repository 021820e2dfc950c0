"""The call view: what was reported, cautions first, the dispatches and their outcome,
complaints and petitions, citations, and every record at the address."""

from __future__ import annotations

import uuid
from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission, permitted
from fieldops.reports.calls import citation_pdf, complaint_notice_pdf, petition_pdf
from fieldops.rules import Profile
from fieldops.rules import calls as rules
from fieldops.services.calls.dispatching import link_impoundment
from fieldops.services.calls.records import get_call, open_recheck
from fieldops.services.calls.views import CallView, CitationView, ComplaintView
from ui import modules as ui_modules
from ui.calls import action_dialogs as act
from ui.calls.call_actions import CallActionsPart
from ui.calls.citation_dialog import CitationDialog
from ui.common import documents as docs
from ui.common.place_history import PlaceHistoryList
from ui.common.text import day, escape_html, when
from ui.context import AppContext


def _document(
    kind: str,
    v: CallView,
    c: ComplaintView | None,
    profile: Profile,
    at: datetime,
    citation: CitationView | None = None,
) -> bytes:
    """One of the call's documents as a PDF (run off the GUI thread); ``c`` the complaint
    the notice or the petition is of, ``citation`` the citation whose sheet it is (the
    latest when None)."""
    j, tz = profile.name, profile.timezone
    if kind == "citation":
        sheet = citation or v.citations[-1]
        return citation_pdf(sheet, jurisdiction=j, tz=tz, printed_at=at)
    if kind == "notice":
        assert c is not None  # the button needs a complaint
        return complaint_notice_pdf(v, c, jurisdiction=j, tz=tz, printed_at=at)
    petitions = c.petitions if c is not None else ()
    last = petitions[-1] if petitions else None
    return petition_pdf(v, last, jurisdiction=j, tz=tz, printed_at=at)


def default_complaint(v: CallView) -> ComplaintView | None:
    """The complaint the steps act on unless the user picks one: the first whose owner is
    not yet notified, else the latest."""
    waiting = [c for c in v.complaints if c.notified_at is None]
    return waiting[0] if waiting else (v.complaints[-1] if v.complaints else None)


class CallDialog(docs.DocumentQuestions, QDialog):
    """One call; the buttons are what the officer does next."""

    def __init__(self, ctx: AppContext, view: CallView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view = view
        self.setObjectName("CallDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(820, 720)
        self.heading = QLabel()
        self.heading.setObjectName("PageHeading")
        self.caution = QLabel()
        self.caution.setObjectName("CautionBanner")
        self.caution.setWordWrap(True)
        self.caution.setStyleSheet(act.CAUTION_STYLE)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        # Every record at the address or of the owner, newest first; Enter or a double
        # click opens it in its own module.
        self.history = PlaceHistoryList(
            ctx, skip=("call", "call", view.id), empty="Nothing else on record here."
        )
        self.child: QDialog | None = None
        b = {}
        for key, text in (
            ("dispatch", "&Dispatch…"),
            ("outcome", "&Outcome…"),
            ("intake", "Open &intake…"),
            ("recheck", "Rec&heck"),
            ("complaint", "Co&mplaint…"),
            ("notice", "Owner &notified…"),
            ("petition", "&Petition…"),
            ("cite", "Ci&te…"),
            ("caution", "C&aution…"),
            ("notice_pdf", "Notice to o&wner"),
            ("petition_pdf", "Petition &sheet"),
            ("citation_pdf", "Citation sh&eet"),
            ("court", "Co&urt or paid…"),
            ("clear_caution", "C&lear caution…"),
            ("revise", "&Revise call…"),
            ("follow_up", "&Follow-up done…"),
            ("module_form", "Open &bite report…"),
            ("fix_citation", "Fi&x citation…"),
            ("close", "&Close"),
        ):
            b[key] = QPushButton(text)
            b[key].setAutoDefault(False)
        self.buttons = b
        # With two complaints or more, which one the complaint steps (the owner's notice,
        # a petition, their documents) act on.
        self.complaint = QComboBox()
        self.complaint.setObjectName("ComplaintChoice")
        self.complaint.activated.connect(self._on_complaint_activated)
        self.complaint.currentIndexChanged.connect(self._on_complaint_changed)
        self._picked: int | None = None  # the complaint the user chose, by id
        self._recheck_key = str(uuid.uuid4())  # sent with each attempt of one recheck
        self.complaint_row = QWidget()
        row = QHBoxLayout(self.complaint_row)
        row.setContentsMargins(0, 0, 0, 0)
        caption = QLabel("For complaint:")
        caption.setBuddy(self.complaint)
        row.addWidget(caption)
        row.addWidget(self.complaint, 1)
        grid = QGridLayout()
        for i, key in enumerate(b):
            grid.addWidget(b[key], i // 5, i % 5)
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.addWidget(self.details)
        self.more = CallActionsPart(self)  # follow-up done, citation fixes, linked records
        column.addWidget(self.more.line)
        history_heading = QLabel("At this address and of this owner")
        history_heading.setObjectName("SectionHeading")
        column.addWidget(history_heading)
        column.addWidget(self.history)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.caution)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.complaint_row)
        layout.addLayout(grid)
        b["dispatch"].clicked.connect(lambda: self._open(act.DispatchDialog(ctx, self.view, self)))
        b["outcome"].clicked.connect(self._on_outcome_clicked)
        b["intake"].clicked.connect(self.open_intake)
        b["recheck"].clicked.connect(self._on_recheck_clicked)
        b["complaint"].clicked.connect(
            lambda: self._open(act.ComplaintDialog(ctx, self.view, self))
        )
        b["notice"].clicked.connect(self._on_notice_clicked)
        b["petition"].clicked.connect(self._on_petition_clicked)
        b["cite"].clicked.connect(lambda: self._open(CitationDialog(ctx, self.view, self)))
        b["caution"].clicked.connect(lambda: self._open(act.CautionDialog(ctx, self.view, self)))
        b["close"].clicked.connect(self.reject)
        b["revise"].clicked.connect(self._on_revise_clicked)
        b["court"].clicked.connect(
            lambda: self._open(act.CitationUpdateDialog(ctx, self.view, self))
        )
        b["clear_caution"].clicked.connect(
            lambda: self._open(act.ClearCautionDialog(ctx, self.view, self))
        )
        for kind in ("notice", "petition"):
            b[f"{kind}_pdf"].clicked.connect(lambda _=False, k=kind: self.show_document(k))
        # One sheet a citation: with several (one a day of the violation) the button offers
        # each, newest first; with one it prints it.
        self.citation_menu = QMenu(b["citation_pdf"])
        b["citation_pdf"].clicked.connect(self._on_citation_sheet_clicked)
        self.show_view(view)

    def call_id(self) -> int:
        return self.view.id

    # -- showing -----------------------------------------------------------

    def show_view(self, v: CallView) -> None:
        self.view = v
        self.setWindowTitle(f"Call #{v.id}")
        status = {"open": "not dispatched", "dispatched": f"dispatched to {v.officer}"}.get(
            v.status, "closed"
        )
        self.heading.setText(f"Call #{v.id}: {v.kind_label}, {v.priority_label.lower()}, {status}")
        self.caution.setText("<br>".join(escape_html(f.words()) for f in v.flags))
        self.caution.setVisible(bool(v.flags))
        self.details.setText(self._details_html(v))
        last = v.dispatches[-1] if v.dispatches else None
        b = self.buttons
        b["dispatch"].setEnabled(v.status != "dispatched")
        b["outcome"].setEnabled(last is not None)
        b["intake"].setEnabled(
            last is not None and last.outcome == "impounded" and last.impoundment_id is None
        )
        self._show_complaints(v)
        b["cite"].setEnabled(v.owner_id is not None)
        b["citation_pdf"].setEnabled(bool(v.citations))
        self.citation_menu.clear()
        for t in reversed(v.citations):
            void = ", void" if t.voided else ""
            action = self.citation_menu.addAction(
                f"Citation #{t.id}: {t.person}, {t.section}, {day(t.offence_on)}{void}"
            )
            action.triggered.connect(lambda _=False, c=t: self.show_document("citation", c))
        supervisor = permitted(self.ctx.actor.role, Permission.OVERRIDES)
        b["caution"].setVisible(supervisor)
        b["clear_caution"].setVisible(supervisor)
        b["clear_caution"].setEnabled(bool(v.flags))
        b["court"].setEnabled(any(not t.voided for t in v.citations))
        self.more.show_view(v)
        people = (v.owner_id, *(p.person_id for p in v.parties))
        self.history.load_address(v.address, tuple(p for p in people if p is not None))

    def _show_complaints(self, v: CallView) -> None:
        """The complaints to choose from (shown when there are two or more), the one the
        user picked kept across a reload, else the default."""
        ids = [c.id for c in v.complaints]
        chosen = self._picked if self._picked in ids else None
        if chosen is None:
            first = default_complaint(v)
            chosen = first.id if first is not None else None
        self.complaint.blockSignals(True)
        self.complaint.clear()
        for c in v.complaints:
            notified = (
                f"owner notified {day(self.ctx.local_time(c.notified_at).date())}"
                if c.notified_at
                else "owner not yet notified"
            )
            petitions = f", {len(c.petitions)} petition(s)" if c.petitions else ""
            self.complaint.addItem(
                f"#{c.id} from {c.complainant} ({c.alleged[:40]}): {notified}{petitions}", c.id
            )
        self.complaint.setCurrentIndex(self.complaint.findData(chosen))
        self.complaint.blockSignals(False)
        self.complaint_row.setVisible(len(v.complaints) > 1)
        self._on_complaint_changed()

    def chosen_complaint(self) -> ComplaintView | None:
        """The complaint the complaint steps act on."""
        cid = self.complaint.currentData()
        return next((c for c in self.view.complaints if c.id == cid), None)

    def _on_complaint_activated(self, _index: int) -> None:
        self._picked = self.complaint.currentData()

    def _on_complaint_changed(self, *_args: object) -> None:
        c = self.chosen_complaint()
        b = self.buttons
        b["notice"].setEnabled(c is not None and c.notified_at is None)
        b["petition"].setEnabled(c is not None and c.notified_at is not None)
        b["notice_pdf"].setEnabled(c is not None)
        b["petition_pdf"].setEnabled(c is not None)

    def _details_html(self, v: CallView) -> str:
        e = escape_html
        caller = "anonymous" if v.anonymous else f"{v.caller_name} {v.caller_phone}".strip()
        rows = [
            (
                "Received",
                f"{when(self.ctx, v.received_at)} ({e(v.received_how.replace('_', ' '))})",
            ),
            ("Caller", e(caller or "not given")),
            ("Address", e(v.address) + (f" — {e(v.place)}" if v.place else "")),
            ("Owner", e(v.owner or "not known")),
            ("Animal", e(v.animal or "not described")),
            *((f"{p.role_label}", e(p.words().partition(": ")[2])) for p in v.parties),
            ("Reported", e(v.description)),
        ]
        if v.recheck_of_id:
            rows.append(("Recheck of", f"call #{v.recheck_of_id}"))
        if v.rechecks:
            rows.append(("Rechecked by", ", ".join(f"call #{i}" for i in v.rechecks)))
        html = (
            "<table>"
            + "".join(f"<tr><td><b>{k}</b>&nbsp;&nbsp;</td><td>{val}</td></tr>" for k, val in rows)
            + "</table>"
        )
        html += "<h3>Dispatches</h3>"
        for d in v.dispatches or ():
            parts = [f"{e(d.officer)} sent {when(self.ctx, d.sent_at)}"]
            if d.arrived_at:
                parts.append(f"arrived {when(self.ctx, d.arrived_at)}")
            if d.cleared_at:
                parts.append(f"cleared {when(self.ctx, d.cleared_at)}")
            if d.outcome_label:
                parts.append(f"<b>{e(d.outcome_label)}</b>")
            if d.impoundment_id:
                parts.append(f"impoundment #{d.impoundment_id}")
            if d.follow_up_on:
                parts.append(f"follow-up {day(d.follow_up_on)}")
            html += "<p>" + ", ".join(parts) + "</p>"
        if not v.dispatches:
            html += "<p>No officer sent yet.</p>"
        if v.complaints:
            html += "<h3>Complaints (58-534(a))</h3>"
            for c in v.complaints:
                notified = (
                    f"owner notified {e(c.notified_how_label.lower())} {when(self.ctx, c.notified_at)}"
                    if c.notified_at
                    else "<b>owner not yet notified</b>"
                )
                html += f"<p>#{c.id} from {e(c.complainant)}: {e(c.alleged.rstrip('.'))}; {notified}</p>"
                for p in c.petitions:
                    if p.status == "refused":
                        html += f"<p>&nbsp;&nbsp;Petition of {day(p.received_on)} <b>refused</b>: lacks {e('; '.join(rules.PETITION_PARTS.get(k, k) for k in p.missing))}</p>"
                    else:
                        html += (
                            f"<p>&nbsp;&nbsp;Petition of {day(p.received_on)} accepted, referred to "
                            f"{e(p.referred_to_label)} on {day(p.referred_on)}</p>"
                        )
        if v.citations:
            html += "<h3>Citations (58-534(b))</h3>"
            for t in v.citations:
                money = f"${t.forfeiture}" if t.forfeiture is not None else "warning"
                paid = "paid " + day(t.paid_on) if t.paid_on else ("unpaid" if t.forfeiture else "")
                if t.voided:
                    paid = f"<b>VOID</b> ({e(t.void_reason)})"
                html += (
                    f"<p>#{t.id} {e(t.person)}, {e(t.section)}, {day(t.offence_on)}: offence "
                    f"{t.offence_number}, {money} {paid}<br><small>{e(t.penalty_why)}</small></p>"
                )
        return html

    def history_texts(self) -> list[str]:
        return self.history.texts()

    # -- actions -----------------------------------------------------------

    def _open(self, dialog: QDialog) -> None:
        self.child = dialog
        dialog.saved.connect(self.reload)  # type: ignore[attr-defined]
        dialog.show()

    def reload(self, *_args: object) -> None:
        self.ctx.tasks.run(get_call, self.ctx.db, self.view.id, owner=self, on_done=self.show_view)

    def _on_revise_clicked(self) -> None:
        from ui.calls.call_form import CallForm

        self._open(CallForm(self.ctx, self, self.view))

    def _on_notice_clicked(self) -> None:
        c = self.chosen_complaint()
        if c is not None:
            self._open(act.NoticeDialog(self.ctx, self.view, c, self))

    def _on_petition_clicked(self) -> None:
        c = self.chosen_complaint()
        if c is not None:
            self._open(act.PetitionDialog(self.ctx, self.view, c, self))

    def _on_outcome_clicked(self) -> None:
        self._open(act.OutcomeDialog(self.ctx, self.view, self.view.dispatches[-1], self))

    def _on_recheck_clicked(self) -> None:
        """A new call copied from this one: once per click, however quick the clicks (the
        button waits for the save; a retry with the same key returns the call it made)."""
        if not self.buttons["recheck"].isEnabled():
            return
        self.buttons["recheck"].setEnabled(False)
        self.ctx.tasks.run(
            open_recheck,
            self.ctx.db,
            self.ctx.actor,
            self.view.id,
            client_key=self._recheck_key,
            owner=self,
            on_done=self._on_recheck_opened,
            on_error=self._on_recheck_failed,
        )

    def _on_recheck_failed(self, _exc: BaseException) -> bool:
        self.buttons["recheck"].setEnabled(True)  # the same key: a retry makes no second call
        return False  # the error router says what went wrong

    def _on_citation_sheet_clicked(self) -> None:
        if len(self.view.citations) == 1:
            self.show_document("citation", self.view.citations[0])
        else:
            button = self.buttons["citation_pdf"]
            self.citation_menu.popup(button.mapToGlobal(button.rect().bottomLeft()))

    def show_document(self, kind: str, citation: CitationView | None = None) -> None:
        """The chosen complaint's notice or petition (as received, or blank), or a
        citation's sheet (``citation``; the latest when None), to print."""
        self.ctx.tasks.run(
            _document,
            kind,
            self.view,
            self.chosen_complaint(),
            self.ctx.profile,
            self.ctx.now(),
            citation,
            owner=self,
            on_done=lambda pdf: self.open_in_viewer(
                str(docs.viewing_copy(pdf, f"call-{self.view.id}-{kind}.pdf", self.ctx.db.folder))
            ),
        )

    def _on_recheck_opened(self, v: CallView) -> None:
        self._recheck_key = str(uuid.uuid4())  # made: a further click is a further recheck
        self.buttons["recheck"].setEnabled(True)
        self.reload()
        ui_modules.open_record(self.ctx, "call", "call", v.id, self.parentWidget() or self)

    def open_intake(self) -> QDialog | None:
        """The pound's intake, filled with what the call knows; saved, it is linked back."""
        v = self.view
        d = v.dispatches[-1]
        dialog = ui_modules.new_record(
            self.ctx,
            "impound",
            "impoundment",
            self,
            found_place=v.address + (f", {v.place}" if v.place else ""),
            owner_id=v.owner_id,
            owner_name=v.owner,
            animal_id=v.animal_id,
            officer=d.officer,
            notes=f"From call #{v.id}: {v.description}"
            + (f" Animal: {v.animal}." if v.animal_id is None and v.animal else ""),
        )
        if dialog is None:
            return None
        self.child = dialog
        dialog.saved.connect(  # type: ignore[attr-defined]
            lambda imp: self.ctx.tasks.run(
                link_impoundment,
                self.ctx.db,
                self.ctx.actor,
                d.id,
                d.version,
                imp.id,
                owner=self,
                on_done=self.show_view,
            )
        )
        return dialog
