"""Looks shared by every area's screens, on top of the stylesheet (``resources/style.qss``)."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

POUND_STYLE = """
#RepeatWarning, #UnmetSummary {
    background: #fff4e5;
    color: #7a4100;
    border: 1px solid #f0c27b;
    border-radius: 4px;
    padding: 6px 8px;
}
#StatusChip {
    font-weight: 600;
    padding: 3px 10px;
    border-radius: 10px;
    background: #e3eefb;
    color: #1f4e80;
}
#StatusChip[kind="adoptable"] { background: #e8f5e9; color: #1b5e20; }
#StatusChip[kind="closed"] { background: #eceff1; color: #37474f; }
#Countdown { font-size: 12pt; font-weight: 600; color: #1f2d3d; }
#WhyText { color: #33404d; background: #f3f6f9; border-radius: 4px; padding: 6px 8px; }
#Met { color: #1b5e20; font-weight: 600; }
#Unmet { color: #c62828; font-weight: 600; }
#Detail { color: #8e1c1c; }
#Evidence { color: #33404d; }
#MoneyTotal { font-weight: 600; }
"""


def paint_page_white(page: QWidget) -> None:
    """Pages sit on white, as People and animals does (its rule is in resources/style.qss)."""
    page.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
    page.setStyleSheet(f"#{page.objectName()} {{ background: #ffffff; }}")
