"""Reading a PDF's text layer back, glyph by glyph, with pypdf.

``text_layer`` walks each page's content stream in order and decodes every
shown string through its font's ToUnicode map: the characters as drawn, in the
order drawn, with no reader's guesswork (pypdf's ``extract_text`` reorders
Hebrew and Arabic, assuming the PDF holds them in visual order). ``notdef``
lists every character code drawn with glyph 0 (.notdef, the empty box) of the
embedded TrueType subset, read from the subset's own character map.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

_BFCHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


@dataclass
class _Font:
    to_unicode: dict[int, str]
    glyphs: dict[int, int] | None  # the subset's code -> glyph; None for a standard font


@dataclass
class Layer:
    pages: list[str] = field(default_factory=list)
    notdef: list[tuple[str, int]] = field(default_factory=list)  # (font, code)


def _font(obj: Any) -> _Font:
    cmap: dict[int, str] = {}
    if "/ToUnicode" in obj:
        data = obj["/ToUnicode"].get_object().get_data()
        body = data.split(b"beginbfchar", 1)[-1]
        for src, dst in _BFCHAR.findall(body):
            cmap[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be")
    glyphs = None
    descriptor = obj.get("/FontDescriptor")
    if descriptor is not None and "/FontFile2" in descriptor.get_object():
        data = descriptor.get_object()["/FontFile2"].get_object().get_data()
        glyphs = subset_glyphs(data)
    return _Font(cmap, glyphs)


def subset_glyphs(font_file: bytes) -> dict[int, int]:
    """Code -> glyph id from an embedded TrueType subset's own 'cmap' table (ReportLab
    writes one format-6 table, codes from 0)."""
    (tables,) = struct.unpack_from(">H", font_file, 4)
    for n in range(tables):
        tag, _sum, offset, _length = struct.unpack_from(">4sIII", font_file, 12 + 16 * n)
        if tag == b"cmap":
            (count,) = struct.unpack_from(">H", font_file, offset + 2)
            for k in range(count):
                _pid, _eid, sub = struct.unpack_from(">HHI", font_file, offset + 4 + 8 * k)
                fmt, _len, _lang, first, entries = struct.unpack_from(
                    ">HHHHH", font_file, offset + sub
                )
                assert fmt == 6, f"cmap format {fmt}"
                ids = struct.unpack_from(f">{entries}H", font_file, offset + sub + 10)
                return {first + i: g for i, g in enumerate(ids)}
    raise AssertionError("no cmap in the embedded font")


def text_layer(pdf: bytes) -> Layer:
    reader = PdfReader(BytesIO(pdf))
    layer = Layer()
    for page in reader.pages:
        fonts_obj = page["/Resources"].get_object().get("/Font", {})
        fonts = {name: _font(ref.get_object()) for name, ref in fonts_obj.get_object().items()}
        out: list[str] = []
        current: tuple[str, _Font] | None = None
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"Tf":
                name = str(operands[0])
                current = (name, fonts[name])
            elif op in (b"Tj", b"'", b'"', b"TJ") and current is not None:
                items = operands[-1] if op == b"TJ" else [operands[-1]]
                for item in items:
                    if not isinstance(item, bytes | str):
                        continue
                    raw = item if isinstance(item, bytes) else item.original_bytes
                    name, font = current
                    for code in raw:
                        if font.glyphs is not None and font.glyphs.get(code, 0) == 0:
                            layer.notdef.append((name, code))
                        out.append(font.to_unicode.get(code, chr(code)))
        layer.pages.append("".join(out))
    return layer


def squeeze(text: str) -> str:
    """The normalisation: every whitespace character removed (line breaks, the spaces
    wrapping adds or drops, Paragraph's collapsed runs of spaces), and soft hyphens
    (U+00AD), which Paragraph takes as a hint where a word may break, printing "-"
    there when it breaks a line and nothing elsewhere."""
    return "".join(text.replace("\xad", "").replace("-", "").split())


def runs_through(expected: str, pages: list[str]) -> bool:
    """``expected`` (squeezed) appears whole, in order, continued from page to page:
    each page holds the next piece of it as one unbroken run."""
    rest = squeeze(expected)
    for page in (squeeze(p) for p in pages):
        if not rest:
            break
        lo, hi = 0, len(rest)  # the longest prefix of rest that this page holds
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if rest[:mid] in page:
                lo = mid
            else:
                hi = mid - 1
        rest = rest[lo:]
    return not rest
