"""Flowables of our own for the document base (fieldops/reports/base.py re-exports them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Table

__all__ = ["FirstThatFits", "TallRowTable"]


class TallRowTable(Table):
    """A Table whose row taller than ``TALL`` (a 10,000-character note) continues on
    the next page instead of failing the whole document with "Flowable too large".

    Rows of ordinary height never split: they move to the next page whole, as in
    a plain Table. ReportLab's own ``splitInRow`` would split every row at a page end.
    """

    TALL = 5 * inch
    splitInRow: int  # noqa: N815 (ReportLab's name: a split row's least piece, 0: none)

    def split(self, availWidth: float, availHeight: float) -> list[Any]:  # noqa: N803
        parts: list[Any] = super().split(availWidth, availHeight)
        heights: list[float] = self._rowHeights or [0]
        in_row: int = self.splitInRow
        if parts or in_row or max(heights) <= self.TALL:
            return parts
        self.splitInRow = 24  # points: neither piece of a split row shorter than two lines
        try:
            return list(super().split(availWidth, availHeight))
        finally:
            self.splitInRow = 0


class FirstThatFits(Flowable):
    """The first of several versions of a block that fits the space left in the frame.

    Each version is kept whole. When none fits, the first (the roomiest), or
    ``overflow`` when given, goes to the next page, where it fits. So a closing block (a statement and signature
    lines) tightens its spacing to stay on the page it belongs to instead of
    moving, alone, to a page of its own.
    """

    def __init__(
        self, *versions: Sequence[Flowable], overflow: Sequence[Flowable] | None = None
    ) -> None:
        super().__init__()
        if not versions:
            raise ValueError("FirstThatFits needs at least one version")
        self._versions = [list(v) for v in versions]
        self._overflow = list(overflow) if overflow is not None else None
        self._overflowed = False
        self._chosen = self._versions[0]
        self._width = 0.0
        self._height = 0.0

    def _measure(self, flowables: Sequence[Flowable], width: float) -> float:
        height = 0.0
        for i, f in enumerate(flowables):
            _, h = f.wrap(width, 1e6)
            height += h
            if i:
                height += f.getSpaceBefore()
            if i < len(flowables) - 1:
                height += f.getSpaceAfter()
        return height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self._width = availWidth
        if not self._overflowed:
            for version in self._versions:
                height = self._measure(version, availWidth)
                if height <= availHeight + 0.01:
                    self._chosen, self._height = version, height
                    return availWidth, height
            # Nothing fits here: the block moves to the next page, as ``overflow``
            # (say, with a table's header repeated) from now on.
            self._overflowed = self._overflow is not None
        self._chosen = self._overflow if self._overflowed and self._overflow else self._versions[0]
        self._height = self._measure(self._chosen, availWidth)
        return availWidth, self._height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        return []  # whole or not at all: the frame moves it to the next page

    def draw(self) -> None:
        y = self._height
        for i, f in enumerate(self._chosen):
            if i:
                y -= f.getSpaceBefore()
            w, h = f.wrap(self._width, 1e6)
            y -= h
            f.drawOn(self.canv, 0, y, _sW=self._width - w)
            y -= f.getSpaceAfter()
