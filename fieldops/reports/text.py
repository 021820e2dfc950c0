"""Text for the PDFs: the one escaping helper, dates and money, line breaking.

Text safety. ``Paragraph`` parses its text as markup, so raw user text there
is dangerous ("S&P" prints as "S&P;", ``<img src=...>`` opens a local file).
The rule in this package: a ``Paragraph`` is only ever built from a
:class:`Markup` string, and the only ways to get one are :func:`esc` (which
escapes) and :func:`markup` (which escapes every argument into a fixed
template). Plain ``str`` table cells and canvas strings are drawn literally
and need no escaping.

Times are stored as aware UTC instants and printed in the jurisdiction's
local time, with the weekday, exactly as the app shows them: "Mon 9 Mar
2026 2:05 PM CST". The formats themselves live in ``fieldops.rules.explain``
(one place for the app and the PDFs); day and month names are spelled there
rather than with ``strftime``, since Qt sets the process locale at start-up.
"""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from decimal import ROUND_HALF_UP, Decimal
from xml.sax.saxutils import escape as _xml_escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from fieldops.reports.fonts import UNICODE_FONT as UNICODE_FONT  # re-exported
from fieldops.reports.fonts import unicode_font as unicode_font  # re-exported
from fieldops.rules.explain import format_day, format_local

# --------------------------------------------------------------------------- text


class Markup(str):
    """Text that is safe to hand to a ``Paragraph``. Build it with esc() or markup()."""

    __slots__ = ()


# Control characters other than tab and newline are not text anyone typed on
# purpose, and some of them make ReportLab's markup parser fail.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean(text: object) -> str:
    """User text as a plain string for a table cell or the canvas: None -> ""."""
    if text is None:
        return ""
    text = str(text)
    if text.isprintable():  # no control character, tab or line break: nothing to do
        return text
    return _CONTROL.sub("", text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")


def esc(text: object) -> Markup:
    """The one escaping helper: user text -> markup that prints exactly as typed.

    ``<``, ``>``, ``&`` and both quotes become entities; line breaks become
    ``<br/>``; None becomes "". Already-escaped :class:`Markup` passes
    through unchanged, so nothing is escaped twice.
    """
    if isinstance(text, Markup):
        return text
    escaped = _xml_escape(clean(text), {'"': "&quot;", "'": "&#39;"})
    return Markup(escaped.replace("\n", "<br/>"))


def markup(template: str, *args: object) -> Markup:
    """A fixed markup template (written in this package) with every argument escaped.

    ``markup("<b>{}</b> {}", label, value)``; the template must never come from data.
    """
    return Markup(template.format(*(esc(a) for a in args)))


def para(text: object, style: ParagraphStyle) -> Paragraph:
    """A Paragraph of user text (escaped) or of :class:`Markup`."""
    return Paragraph(esc(text), style)


# --------------------------------------------------------------------- formatting

NOT_RECORDED = "—"


def require_aware(moment: datetime, what: str = "datetime") -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (instants are stored in UTC)")


def fmt_date(day: date | None) -> str:
    """ "Mon 9 Mar 2026"; None -> ""."""
    if day is None:
        return ""
    if isinstance(day, datetime):
        raise TypeError("fmt_date takes a date; use fmt_datetime for an instant")
    return format_day(day)


def local(moment: datetime, tz: tzinfo) -> datetime:
    require_aware(moment)
    return moment.astimezone(tz)


def fmt_datetime(moment: datetime | None, tz: tzinfo) -> str:
    """ "Mon 9 Mar 2026 2:05 PM CST": an aware instant in the jurisdiction's time; None -> ""."""
    if moment is None:
        return ""
    require_aware(moment)
    return format_local(moment, tz)


def fmt_local_date(moment: datetime | None, tz: tzinfo) -> str:
    """The local calendar day of an instant, "Mon 9 Mar 2026"; None -> ""."""
    if moment is None:
        return ""
    return fmt_date(local(moment, tz).date())


_CENT = Decimal("0.01")


def money(amount: Decimal | int | None) -> str:
    """ "$1,234.50" from a Decimal (or int); floats are refused, None -> ""."""
    if amount is None:
        return ""
    if isinstance(amount, float | bool) or not isinstance(amount, Decimal | int):
        raise TypeError(f"money needs a Decimal, not {type(amount).__name__}")
    value = Decimal(amount).quantize(_CENT, rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def yes_no(flag: bool | None) -> str:
    if flag is None:
        return "Unknown"
    return "Yes" if flag else "No"


def wrap_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` broken into lines of at most ``width`` points, joined by newlines.

    A Table draws a plain string literally, one line per newline, so this wraps
    a cell without a Paragraph: no markup parsing, and in a register of 10,000
    rows several times faster (Paragraph.wrap runs again on every page split).
    A word wider than the column is broken between characters.
    """
    if "\n" not in text and stringWidth(text, font, size) <= width:
        return text
    space = stringWidth(" ", font, size)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, line_w = "", 0.0
        for word in paragraph.split():
            word_w = stringWidth(word, font, size)
            if word_w > width:
                if line:
                    lines.append(line)
                pieces = _break_word(word, font, size, width)
                lines.extend(pieces[:-1])
                line = pieces[-1]
                line_w = stringWidth(line, font, size)
            elif not line:
                line, line_w = word, word_w
            elif line_w + space + word_w <= width:
                line, line_w = f"{line} {word}", line_w + space + word_w
            else:
                lines.append(line)
                line, line_w = word, word_w
        lines.append(line)
    return "\n".join(lines)


def _break_word(word: str, font: str, size: float, width: float) -> list[str]:
    pieces, current = [], ""
    for char in word:
        if current and stringWidth(current + char, font, size) > width:
            pieces.append(current)
            current = ""
        current += char
    return [*pieces, current]


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` points on one line."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


# -------------------------------------------------------------------------- fonts
# The main family and the fallback chain behind it live in fonts.py.
