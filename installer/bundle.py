"""The bundle's name from the app's one version number (pyproject.toml's ``version``).

``python installer/bundle.py`` prints the name (``fieldops-0.1.0``), the bundle's
folder under installer/dist/ and the stem of its archives; ``--version`` prints the
version alone (for the Windows installer's ``/DVersion=``). fieldops.spec imports it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's fieldops

from fieldops import __version__

VERSION = __version__
NAME = f"fieldops-{VERSION}"

if __name__ == "__main__":
    print(VERSION if "--version" in sys.argv[1:] else NAME)
