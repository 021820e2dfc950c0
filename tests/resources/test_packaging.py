"""What pip installs: every file in resources/ is package data, and no entry is stale.

Building a wheel in the suite is too slow; these read the same configuration
setuptools reads. (A wheel built from this tree was checked by hand to hold
exactly these files.)
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from fieldops import resources

REPO = Path(__file__).resolve().parents[2]


def package_data() -> dict[str, list[str]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["setuptools"]["package-data"]


def setup_constant(name: str) -> str:
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py does not set {name}")


def package_folder(package: str) -> Path:
    if package == setup_constant("RESOURCES"):
        return REPO / "resources"
    return REPO / package.replace(".", "/")


def test_setup_installs_resources_under_the_name_the_accessor_reads():
    assert setup_constant("RESOURCES") == resources.PACKAGE
    assert (REPO / "resources" / "__init__.py").is_file()


def test_every_package_data_pattern_matches_a_file():
    for package, patterns in package_data().items():
        folder = package_folder(package)
        for pattern in patterns:
            assert any(p.is_file() for p in folder.glob(pattern)), (
                f"package data {package}: {pattern!r} matches nothing in {folder}"
            )


def test_every_resource_file_is_package_data():
    folder = REPO / "resources"
    patterns = package_data()[resources.PACKAGE]
    shipped = {p for pattern in patterns for p in folder.glob(pattern)}
    on_disk = {
        p
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.name != "__init__.py"
    }
    missing = sorted(str(p.relative_to(folder)) for p in on_disk - shipped)
    assert not missing, f"in resources/ but not installed: {missing}"
    assert not list(folder.rglob("*.py"))[1:], "resources/ holds no code besides __init__.py"
