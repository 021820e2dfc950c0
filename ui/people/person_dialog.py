"""A person's record: details, the animals they own, and the history of changes."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.services.history import record_history
from fieldops.services.people import (
    HOME_STATE,
    PersonInput,
    PersonMatch,
    PersonView,
    PossibleDuplicateError,
    create_person,
    format_address,
    get_person,
    update_person,
)
from ui import modules
from ui.account.gate import gate, refused
from ui.common.cautions import CautionBanner
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.place_history import PlaceHistoryList
from ui.common.table_models import ListTableModel
from ui.common.widgets import RecordTableView
from ui.context import AppContext
from ui.people.columns import OWNED_ANIMAL_COLUMNS


def notes_edit() -> QPlainTextEdit:
    edit = QPlainTextEdit()
    edit.setTabChangesFocus(True)
    edit.setMinimumHeight(56)
    return edit


class PersonDialog(RecordDialog):
    """Create or edit a person; once saved, their animals can be opened and added."""

    def __init__(
        self, ctx: AppContext, person: PersonView | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, "New person", parent)
        gate(ctx, self.save_button, Permission.RECORDS)  # the service refuses too
        self.setObjectName("PersonDialog")
        self.resize(1020, 600)  # the history reads whole
        self._person = person
        self._match: PersonMatch | None = None
        self.cautions = CautionBanner(ctx)  # on the person or at their address, if any
        self.body.addWidget(self.cautions)
        self.body.addWidget(self._build_match_panel())
        self.tabs = QTabWidget()
        self.body.addWidget(self.tabs)
        self.tabs.addTab(self._build_details(), "&Details")
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.tabs.addTab(self.history_view, "&History")
        # Every module's records of the person or at their address, newest first.
        self.records = PlaceHistoryList(ctx, empty="Nothing on record for this person.")
        self.tabs.addTab(self.records, "Records on fi&le")
        QWidget.setTabOrder(self.notes, self.animals_view)
        QWidget.setTabOrder(self.animals_view, self.open_animal_button)
        QWidget.setTabOrder(self.open_animal_button, self.new_animal_button)
        ctx.bus.changed.connect(self._on_bus_changed)
        self._show_person(person)
        self.full_name.setFocus()

    def _build_details(self) -> QWidget:
        page = QWidget()
        row = QHBoxLayout(page)
        form = form_layout()
        self.fields = FormFields(form)
        add = self.fields.add
        self.full_name = add("full_name", "&Name:", QLineEdit())
        self.address = add("address", "Add&ress:", QLineEdit())
        self.city = add("city", "Cit&y:", QLineEdit())
        self.state = add(
            "state",
            "S&tate:",
            QLineEdit(),
            hint="Two letters, e.g. WI; another state for someone living elsewhere.",
        )
        self.state.setMaxLength(2)
        self.state.setMaximumWidth(60)
        self.postal_code = add("postal_code", "&ZIP code:", QLineEdit())
        self.postal_code.setMaximumWidth(140)
        self.in_city = add("in_city", "", QCheckBox("Lives &inside the city limits"))
        self.phone = add("phone", "&Phone:", QLineEdit())
        self.email = add("email", "&E-mail:", QLineEdit())
        self.is_veterinarian = add("is_veterinarian", "", QCheckBox("&Veterinarian"))
        self.notes = add("notes", "N&otes:", notes_edit())
        row.addLayout(form, 3)
        row.addSpacing(16)
        row.addLayout(self._build_animals(), 2)
        return page

    def _build_match_panel(self) -> QWidget:
        """Shown when someone with the same name and address is already on file."""
        self.match_panel = QWidget()
        self.match_panel.setObjectName("MatchPanel")
        row = QHBoxLayout(self.match_panel)
        row.setContentsMargins(0, 0, 0, 0)
        self.match_text = QLabel()
        self.match_text.setWordWrap(True)
        self.use_existing_button = QPushButton("&Use the existing record")
        self.save_anyway_button = QPushButton("Save as a di&fferent person")
        self.save_anyway_button.setToolTip(
            "Someone else with the same name lives at this "
            "address: save a second record deliberately"
        )
        for b in (self.use_existing_button, self.save_anyway_button):
            b.setAutoDefault(False)
        row.addWidget(self.match_text, 1)
        row.addWidget(self.use_existing_button)
        row.addWidget(self.save_anyway_button)
        self.use_existing_button.clicked.connect(self._on_use_existing_button_clicked)
        self.save_anyway_button.clicked.connect(self._on_save_anyway_button_clicked)
        self.match_panel.hide()
        return self.match_panel

    def _build_animals(self) -> QVBoxLayout:
        column = QVBoxLayout()
        caption = QLabel("Ani&mals owned:")
        caption.setObjectName("SectionHeading")
        self.animals_model = ListTableModel(OWNED_ANIMAL_COLUMNS, parent=self)
        self.animals_view = RecordTableView()
        self.animals_view.setModel(self.animals_model)
        caption.setBuddy(self.animals_view)
        self.animals_note = QLabel()
        self.animals_note.setObjectName("FieldHint")
        self.animals_note.setWordWrap(True)
        buttons = QHBoxLayout()
        self.open_animal_button = QPushButton("Open &animal")
        self.new_animal_button = QPushButton("Ne&w animal for this person…")
        for b in (self.open_animal_button, self.new_animal_button):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        buttons.addStretch(1)
        column.addWidget(caption)
        column.addWidget(self.animals_view, 1)
        column.addWidget(self.animals_note)
        column.addLayout(buttons)
        self.animals_view.opened.connect(self._on_animals_view_opened)
        self.open_animal_button.clicked.connect(self._on_open_animal_button_clicked)
        self.new_animal_button.clicked.connect(self._on_new_animal_button_clicked)
        return column

    # -- showing ---------------------------------------------------------

    def person(self) -> PersonView | None:
        return self._person

    def _show_person(self, p: PersonView | None) -> None:
        self._person = p
        saved = p is not None
        self.setWindowTitle(f"{p.full_name} — person #{p.id}" if p else "New person")
        self.full_name.setText(p.full_name if p else "")
        self.address.setText(p.address if p else "")
        self.city.setText(p.city if p else "")
        self.state.setText(p.state if p else HOME_STATE)
        self.postal_code.setText(p.postal_code if p else "")
        self.in_city.setChecked(p.in_city if p else True)
        self.phone.setText(p.phone if p else "")
        self.email.setText(p.email if p else "")
        self.is_veterinarian.setChecked(p.is_veterinarian if p else False)
        self.notes.setPlainText(p.notes if p else "")
        self._show_animals(p)
        self.tabs.setTabEnabled(1, saved)
        self.tabs.setTabEnabled(2, saved)
        self._show_match(None)
        if p is not None:
            self._load_history()
            self.records.load_person(p.id)
            self.cautions.load((p.id,), (format_address(p.address, p.city),))

    def _show_animals(self, p: PersonView | None) -> None:
        self.animals_model.set_rows(p.animals if p else ())
        self.animals_view.setEnabled(p is not None)
        self.open_animal_button.setEnabled(bool(p and p.animals))
        gate(self.ctx, self.new_animal_button, Permission.RECORDS, p is not None)
        if p is None:
            self.animals_note.setText("Save the person first; then you can add their animals.")
        elif not p.animals:
            self.animals_note.setText("No animals registered to this person.")
        else:
            self.animals_note.setText("")

    def _load_history(self) -> None:
        assert self._person is not None
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "person",
            self._person.id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history_model.set_rows,
        )

    def _show_match(self, match: PersonMatch | None) -> None:
        self._match = match
        self.match_panel.setVisible(match is not None)
        if match is not None:
            where = match.address or "no address recorded"
            self.match_text.setText(
                f"An existing record matches: {match.full_name}, {where}"
                f"{', ' + match.phone if match.phone else ''} "
                f"(person #{match.id})."
            )

    # -- saving ----------------------------------------------------------

    def read_input(self) -> PersonInput:
        return PersonInput(
            full_name=self.full_name.text(),
            address=self.address.text(),
            city=self.city.text(),
            state=self.state.text(),
            postal_code=self.postal_code.text(),
            in_city=self.in_city.isChecked(),
            phone=self.phone.text(),
            email=self.email.text(),
            is_veterinarian=self.is_veterinarian.isChecked(),
            clinic_id=self._person.clinic_id if self._person else None,
            notes=self.notes.toPlainText(),
        )

    def save(self, *, allow_duplicate: bool = False) -> None:
        if refused(self.ctx, self.banner, Permission.RECORDS):
            return
        ctx, p = self.ctx, self._person
        if p is None:
            self.save_with(
                create_person,
                ctx.db,
                ctx.actor,
                self.read_input(),
                allow_duplicate=allow_duplicate,
                client_key=self.client_key,
            )
        else:
            self.save_with(
                update_person,
                ctx.db,
                ctx.actor,
                p.id,
                self.read_input(),
                expected_version=p.version,
            )

    def _on_record_saved(self, view: PersonView) -> None:
        self._show_person(view)
        self.ctx.bus.changed.emit("person", view.id)

    def _on_save_failed(self, exc: BaseException) -> bool:
        handled = super()._on_save_failed(exc)
        if isinstance(exc, PossibleDuplicateError):
            self._show_match(exc.matches[0])
            self.use_existing_button.setFocus()
        return handled

    # -- slots -----------------------------------------------------------

    def _on_use_existing_button_clicked(self) -> None:
        if self._match is not None:
            self.ctx.tasks.run(
                get_person,
                self.ctx.db,
                self._match.id,
                owner=self,
                on_done=self._on_existing_loaded,
            )

    def _on_existing_loaded(self, view: PersonView) -> None:
        # What was typed is replaced by the record on file: nothing new was saved.
        self._show_person(view)
        self.mark_clean()
        self.banner.show_note(
            f"This is the existing record of {view.full_name}; nothing new was saved."
        )
        self.saved.emit(view)

    def _on_save_anyway_button_clicked(self) -> None:
        if not self.is_saving():
            self.save(allow_duplicate=True)

    def _on_animals_view_opened(self, row: int) -> None:
        animal = self.animals_model.row_object(row)
        if animal is not None:
            modules.open_record(self.ctx, "registry", "animal", animal.id, self)

    def _on_open_animal_button_clicked(self) -> None:
        self._on_animals_view_opened(max(self.animals_view.current_row(), 0))

    def _on_new_animal_button_clicked(self) -> None:
        if self._person is not None:
            modules.new_record(
                self.ctx,
                "registry",
                "animal",
                self,
                owner=(self._person.id, self._person.full_name),
            )

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity == "animal" and self._person is not None:
            self.ctx.tasks.run(
                get_person,
                self.ctx.db,
                self._person.id,
                owner=self,
                on_done=self._on_person_reloaded,
            )

    def _on_person_reloaded(self, view: PersonView) -> None:
        # Only the list: the form may hold edits not yet saved.
        self._show_animals(view)
