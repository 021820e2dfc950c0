"""``fieldops --self-test``: one record of each kind made, read back and printed.

Against a database of its own, it creates through the services (validated and
audited, as a clerk's save) a person and an animal, then every installed module's
records (``Module.self_test``: the pound's impoundment, payment and release, a bite
report, its quarantine and an exam, a vicious-animal case and its notice, and each
module's as it is installed), reads each back from the database, prints its document
to a temporary folder and checks that every page of it carries text. One line per
step; the first failure is one line naming the step, with the exit status of
fieldops/failures.py's map (a bug: 70).

Which database: without ``--db``, a new temporary one, removed afterwards, so a
self-test after an install never writes test records into the register a pound
keeps. With ``--db``, that database: created when the file does not exist, and
refused when it already holds people (the self-test's records are test data).
"""

from __future__ import annotations

import base64
import re
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from fieldops import __version__, failures
from fieldops.errors import UserError
from fieldops.modules import SelfTestKit, SelfTestResult, SelfTestStep, installed_modules

if TYPE_CHECKING:
    from fieldops.db.engine import Database
    from fieldops.rules import Profile
    from fieldops.services.context import Actor


class SelfTestFailed(Exception):
    """A step did its work but what it read back or printed is wrong: a bug (exit 70)."""


@dataclass(frozen=True)
class Outcome:
    """How the self-test ended: ``code`` 0, or the failed step and its failure."""

    code: int
    steps: tuple[str, ...]  # the steps that passed, in order
    failed_step: str = ""
    failure: failures.Failure | None = None


# -- the shared records ---------------------------------------------------------------


def _person(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.services.people import PersonInput, create_person, get_person

    made = create_person(
        kit.db,
        kit.actor,
        PersonInput(
            full_name="Selftest Owner",
            address="1 Self Test St",
            city="Madison",
            postal_code="53703",
            in_city=True,
            phone="608-555-0199",
        ),
    )
    person = get_person(kit.db, made.id)
    kit.made["person"] = person
    return SelfTestResult(f"#{person.id}, {person.full_name}, {person.address}")


def _animal(kit: SelfTestKit) -> SelfTestResult:
    from fieldops.selftest_records import new_dog
    from fieldops.services.animals import get_animal

    animal = get_animal(kit.db, new_dog(kit, "Selftest Rex").id)
    if not animal.vaccinations:
        raise SelfTestFailed("the vaccination was saved but is not on the animal read back")
    kit.made["animal"] = animal
    return SelfTestResult(
        f"#{animal.id}, {animal.name} ({animal.species}), rabies certificate "
        f"{animal.vaccinations[0].certificate_number}"
    )


SHARED_STEPS = (SelfTestStep("person", _person), SelfTestStep("animal", _animal))


def steps() -> tuple[SelfTestStep, ...]:
    """Every step after the database is open: the shared records, then each installed
    module's, in installed order."""
    return SHARED_STEPS + tuple(s for m in installed_modules() for s in m.self_test)


# -- checking a printed document --------------------------------------------------------

_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
_STREAM = re.compile(rb"\d+ \d+ obj\s*<<(.*?)>>\s*stream\r?\n(.*?)\s*endstream", re.S)
_SHOWS_TEXT = re.compile(rb"BT\b.*?(?:[)>]\s*Tj|\]\s*TJ|[)>]\s*['\"])", re.S)


def _decoded(head: bytes, data: bytes) -> bytes:
    if b"/ASCII85Decode" in head:
        data = base64.a85decode(data.strip().removesuffix(b"~>"))
    if b"/FlateDecode" in head:
        data = zlib.decompress(data)
    return data


def pdf_pages(pdf: bytes) -> tuple[int, int, int]:
    """(pages, content streams that show text, of them those whose text includes
    "FieldOps <version>", the footer) of a PDF: each page has one content stream."""
    if not pdf.startswith(b"%PDF-"):
        return 0, 0, 0
    pages = len(_PAGE.findall(pdf))
    footer = f"(FieldOps {__version__}".encode()
    texts = signed = 0
    for head, data in _STREAM.findall(pdf):
        try:
            content = _decoded(head, data)
        except (ValueError, zlib.error):
            continue  # not a stream we read: an image's or a font's
        if _SHOWS_TEXT.search(content):
            texts += 1
            signed += footer in content
    return pages, texts, signed


def check_pdf(pdf: bytes) -> int:
    """The number of pages; SelfTestFailed unless every page shows text and the footer
    with the app's version."""
    pages, texts, signed = pdf_pages(pdf)
    if pages == 0:
        raise SelfTestFailed("the document printed is not a PDF, or has no page")
    if texts < pages:
        raise SelfTestFailed(f"the document printed has {pages} page(s) but text on {texts}")
    if signed < pages:
        raise SelfTestFailed(
            f"the document printed has {pages} page(s) but FieldOps {__version__} "
            f"in the footer of {signed}"
        )
    return pages


# -- running ---------------------------------------------------------------------------


@contextmanager
def _scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="fieldops-self-test-") as folder:
        yield Path(folder)


def _open(db_arg: str | None, folder: Path) -> Database:
    from fieldops.services.people import count_people
    from fieldops.services.setup import open_database

    opened = open_database(db_arg or str(folder / "self-test.db"), named_by_user=True)
    try:
        if count_people(opened.db):
            raise UserError(
                f"--db: {opened.db.description} already holds records, and the self-test "
                "writes test records; give a new (or empty) database, or no --db for a temporary one."
            )
    except Exception:
        opened.db.dispose()
        raise
    return opened.db


def _writer(db: Database) -> Actor:
    from fieldops.services.context import os_username
    from fieldops.services.demo_accounts import ensure_demo_staff
    from fieldops.services.staff import actor_for_os_user

    login = os_username()
    writer: Actor = ensure_demo_staff(db, actor_for_os_user(db, login), login).writer
    return writer


def kit(db: Database) -> SelfTestKit:
    """What the steps work with on ``db`` (a new or empty database): the demo staff's
    writer, the default profile, nothing made yet."""
    return SelfTestKit(db, _writer(db), _profile(), {})


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _failure(exc: BaseException, database: str | None, debug: bool) -> failures.Failure:
    said = failures.describe(exc, database)
    if said.kind != failures.BUG:
        return said
    if debug:
        sys.stderr.write("".join(traceback.format_exception(exc)))
    return failures.failure(failures.BUG, f"this is a bug in FieldOps: {type(exc).__name__}: {exc}")


def run(
    db_arg: str | None = None,
    *,
    out: TextIO | None = None,
    say: Callable[[str], None] | None = None,
    debug: bool = False,
    keep: Path | None = None,
) -> Outcome:
    """Run every step; a line per step on ``out``, the failure's line through ``say``.
    ``keep``: a folder the printed documents are also written to."""
    from fieldops import cli_guard

    out = out or sys.stdout
    tell = say or cli_guard.say
    started = time.monotonic()
    passed: list[str] = []
    step = "database"
    with _scratch() as folder:
        db: Database | None = None
        try:
            db = _open(db_arg, folder)
            where = db.description if db_arg else "a temporary database"
            print(f"ok    {step:<13} {where} at the current schema", file=out, flush=True)
            passed.append(step)
            step = "staff"
            made = kit(db)
            print(f"ok    {step:<13} acting as {made.actor.username}", file=out, flush=True)
            passed.append(step)
            for n, s in enumerate(steps(), start=1):
                step = s.name
                result = s.run(made)
                line = result.summary
                if result.pdf is not None:
                    pages = check_pdf(result.pdf)
                    for into in (folder, keep) if keep else (folder,):
                        (into / f"{n:02d}-{_slug(s.name)}.pdf").write_bytes(result.pdf)
                    line += f" (printed: {pages} page{'s' if pages != 1 else ''} of text)"
                print(f"ok    {step:<13} {line}", file=out, flush=True)
                passed.append(step)
        except Exception as exc:
            said = _failure(exc, db_arg or str(folder / "self-test.db"), debug)
            tell(f"self-test failed at step '{step}': {said.line()}")
            return Outcome(said.exit_code, tuple(passed), step, said)
        finally:
            if db is not None:
                db.dispose()
    took = time.monotonic() - started
    print(
        f"self-test passed: {len(passed)} steps in {took:.1f} s (FieldOps {__version__})",
        file=out,
        flush=True,
    )
    return Outcome(0, tuple(passed))


def _profile() -> Profile:
    from fieldops.rules import Profile

    return Profile.default()


def step_names() -> Sequence[str]:
    """Every step's name, in order, as the self-test prints them."""
    return ("database", "staff", *(s.name for s in steps()))
