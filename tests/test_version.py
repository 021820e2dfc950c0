"""Issue 14: one version number (pyproject.toml's), shown by ``fieldops --version``, in
every document's footer, and in the bundle's name (Help > About: tests/ui/test_about.py)."""

from __future__ import annotations

import importlib
import io
import pkgutil
import subprocess
import sys
import tomllib
from datetime import timedelta
from pathlib import Path

import pytest
from documents_support import print_the_rest
from pypdf import PdfReader
from test_cli_errors import run

import fieldops
import fieldops.reports
from fieldops import __version__, selftest
from fieldops.modules import report_kinds
from fieldops.reports import base
from fieldops.reports.quarantine import certification_form
from fieldops.reports.quarantine_week import week_schedule_pdf
from fieldops.services.context import now
from fieldops.services.quarantine import week_schedule
from fieldops.services.quarantine.records import get_quarantine
from fieldops.services.reports_run import produce
from fieldops.services.setup import open_database

ROOT = Path(__file__).resolve().parent.parent


def _project_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def test_the_version_is_pyprojects():
    assert __version__ == _project_version()


def test_the_version_is_read_from_pyproject_not_written_twice(tmp_path):
    project = tmp_path / "pyproject.toml"
    project.write_text('[project]\nname = "fieldops"\nversion = "9.8.7"  # next\n')
    assert fieldops.read_version(project) == "9.8.7"
    # Another project's file is not ours: the installed package's metadata answers.
    project.write_text('[project]\nname = "other"\nversion = "1.2.3"\n')
    assert fieldops.read_version(project) != "1.2.3"
    assert f'"{__version__}"' not in (ROOT / "fieldops" / "__init__.py").read_text()


def test_the_command_says_its_version(tmp_path):
    result = run("--version", tmp=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"fieldops {__version__}"


def test_the_bundle_is_named_with_the_version():
    name = subprocess.run(
        [sys.executable, str(ROOT / "installer" / "bundle.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert name == f"fieldops-{__version__}"
    spec = (ROOT / "installer" / "fieldops.spec").read_text()
    assert "bundle.NAME" in spec  # the folder COLLECT makes: installer/dist/fieldops-<version>


def _subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return out


def _recorder(render, printed):
    def recording(self: base.Document) -> bytes:
        pdf = render(self)
        printed.setdefault(type(self).__name__, []).append(pdf)
        return pdf

    return recording


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict[str, list[bytes]]:
    """Every kind of document the app prints, by class: each record's (the self-test's
    records), the quarantine's certification form and week schedule, every report, and the
    calls', licences' and permits' notices and letters (tests/documents_support.py)."""
    printed: dict[str, list[bytes]] = {}
    mp = pytest.MonkeyPatch()
    for kind in (base.Document, *_subclasses(base.Document)):
        if "render" in vars(kind):  # the base's, and a document drawing its own way (register)
            mp.setattr(kind, "render", _recorder(kind.render, printed))
    opened = open_database(str(tmp_path_factory.mktemp("version") / "v.db"))
    db = opened.db
    try:
        kit = selftest.kit(db)
        for step in selftest.steps():
            step.run(kit)
        p = kit.profile
        today = now().astimezone(p.timezone).date()
        q = get_quarantine(db, kit.made["quarantine_id"], p)
        certification_form(q, jurisdiction=p.name, tz=p.timezone, printed_at=now())
        items = week_schedule(db, today - timedelta(days=1), p)
        week_schedule_pdf(
            items, today - timedelta(days=1), jurisdiction=p.name, tz=p.timezone, printed_at=now()
        )
        for kind in report_kinds():
            out = produce(
                db, kit.actor, kind.name, today - timedelta(days=7), today, p, audited=False
            )
            assert out.output.pdf  # a report may draw its PDF only when asked (the register)
        print_the_rest(kit)
    finally:
        mp.undo()
        db.dispose()
    return printed


def test_every_kind_of_document_is_printed_here(documents):
    for m in pkgutil.iter_modules(fieldops.reports.__path__):
        importlib.import_module(f"fieldops.reports.{m.name}")
    abstract = {"ReportDocument"}  # the frame the period reports share
    # the app's documents; a test's own subclasses (made when that test runs) are not
    kinds = {c.__name__ for c in _subclasses(base.Document) if c.__module__.startswith("fieldops.")}
    assert kinds - abstract <= set(documents)


def test_every_page_of_every_document_has_the_version_in_its_footer(documents):
    for kind, pdfs in documents.items():
        for pdf in pdfs:
            pages = PdfReader(io.BytesIO(pdf)).pages
            for n, page in enumerate(pages, start=1):
                text = page.extract_text()
                assert f"FieldOps {__version__}" in text, (kind, n)
                assert f"Page {n} of {len(pages)}" in text, (kind, n)
