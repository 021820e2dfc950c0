"""A citation issued from a call: each day of a continuing violation is its own offence
(58-534(b))."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import partial

from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from fieldops.errors import ValidationError
from fieldops.rules import Penalty
from fieldops.rules import calls as rules
from fieldops.services.calls.citations import CitationInput, cite, quote
from fieldops.services.calls.views import CallView
from ui.calls.action_dialogs import CallActionDialog, _date_edit
from ui.common.forms import combo
from ui.common.text import day, money
from ui.common.widgets import OptionalDateEdit, date_of
from ui.context import AppContext

Key = tuple[str, tuple[date, ...]]  # a quote's section and days

SHOWN_DAYS = 10  # a long violation: its first days, then the rest summed


def quote_words(key: Key, penalties: tuple[Penalty, ...]) -> str:
    """Each day's offence and forfeiture, and what they come to."""
    days = key[1]
    lines = []
    for d, p in list(zip(days, penalties, strict=True))[:SHOWN_DAYS]:
        if p.forfeiture is None:
            charge = "a warning, no forfeiture"
        else:
            charge = money(p.forfeiture) + (" plus court costs" if p.plus_court_costs else "")
        lines.append(f"{day(d)}: offence {p.offence_number}, {charge}")
    if len(days) > SHOWN_DAYS:
        lines.append(f"and {len(days) - SHOWN_DAYS} more days, each its own offence")
    total = sum((p.forfeiture for p in penalties if p.forfeiture is not None), Decimal(0))
    if len(days) > 1:
        costs = " plus court costs" if any(p.plus_court_costs for p in penalties) else ""
        lines.append(f"In all: {money(total)}{costs}")
    return "\n".join(lines)


class CitationDialog(CallActionDialog):
    """A citation: each day of a continuing violation is its own offence (58-534(b))."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Citation", parent)
        self.setObjectName("CitationDialog")
        self.save_button.setText("&Issue")
        add = self.fields.add
        self.person_id = call.owner_id
        self.person = add(
            "person_id", "Person cited:", QLineEdit(call.owner or "(choose the owner on the call)")
        )
        self.person.setReadOnly(True)
        sections = rules.citable_sections(ctx.profile)
        self.section = add("section", "&Section:", combo({s: s for s in sections}))
        if call.section in sections:
            self.section.setCurrentIndex(self.section.findData(call.section))
        today = ctx.now().astimezone(ctx.timezone).date()
        self.first_day = add("days", "&First day:", _date_edit(today))
        self.last_day = add("last_day", "&Last day:", _date_edit(today))
        self.court_on = OptionalDateEdit("&No court date yet")
        self.court_on.set_default_date(today)
        add("court_on", "Co&urt date:", self.court_on)
        self.issued_by = add(
            "issued_by", "Issued &by:", QLineEdit(ctx.actor.full_name or ctx.actor.username)
        )
        # What each day will be charged, from the ladder (``citations.quote``), asked again
        # whenever the section or the days change.
        self.quote = add("quote", "Forfeiture:", QLabel())
        self.quote.setObjectName("CitationQuote")
        self.quote.setWordWrap(True)
        self._quoted: tuple[Key, tuple[Penalty, ...]] | None = None
        self._confirm_for: Key | None = None  # Issue pressed: its quote is being asked
        self._fresh: Key | None = None  # the quote just asked for Issue
        self.section.currentIndexChanged.connect(self._ask_quote)
        self.first_day.dateChanged.connect(self._ask_quote)
        self.last_day.dateChanged.connect(self._ask_quote)
        self._ask_quote()

    def _key(self) -> Key:
        return (self.section.currentData() or "", self.days())

    def _ask_quote(self, *_args: object) -> None:
        key = self._key()
        if self.person_id is None or not key[1]:
            self.quote.setText("")
            return
        if self._quoted is not None and self._quoted[0] == key:
            self._show_quote(quote_words(*self._quoted))
            return
        self._show_quote("Working out the forfeiture…")
        self._request_quote(key)

    def _show_quote(self, text: str) -> None:
        self.quote.setText(text)
        wanted = self.sizeHint().height()
        if self.isVisible() and wanted > self.height():  # grown to show every line, never shrunk
            self.resize(self.width(), wanted)

    def _request_quote(self, key: Key) -> None:
        assert self.person_id is not None
        self.ctx.tasks.run(
            quote,
            self.ctx.db,
            self.person_id,
            key[0],
            key[1],
            self.ctx.profile,
            owner=self,
            on_done=partial(self._on_quote_done, key),
            on_error=self._on_quote_failed,
        )

    def _on_quote_done(self, key: Key, penalties: tuple[Penalty, ...]) -> None:
        self._quoted = (key, penalties)
        if key != self._key():
            return  # the section or the days changed meanwhile: their own quote is asked
        self._show_quote(quote_words(key, penalties))
        self.quote.setToolTip("\n".join(dict.fromkeys(p.why for p in penalties)))  # the ladder
        if self._confirm_for == key:
            self._confirm_for, self._fresh = None, key
            self._on_save_button_clicked()  # asked now, with what will be charged

    def _on_quote_failed(self, _exc: BaseException) -> bool:
        self._confirm_for = None
        self.quote.setText("The forfeiture could not be worked out: nothing was issued.")
        return False  # the error router says why

    def days(self) -> tuple[date, ...]:
        """Each day from the first to the last; none when the last is before the first."""
        first, last = date_of(self.first_day.date()), date_of(self.last_day.date())
        return tuple(date.fromordinal(d) for d in range(first.toordinal(), last.toordinal() + 1))

    def confirm_save(self) -> bool:
        if not self.days():  # the form's own two boxes: nothing to ask the service
            self._on_save_failed(
                ValidationError({"last_day": "The last day cannot be before the first day."})
            )
            return False
        key = self._key()
        charged = " "
        if self.person_id is not None:
            if self._fresh != key or self._quoted is None or self._quoted[0] != key:
                # Asked again from the ladder (another citation of the person may have come
                # in), and the question waits for it: the officer sees what will be charged.
                self._confirm_for = key
                self._request_quote(key)
                return False
            self._fresh = None
            charged = f"\n\n{quote_words(*self._quoted)}\n\n"
        n = len(key[1])
        return self.ctx.errors.confirm(
            f"Issue {n} citation{'s' if n != 1 else ''} under {key[0]} (one for each day)?"
            f"{charged}"
            "A citation is final.",
            "&Issue",
            "&Keep editing",
            self,
        )

    def save(self) -> None:
        self.save_with(
            cite,
            self.ctx.db,
            self.ctx.actor,
            CitationInput(
                self.person_id,
                self.section.currentData(),
                self.days(),
                self.issued_by.text(),
                call_id=self.call.id,
                address=self.call.address,
                description=self.call.description,
                court_on=self.court_on.value(),
            ),
            self.ctx.profile,
        )
