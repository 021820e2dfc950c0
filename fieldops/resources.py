"""The app's files that are not code: icon, stylesheet, letterhead, example profiles.

They live in the top-level ``resources/`` folder, which installs as the package
``fieldops_resources`` (see setup.py), so a wheel, an editable install and the
bundle all read them through ``importlib.resources``. Run from a source
checkout that is not installed (``PYTHONPATH=.``), the folder next to this
package is read instead. The core (letterhead, profiles) and the UI (icon,
stylesheet) both read through this module; it never imports Qt.

Names are paths inside ``resources/`` with forward slashes, e.g.
``"icons/fieldops.svg"``.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

PACKAGE = "fieldops_resources"

ICON_SVG = "icons/fieldops.svg"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
"""The PNG renders of the icon that the installers and the window use."""
ICON_ICO = "icons/fieldops.ico"
STYLESHEET = "style.qss"
LETTERHEAD_MARK = "letterhead/mark.png"
"""The badge drawn at the top of every printed document, beside the jurisdiction."""
APP_ID = "org.example.FieldOps"
"""The app's reverse-DNS id: the desktop entry's file name, the AppStream id, and
the name the window gives the desktop (``QGuiApplication.setDesktopFileName``)."""
DESKTOP_FILE = f"{APP_ID}.desktop"
METAINFO = f"{APP_ID}.metainfo.xml"


class ResourceMissing(FileNotFoundError):
    """A file the app ships is not where it should be: a broken install, not bad input."""


def icon_png(size: int) -> str:
    """The name of the icon's PNG render ``size`` pixels square."""
    return f"icons/fieldops-{size}.png"


def _source_root() -> Path | None:
    """``resources/`` beside this package when run from a checkout, else None."""
    checkout = Path(__file__).resolve().parent.parent
    folder = checkout / "resources"
    if (checkout / "pyproject.toml").is_file() and (folder / "__init__.py").is_file():
        return folder
    return None


def _package_root() -> Traversable:
    try:
        return resources.files(PACKAGE)
    except ModuleNotFoundError:
        raise ResourceMissing(
            f"FieldOps's resource files (the package {PACKAGE}) are not installed; "
            "reinstall FieldOps"
        ) from None


def root() -> Traversable:
    """The folder every resource name is relative to."""
    return _source_root() or _package_root()


def resource(name: str) -> Traversable:
    """The resource ``name``; raises :class:`ResourceMissing` if it is not there."""
    node = root()
    for part in name.split("/"):
        node = node.joinpath(part)
    if not node.is_file():
        raise ResourceMissing(f"FieldOps's resource file {name!r} is missing; reinstall FieldOps")
    return node


def read_bytes(name: str) -> bytes:
    return resource(name).read_bytes()


def read_text(name: str) -> str:
    return resource(name).read_text(encoding="utf-8")


def example_profiles() -> dict[str, str]:
    """The jurisdiction profiles shipped with FieldOps as {name: TOML text}, sorted by name.

    They are the rules package's own files (``Profile.named`` reads the same ones): ``city``
    is ``fieldops/rules/default_profile.toml``, which ``Profile.default()`` reads; the others,
    ``fieldops/rules/profiles/*.toml``, are other towns'. Start a new jurisdiction's profile
    from one of them.
    """
    from importlib import resources as files

    rules = files.files("fieldops.rules")
    texts = {"city": rules.joinpath("default_profile.toml").read_text(encoding="utf-8")}
    folder = rules.joinpath("profiles")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name) if folder.is_dir() else ():
        if entry.is_file() and entry.name.endswith(".toml"):
            texts[entry.name.removesuffix(".toml")] = entry.read_text(encoding="utf-8")
    return dict(sorted(texts.items()))
