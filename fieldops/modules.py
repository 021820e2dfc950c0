"""The seam every module plugs into: what a module contributes, and the installed modules.

A module (the pound, later bite quarantines, vicious animals, licences and
permits, field calls, supervisor reports) is a package of its own files and
one ``Module`` value naming what it contributes:

- ``release_blocks(session, animal_id, release)``: the module's conditions on
  releasing an impounded animal, as rules ``Requirement`` values (code, label,
  section, satisfied or not, evidence text). The release services add them to
  the pound's own requirements and list them without knowing the module; a
  supervisor may override the ones marked ``overridable``.
- ``release_charges(session, animal_id, release)``: what the module says is owed
  before the animal is released (``ChargeLine`` values: a stable code, words, the
  amount and what has been paid against it). The pound adds them to its fees, its
  payment lines settle them by code, and its release is refused while they are unpaid.
- ``licence_on_record(session, animal_id, year)``: the dog's licence on record for
  licence ``year`` (issued and in force, not voided), in words for the release's
  evidence ("26-0007 (2026)"), or None. The pound's release reads
  the licence fact here (58-526(b)(1)c, (b)(2)d) without knowing the licences module.
- ``due_items(db, day, profile)``: what is due on ``day``, as ``DueItem``
  values; ``fieldops due`` and the Today page merge every module's items.
  ``categories`` names the module's category codes (prefixed with the module's
  key, e.g. ``impound.hold_ends_today``) and their labels, in working order.
- ``today_items(db, day, profile)``: what the Today page shows of the module instead
  of its ``due_items``, when one item a record would be thousands a day (dog
  licences to renew: one line a category with its count, opening the module's list).
  ``fieldops due`` still lists ``due_items``, one item a record, for a script.
- ``demo(demo)``: demo data, written after the shared people and animals.
- ``checks(conn)``: integrity problems in words, for ``fieldops check``.
- ``kept_tables``: its tables kept by triggers from the module's own rows (counts,
  what is still to send), table name -> its check ``check(conn)`` on an SQLAlchemy
  ``Connection``: the kept rows against their sources, problems in words (``[]``
  when in step). ``fieldops migrate-to`` does not copy them (the target's triggers
  fill them from the rows copied) and runs each check on the copy before committing;
  ``fieldops check`` runs each check too (``kept_tables()``).
- ``reports``: the record reports it prints (``ReportKind``: a name for
  ``fieldops report NAME``, the rows for CSV and the PDF), found by name.
- ``activity(db, start, end)``: its part of the activity summary
  (``ActivitySection`` values: counts for the period, each beside the same
  period a year earlier, aggregated in SQL).
- ``incidents(session, animal_id)``: what the animal did on record in the
  module (a bite report), as ``Incident`` values another module's record may
  rest on by (module, kind, id) without reading the module's tables (a
  vicious-animal declaration's incidents).
- ``self_test``: its steps of ``fieldops --self-test`` (``SelfTestStep``: create one
  record of each of its kinds through its services, read it back, print it), run
  after the shared person and animal are made (fieldops/selftest.py).
- ``places(session, person_ids, address)``: the module's records of any of these
  people or at this address (``address_key`` of ``fieldops.rules.calls``), as
  ``Incident`` values: what an officer reads before knocking (the calls module's
  history by address and by owner).
- ``cautions(session, person_ids, address)``: the cautions for officers the module
  keeps on any of these people or on this address (a dog that has attacked, a
  resident who threatened an officer), as ``Caution`` values naming the flag by
  (module, kind, id); ``cautions_for`` merges every module's, and every record's
  view shows them (``ui/common/cautions.py``) before anything else.

Adding a module is its new files plus one line in ``INSTALLED`` (and, for its
screens, one line in ``ui.modules.INSTALLED`` naming a file whose ``OPENERS``
open its records by kind):

1. its ordinance facts in ``fieldops/rules/`` (a block is a rules function
   returning a ``Requirement``, as ``open_quarantine_block``);
2. its tables through the migration chain, its services in
   ``fieldops/services/``;
3. a file with ``MODULE = Module("key", "Title", ...)`` naming its
   contributions, listed here (``fieldops/services/quarantine/module.py`` is one).

Nothing is imported until a module is first asked for
(``installed_modules()``), so the command line stays quick and the rules stay
light. A test installs a module of its own with ``with modules.extra(fake):``
(or the ``install`` fixture); one with an installed key takes that one's place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Self

# The reports' and the activity summary's types, re-exported: every module imports
# them from here.
from fieldops.module_reports import (
    ActivityFigure as ActivityFigure,
)
from fieldops.module_reports import (
    ActivitySection as ActivitySection,
)
from fieldops.module_reports import (
    ReportKind as ReportKind,
)
from fieldops.module_reports import (
    ReportOutput as ReportOutput,
)
from fieldops.module_reports import (
    ReportRequest as ReportRequest,
)
from fieldops.module_reports import (
    ReportTable as ReportTable,
)
from fieldops.module_reports import (
    Withheld as Withheld,
)
from fieldops.module_reports import (
    year_earlier as year_earlier,
)

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules import Profile, Requirement

INSTALLED: tuple[str, ...] = (
    "fieldops.services.pound",
    "fieldops.services.quarantine.module",  # bite quarantines (58-527)
    "fieldops.services.vicious.module",  # vicious animals (58-524)
    "fieldops.services.calls.module",  # field calls, complaints, citations (58-534)
    "fieldops.services.licences.module",  # dog licences (58-533(c))
    "fieldops.services.permits.module",  # chicken and animal fancier's permits (58-533)
    "fieldops.services.summary",  # the activity summary of every module's figures
)
"""Where the installed modules are: ``package.file`` (its ``MODULE``) or ``package.file:NAME``.
The order is that of the release checklist's module rows and of the Today page."""


@dataclass(frozen=True)
class ReleaseCase:
    """The release being considered, as much as a module needs to decide its block.

    ``kind`` is "reclaimed" (to the owner), "adopted" (to someone else) or
    "transferred" (to a shelter or rescue). ``recipient_in_city`` is True when
    the recipient is not known (a transfer)."""

    kind: str
    to_owner: bool
    recipient_in_city: bool
    species: str
    at: datetime
    profile: Profile | None = None  # the jurisdiction's, for a module that counts days or fees


@dataclass(frozen=True)
class ChargeLine:
    """One amount a module says is owed before an impounded animal is released.

    ``code`` is stable and prefixed with the module's key ("quarantine:12:exams"); a
    payment line naming it settles it. ``kind`` is the payment kind a line paying it
    records ("boarding", "other"). ``paid`` is what has been paid against ``code``."""

    code: str
    label: str
    amount: Decimal
    kind: str = "other"
    paid: Decimal = Decimal("0.00")


_MAKERS: dict[type, Callable[..., Any]] = {}


def _maker(cls: type) -> Callable[..., Any]:
    """``cls``'s maker (``DueItem.maker``), written once a class as dataclasses write an
    ``__init__``: a keyword-only signature of its fields with their defaults, so that
    Python itself refuses an unknown or a missing field, and one assignment of the
    instance's whole ``__dict__``."""
    found = _MAKERS.get(cls)
    if found is None:
        every = [f for f in fields(cls) if f.init]
        if any(f.default_factory is not MISSING for f in every):
            raise TypeError(f"{cls.__name__}: DueItem.maker takes plain defaults only")
        if hasattr(cls, "__post_init__"):  # the maker would skip its checks
            raise TypeError(f"{cls.__name__}: DueItem.maker builds no __post_init__ class")
        given = ", ".join(
            f.name if f.default is MISSING else f"{f.name}=_default_{f.name}" for f in every
        )
        values = ", ".join(f"{f.name!r}: {f.name}" for f in every)
        scope: dict[str, Any] = {
            "_new": object.__new__,
            "_set": object.__setattr__,
            "_cls": cls,
            **{f"_default_{f.name}": f.default for f in every if f.default is not MISSING},
        }
        exec(  # code written here from the class's own field names, nothing else
            f"def make(*, {given}):\n"
            f"    item = _new(_cls)\n"
            f"    _set(item, '__dict__', {{{values}}})\n"
            f"    return item\n",
            scope,
        )
        found = _MAKERS[cls] = scope["make"]
    return found


@dataclass(frozen=True)
class DueItem:
    """One thing due on a day, from any module.

    ``module`` is the module's key and ``kind``/``record_id`` the record the
    item is about (the UI opens it by these three). ``due`` is a local date or
    an aware instant. ``category`` is a code prefixed with the module's key
    (``impound.hold_ends_today``), ``category_label`` its words. ``overdue``
    items come first on Today; ``sort_key`` orders a module's items among
    themselves (the module's working order). ``officer`` is the officer whose work
    the item is, as the record names them (a login or a name; "" for the counter's
    work): the officer's day lists an officer's own.
    """

    module: str
    kind: str
    record_id: int
    due: date | datetime
    category: str
    category_label: str
    text: str
    overdue: bool = False
    sort_key: tuple[object, ...] = ()
    officer: str = ""

    @classmethod
    def maker(cls) -> Callable[..., Self]:
        """A function building this class's items by keyword, ``make(module=..., ...)``:
        the value ``cls(...)`` gives, refusing what it refuses, built without the frozen
        dataclass's ``object.__setattr__`` call a field (0.6 us an item against 1.5 us
        here; Today builds 3,940 at 1,000,000 impoundments)."""
        return _maker(cls)

    def due_day(self) -> date:
        return self.due.date() if isinstance(self.due, datetime) else self.due

    def as_json(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "kind": self.kind,
            "id": self.record_id,
            "category": self.category,
            "category_label": self.category_label,
            "text": self.text,
            "due": self.due.isoformat(),
            "overdue": self.overdue,
            "officer": self.officer,
        }


@dataclass(frozen=True)
class CountedDueItem(DueItem):
    """A Today line standing for ``count`` records (a module's ``today_items``: the dogs
    of a renewal list, the permits expiring), which opens the module's list of them."""

    count: int = 1

    def as_json(self) -> dict[str, Any]:
        return super().as_json() | {"count": self.count}


# Up to this many records a category, a module's ``today_items`` lists them one by one
# on Today (a small town, the last stragglers: each line opens its record); above it,
# one ``CountedDueItem`` with the count.
TODAY_EACH_UP_TO = 10


@dataclass(frozen=True)
class Demo:
    """What a module's demo data is written with: the shared records already made."""

    db: Any  # fieldops.db.engine.Database
    actor: Any  # fieldops.services.context.Actor
    rng: Any  # random.Random, shared so that one seed gives the same data
    anchor: date
    profile: Profile
    people: Sequence[Any]  # PersonView
    animals: Sequence[Any]  # AnimalView


@dataclass(frozen=True)
class Incident:
    """Something an animal did, on record in a module: ``module``/``kind``/``record_id``
    name the record (the UI opens it by these three), ``when`` is aware, ``summary`` says
    what it is in words fit for a document served on the owner (no victim's details)."""

    module: str
    kind: str
    record_id: int
    when: datetime
    place: str
    summary: str


@dataclass(frozen=True)
class Caution:
    """A caution for officers standing on a person or an address, from any module.

    ``text`` is the caution in words as a record shows it (who or where it is on, and
    the reason); ``reason``, ``set_by`` and ``set_at`` (aware) are the flag's own;
    ``module``/``kind``/``record_id`` name the flag."""

    module: str
    kind: str
    record_id: int
    text: str
    reason: str
    set_by: str
    set_at: datetime


@dataclass(frozen=True)
class SelfTestKit:
    """What a module's self-test steps work with: the database, a writer allowed every
    step, the profile, and ``made``: what earlier steps made, by name ("person",
    "animal": the shared ``PersonView`` and ``AnimalView``; a step may add its own)."""

    db: Any  # fieldops.db.engine.Database
    actor: Any  # fieldops.services.context.Actor
    profile: Profile
    made: dict[str, Any]


@dataclass(frozen=True)
class SelfTestResult:
    """What one step made, read back from the database: ``summary`` in words (one line),
    and ``pdf``, the record's document printed from what was read (None: printed by a
    later step, said in the summary)."""

    summary: str
    pdf: bytes | None = None


@dataclass(frozen=True)
class SelfTestStep:
    """One step of ``fieldops --self-test``: ``name`` is the kind of record it makes
    ("impoundment"), ``run`` makes it through the services and reads it back, or raises."""

    name: str
    run: Callable[[SelfTestKit], SelfTestResult]


@dataclass(frozen=True)
class Module:
    """What one module contributes; every contribution is optional."""

    key: str  # the prefix of its category codes, and the module in (module, kind, id)
    title: str  # for people: "Pound", "Bite quarantines"
    release_blocks: Callable[[Any, int, ReleaseCase], Sequence[Requirement]] | None = None
    release_charges: Callable[[Any, int, ReleaseCase], Sequence[ChargeLine]] | None = None
    # (session, animal_id, licence year) -> the licence on record that year, in words, or None.
    licence_on_record: Callable[[Any, int, int], str | None] | None = None
    due_items: Callable[[Any, date, Profile], Sequence[DueItem]] | None = None
    # What Today shows instead of ``due_items``, when one item a record would be thousands.
    today_items: Callable[[Any, date, Profile], Sequence[DueItem]] | None = None
    categories: Mapping[str, str] = field(default_factory=dict)
    demo: Callable[[Demo], str] | None = None  # returns a summary fragment, or ""
    checks: Callable[[Any], Sequence[str]] | None = None  # an SQLAlchemy connection
    # Its tables kept by triggers from its rows, name -> their check (a connection ->
    # problems in words): not copied by migrate-to; checked by it and ``fieldops check``.
    kept_tables: Mapping[str, Callable[[Any], Sequence[str]]] = field(default_factory=dict)
    # Its audit actions in words for every record's history: action (or "entity:action")
    # -> fieldops.services.history.EventKind.
    event_kinds: Mapping[str, Any] = field(default_factory=dict)
    reports: Sequence[ReportKind] = ()
    # Its tables the database refuses to UPDATE or DELETE (triggers from its migration),
    # which ``fieldops check`` verifies are in place.
    append_only: tuple[str, ...] = ()
    # (db, start, end) -> its sections of the activity summary; end is included.
    activity: Callable[[Any, date, date], Sequence[ActivitySection]] | None = None
    # (session, animal_id) -> the animal's incidents on record in the module.
    incidents: Callable[[Any, int], Sequence[Incident]] | None = None
    # Its steps of ``fieldops --self-test``, in order (fieldops/selftest.py).
    self_test: Sequence[SelfTestStep] = ()
    # (session, person ids, address) -> its records of those people or at that address.
    places: Callable[[Any, tuple[int, ...], str], Sequence[Incident]] | None = None
    # (session, person ids, address) -> its standing cautions on those people or that address.
    cautions: Callable[[Any, tuple[int, ...], str], Sequence[Caution]] | None = None


_loaded: tuple[Module, ...] | None = None
_extra: list[Module] = []


def _load(where: str) -> Module:
    path, _, name = where.partition(":")
    module = getattr(importlib.import_module(path), name or "MODULE")
    if not isinstance(module, Module):
        raise TypeError(f"{path}.{name} is not a fieldops.modules.Module")
    return module


def installed_modules() -> tuple[Module, ...]:
    """Every installed module, in ``INSTALLED`` order, then any added with ``extra``."""
    global _loaded
    if _loaded is None:
        _loaded = tuple(_load(p) for p in INSTALLED)
    out = list(_loaded)
    for m in _extra:
        keys = [x.key for x in out]
        if m.key in keys:
            out[keys.index(m.key)] = m
        else:
            out.append(m)
    return tuple(out)


@contextmanager
def extra(*added: Module) -> Iterator[None]:
    """Install ``added`` for the duration of the block (tests, trying a module out).

    A module whose key is already installed takes that module's place, as the
    real bite-quarantine module will take the placeholder's line in ``INSTALLED``."""
    _extra.extend(added)
    try:
        yield
    finally:
        for m in added:
            _extra.remove(m)


def module_title(key: str) -> str:
    return next((m.title for m in installed_modules() if m.key == key), key)


def categories() -> dict[str, str]:
    """Every installed module's due categories, code -> label, in working order."""
    out: dict[str, str] = {}
    for m in installed_modules():
        out.update(m.categories)
    return out


def merge_due(items: Sequence[DueItem]) -> tuple[DueItem, ...]:
    """Every module's items in one list: overdue first (earliest due first), then each
    module's other items, modules in installed order, each in its own working order."""
    order = {m.key: i for i, m in enumerate(installed_modules())}
    last = len(order)

    def key(i: DueItem) -> tuple[object, ...]:
        due = i.due  # ``due_day()``, inline: this runs for each of thousands of items
        day = due.date() if isinstance(due, datetime) else due
        if i.overdue:
            return (0, day, order.get(i.module, last), i.sort_key, i.record_id)
        return (1, order.get(i.module, last), i.sort_key, day, i.record_id)

    return tuple(sorted(items, key=key))


def due_items(db: Any, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """What every installed module has due on ``day`` (local date), merged."""
    items: list[DueItem] = []
    for m in installed_modules():
        if m.due_items is not None:
            items.extend(m.due_items(db, day, profile))
    return merge_due(items)


def release_blocks(
    session: Any, animal_id: int, release: ReleaseCase
) -> list[tuple[str, Requirement]]:
    """Every installed module's conditions on this release, as (module key, requirement),
    in installed order."""
    out: list[tuple[str, Requirement]] = []
    for m in installed_modules():
        if m.release_blocks is not None:
            out.extend((m.key, r) for r in m.release_blocks(session, animal_id, release))
    return out


def release_charges(session: Any, animal_id: int, release: ReleaseCase) -> list[ChargeLine]:
    """Every installed module's charges owed before this release, in installed order."""
    out: list[ChargeLine] = []
    for m in installed_modules():
        if m.release_charges is not None:
            out.extend(m.release_charges(session, animal_id, release))
    return out


def licences_kept() -> bool:
    """Whether an installed module keeps dog licences (else the registry's field is all)."""
    return any(m.licence_on_record is not None for m in installed_modules())


def licence_on_record(session: Any, animal_id: int, year: int) -> str | None:
    """The dog's licence on record for licence ``year`` (the first module that keeps
    licences and has one), in words; None when no installed module has one."""
    for m in installed_modules():
        if m.licence_on_record is not None:
            found = m.licence_on_record(session, animal_id, year)
            if found is not None:
                return found
    return None


def report_kinds() -> tuple[ReportKind, ...]:
    """Every installed module's reports, in installed order."""
    return tuple(r for m in installed_modules() for r in m.reports)


def report_kind(name: str) -> ReportKind | None:
    """The report called ``name`` (or one of its aliases), or None."""
    for r in report_kinds():
        if name == r.name or name in r.aliases:
            return r
    return None


def activity_sections(db: Any, start: date, end: date) -> tuple[ActivitySection, ...]:
    """Every installed module's sections of the activity summary, in installed order."""
    out: list[ActivitySection] = []
    for m in installed_modules():
        if m.activity is not None:
            out.extend(m.activity(db, start, end))
    return tuple(out)


def animal_incidents(session: Any, animal_id: int) -> tuple[Incident, ...]:
    """Every installed module's incidents of the animal, earliest first."""
    out: list[Incident] = []
    for m in installed_modules():
        if m.incidents is not None:
            out.extend(m.incidents(session, animal_id))
    return tuple(sorted(out, key=lambda i: (i.when, i.module, i.kind, i.record_id)))


def place_records(session: Any, person_ids: tuple[int, ...], address: str) -> tuple[Incident, ...]:
    """Every installed module's records of these people or at this address, newest first."""
    out: list[Incident] = []
    for m in installed_modules():
        if m.places is not None:
            out.extend(m.places(session, person_ids, address))
    return tuple(sorted(out, key=lambda i: (i.when, i.module, i.record_id), reverse=True))


def cautions_for(session: Any, person_ids: Sequence[int], address: str) -> tuple[Caution, ...]:
    """Every installed module's standing cautions on any of these people or on this
    address, each flag once, oldest first."""
    found: dict[tuple[str, str, int], Caution] = {}
    people = tuple(dict.fromkeys(person_ids))
    for m in installed_modules():
        if m.cautions is not None:
            for c in m.cautions(session, people, address):
                found.setdefault((c.module, c.kind, c.record_id), c)
    return tuple(sorted(found.values(), key=lambda c: (c.set_at, c.module, c.kind, c.record_id)))


def append_only_tables() -> tuple[str, ...]:
    """Every installed module's append-only tables, in installed order."""
    return tuple(t for m in installed_modules() for t in m.append_only)


def kept_tables() -> dict[str, Callable[[Any], Sequence[str]]]:
    """Every installed module's kept tables, name -> check, in installed order.

    Raises ``ValueError`` when two modules claim one table: each is kept by one module's
    triggers, and its check would otherwise be run (and its problems said) twice."""
    out: dict[str, Callable[[Any], Sequence[str]]] = {}
    owner: dict[str, str] = {}
    for m in installed_modules():
        for name, check in m.kept_tables.items():
            if name in owner:
                raise ValueError(f"{name} is kept by both {owner[name]} and {m.key}")
            out[name], owner[name] = check, m.key
    return out
