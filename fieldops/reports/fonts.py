"""The fonts of the PDFs: a main family and a chain of fallbacks behind it.

No one font has every character a clerk may type: DejaVu and Arial have no
Chinese, Japanese or Korean and no emoji, so a name such as "王小明" or a note
with "🐕" printed as boxes, and ReportLab wrote every missing character as
code 0, so the PDF's text layer lost them too. Here each registered font name
(``FieldOpsSans``, ``-Bold``, ``-Italic``) is a :class:`ChainFont`: it draws
with the main TrueType font, and splits every string it is given into runs,
each drawn with the first font of the chain whose character map has the
character. Every path by which text reaches a PDF goes through this one
splitter, because ReportLab asks the font itself: ``Paragraph`` fragments,
plain table cells, canvas strings (header, footer) and chart labels alike,
and so do the width measurements (``stringWidth``, so wrapping and ``fit``
see the real widths). No markup is involved, so text safety is untouched.

The chain: the main font, then DejaVu Sans (Hebrew, Arabic, Greek, Cyrillic,
symbols, when the main font is Arial or Liberation), then the fonts shipped
in ``resources/fonts`` (Noto Emoji, monochrome, SIL OFL 1.1; Droid Sans
Fallback, Chinese, Japanese and Korean, Apache 2.0), then others found on the
machine (GNU FreeSerif, for Thai, Devanagari, Ethiopic...). The shipped fonts
make the same characters print the same on every machine and in the bundle.

A character that no font of the chain has is drawn as U+FFFD "�" (a visible
replacement, never an empty box), while the text layer keeps the character
itself, so copying or searching the PDF still gives exactly what was typed.

Right-to-left text (Hebrew, Arabic) is written in logical order, the order
in which it was typed and stored, and ReportLab (without its optional
shaping libraries, which FieldOps does not install) lays it out left to
right: every character is present and the text layer reads back exactly,
but the letters show in typed order from the left and Arabic letters
unjoined. See ``RTL_NOTE``.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import SUBSETN, TTFError, TTFont, makeToUnicodeCMap

from fieldops import resources

UNICODE_FONT = "FieldOpsSans"
"""The family name of the main font; the bold and italic faces add -Bold and -Italic."""

REPLACEMENT = 0xFFFD

RTL_NOTE = (
    "Right-to-left text prints in the order it was typed, left to right, with Arabic "
    "letters unjoined; the PDF's text layer holds it exactly as typed."
)

# The shipped fallbacks: resource names inside resources/ (see resources/fonts/README.md).
BUNDLED_FALLBACKS = ("fonts/NotoEmoji-Regular.ttf", "fonts/DroidSansFallback.ttf")

_SUBSET_STRIDE = 1 << 20  # a chain member's subsets are numbered k * stride + subset
_PATCH_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()


# ---------------------------------------------------------------------- finding


@dataclass(frozen=True)
class Family:
    """A main family's files: regular and bold required, italic optional."""

    regular: Path
    bold: Path
    italic: Path


def main_candidates() -> list[Family]:
    """The main families in order of preference: Arial on Windows and macOS, Liberation
    Sans or DejaVu Sans Condensed on Linux (the width of Helvetica and Arial)."""
    windir = Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"
    mac = Path("/System/Library/Fonts/Supplemental")
    liberation = Path("/usr/share/fonts/truetype/liberation")
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    return [
        Family(windir / "arial.ttf", windir / "arialbd.ttf", windir / "ariali.ttf"),
        Family(mac / "Arial.ttf", mac / "Arial Bold.ttf", mac / "Arial Italic.ttf"),
        Family(
            liberation / "LiberationSans-Regular.ttf",
            liberation / "LiberationSans-Bold.ttf",
            liberation / "LiberationSans-Italic.ttf",
        ),
        Family(
            dejavu / "DejaVuSansCondensed.ttf",
            dejavu / "DejaVuSansCondensed-Bold.ttf",
            dejavu / "DejaVuSansCondensed-Oblique.ttf",
        ),
        # fonts-dejavu-core alone (the condensed faces are in fonts-dejavu-extra):
        # wider, so tables wrap sooner, but no Western letter prints as a box.
        Family(
            dejavu / "DejaVuSans.ttf",
            dejavu / "DejaVuSans-Bold.ttf",
            dejavu / "DejaVuSans-Oblique.ttf",
        ),
    ]


def system_fallbacks() -> list[Path]:
    """Fonts on the machine that cover what the main font lacks, in chain order.

    DejaVu Sans comes before the shipped fonts (its Hebrew, Arabic and symbols
    match the main font's style); the others after them.
    """
    windir = Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"
    return [
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        windir / "seguisym.ttf",  # Segoe UI Symbol
    ]


def late_system_fallbacks() -> list[Path]:
    free = Path("/usr/share/fonts/truetype/freefont")
    return [free / "FreeSerif.ttf", free / "FreeSans.ttf"]


# ------------------------------------------------------------------- the chain


_COVERAGE: dict[int, frozenset[int]] = {}


def coverage(font: TTFont) -> frozenset[int]:
    """The code points ``font``'s own character map draws (glyph other than .notdef).

    Read once, before any replacement is added (see :meth:`ChainFont._replace`).
    """
    key = id(font.face)
    if key not in _COVERAGE:
        _COVERAGE[key] = frozenset(cp for cp, g in font.face.charToGlyph.items() if g)
    return _COVERAGE[key]


def _sticks(char: str) -> bool:
    """A combining mark, joiner or variation selector: keeps the font of the character
    before it when that font has it, so an accent or an emoji's VS16 stays with it."""
    return unicodedata.category(char) in ("Mn", "Me", "Cf") or 0xFE00 <= ord(char) <= 0xFE0F


def to_unicode_cmap(base_font: str, subset: Sequence[int]) -> str:
    """ReportLab's ToUnicode CMap, with characters beyond U+FFFF as UTF-16 pairs.

    ReportLab writes an emoji such as U+1F415 as ``<1F415>``, an odd number of
    hex digits that readers reject (pypdf drops the character), so copying or
    searching the PDF lost every emoji. The PDF standard wants UTF-16BE.
    """
    cmap = makeToUnicodeCMap(base_font, subset)
    if all(cp <= 0xFFFF for cp in subset):
        return str(cmap)
    lines = cmap.split("\n")
    first = lines.index(f"{len(subset)} beginbfchar") + 1
    lines[first : first + len(subset)] = [
        f"<{i:02X}> <{chr(cp).encode('utf-16-be').hex().upper()}>" for i, cp in enumerate(subset)
    ]
    return "\n".join(lines)


class Font(TTFont):  # type: ignore[misc]  # ReportLab is untyped
    """A subset-embedded TrueType font whose text layer keeps characters beyond U+FFFF."""

    def addObjects(self, doc: Any) -> None:  # noqa: N802 (ReportLab's name)
        state = self.state.get(doc)
        subsets = [list(s) for s in state.subsets] if state is not None else []
        super().addObjects(doc)
        for n, subset in enumerate(subsets):
            if all(cp <= 0xFFFF for cp in subset):
                continue
            name = b"".join((SUBSETN(n), b"+", self.face.name, self.face.subfontNameX))
            base = name.decode("pdfdoc")
            stream = doc.idToObject.get("toUnicodeCMap:" + base)
            if stream is not None:
                stream.content = to_unicode_cmap(base, subset)


class ChainFont(Font):
    """A TrueType font that draws what it lacks with the fonts of its chain.

    To ReportLab it is an ordinary dynamic (subset-embedded) TrueType font.
    :meth:`splitString` returns subsets numbered so that
    :meth:`getSubsetInternalName` can name the subset of the chain member that
    draws them; each member embeds its own subset as usual.
    """

    def __init__(self, name: str, filename: Any, fallbacks: Callable[[], Sequence[TTFont]]) -> None:
        super().__init__(name, filename)
        self.shapable = False
        self._main = coverage(self)
        # The fallbacks are read the first time a string needs one (reading them
        # takes about a second), so a document in the main font's letters costs no more.
        self._fallbacks = fallbacks
        self._chain: tuple[TTFont, ...] | None = None
        self._covers: tuple[frozenset[int], ...] = (self._main,)
        self._fallback_index: int | None = None
        self._pick: dict[int, int] = {}

    @property
    def chain(self) -> tuple[TTFont, ...]:
        """This font, then the fallbacks that add something to it, in order."""
        if self._chain is None:
            with _LOAD_LOCK:
                if self._chain is None:
                    chain = (self, *_useful(self, self._fallbacks()))
                    self._covers = tuple(coverage(f) for f in chain)
                    # The font that draws "�" for a character none has: the first with it.
                    self._fallback_index = next(
                        (i for i, c in enumerate(self._covers) if REPLACEMENT in c), None
                    )
                    self._chain = chain
        return self._chain

    def _member(self, index: int) -> TTFont:
        return self if index == 0 else self.chain[index]

    # -- choosing -------------------------------------------------------------

    def font_index(self, cp: int) -> int | None:
        """The chain member that draws ``cp``; None when none has it."""
        picked = self._pick.get(cp, -1)
        if picked == -1:
            found = next((i for i, c in enumerate(self._covers) if cp in c), None)
            self._pick[cp] = found if found is not None else -2
            return found
        return None if picked == -2 else picked

    def runs(self, text: str) -> list[tuple[int, str]]:
        """``text`` as (chain index, run) pairs, in order; every character kept."""
        if text.isascii() or self._main.issuperset(map(ord, text)):
            return [(0, text)] if text else []
        self.chain  # noqa: B018 (loads the fallbacks: this string needs them)
        out: list[tuple[int, str]] = []
        current, start = -1, 0
        for pos, char in enumerate(text):
            cp = ord(char)
            if current >= 0 and _sticks(char) and cp in self._covers[current]:
                index: int | None = current
            else:
                index = self.font_index(cp)
            if index is None:
                index = self._replace(cp)
            if index != current:
                if pos > start:
                    out.append((current, text[start:pos]))
                current, start = index, pos
        out.append((current, text[start:]))
        return out

    def _replace(self, cp: int) -> int:
        """Draw ``cp``, which no font has, as "�" in the fallback font; the text
        layer (the subset's ToUnicode map) still says ``cp``."""
        index = self._fallback_index
        if index is None:  # no font with U+FFFD: ReportLab's .notdef, as before
            return 0
        face = self.chain[index].face
        if cp not in face.charToGlyph:
            with _PATCH_LOCK:
                face.charToGlyph[cp] = face.charToGlyph[REPLACEMENT]
                face.charWidths[cp] = face.charWidths.get(REPLACEMENT, face.defaultWidth)
        return index

    # -- what ReportLab calls --------------------------------------------------

    def splitString(self, text: Any, doc: Any, encoding: str = "utf-8") -> list[tuple[int, bytes]]:  # noqa: N802
        if isinstance(text, bytes):
            text = text.decode(encoding)
        result: list[tuple[int, bytes]] = []
        for index, run in self.runs(text):
            split = TTFont.splitString(self._member(index), run, doc, encoding)
            result.extend((index * _SUBSET_STRIDE + subset, chars) for subset, chars in split)
        return result

    def getSubsetInternalName(self, subset: int, doc: Any) -> str:  # noqa: N802
        index, own = divmod(subset, _SUBSET_STRIDE)
        return str(TTFont.getSubsetInternalName(self._member(index), own, doc))

    def stringWidth(self, text: Any, size: float, encoding: str = "utf8") -> float:  # noqa: N802
        if isinstance(text, bytes):
            text = text.decode(encoding)
        return float(
            sum(TTFont.stringWidth(self._member(i), run, size) for i, run in self.runs(text))
        )


# --------------------------------------------------------------- registration


def _load(name: str, source: Path | str) -> TTFont | None:
    """A fallback font from a file or a shipped resource; None if it cannot be read."""
    try:
        if isinstance(source, Path):
            if not source.is_file():
                return None
            font = Font(name, str(source))
        else:
            font = Font(name, BytesIO(resources.read_bytes(source)))
    except (OSError, TTFError, resources.ResourceMissing):
        return None
    coverage(font)
    return font


@cache
def fallback_chain() -> tuple[TTFont, ...]:
    """The fallback fonts, loaded once per process (the first time one is needed),
    in the order they are tried."""
    sources: list[Path | str] = [
        *system_fallbacks(),
        *BUNDLED_FALLBACKS,
        *late_system_fallbacks(),
    ]
    chain: list[TTFont] = []
    for n, source in enumerate(sources):
        font = _load(f"{UNICODE_FONT}-Fallback{n}", source)
        if font is not None:
            chain.append(font)
    return tuple(chain)


def _useful(main: TTFont, fallbacks: Sequence[TTFont]) -> list[TTFont]:
    """The fallbacks that add something to ``main`` (a second DejaVu adds nothing)."""
    seen = set(coverage(main))
    useful = []
    for font in fallbacks:
        extra = coverage(font) - seen
        if extra:
            useful.append(font)
            seen |= extra
    return useful


@cache
def unicode_font() -> tuple[str, str] | None:
    """Register the first main family found, each face a :class:`ChainFont`, once.

    Returns the (regular, bold) names, or None when no main family is installed
    (the documents then use Helvetica, which has Western European letters only).
    """
    for family in main_candidates():
        if not (family.regular.is_file() and family.bold.is_file()):
            continue
        names = {"normal": UNICODE_FONT, "bold": f"{UNICODE_FONT}-Bold"}
        try:
            faces = {"normal": family.regular, "bold": family.bold}
            if family.italic.is_file():
                faces["italic"] = family.italic
                names["italic"] = f"{UNICODE_FONT}-Italic"
            fonts = {}
            for style, path in faces.items():
                fonts[style] = ChainFont(names[style], str(path), fallback_chain)
        except (OSError, TTFError):
            continue
        for font in fonts.values():
            pdfmetrics.registerFont(font)
        names.setdefault("italic", names["normal"])
        pdfmetrics.registerFontFamily(UNICODE_FONT, boldItalic=names["bold"], **names)
        return names["normal"], names["bold"]
    return None
