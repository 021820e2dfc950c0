"""The one packaging fact pyproject.toml cannot state: the top-level folder
``resources/`` installs as the package ``fieldops_resources``.

A ``[tool.setuptools.package-dir]`` mapping in pyproject.toml is ignored by
``[tool.setuptools.packages.find]``, so the folder would silently be left out
of the wheel; listing every package by hand instead would leave out the next
module someone adds. So the packages are found here, and everything else
(metadata, package data) stays in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

RESOURCES = "fieldops_resources"
code = find_namespace_packages(include=["fieldops", "fieldops.*", "ui", "ui.*"])
data = [
    f"{RESOURCES}.{name}"
    for name in find_namespace_packages(where="resources")
    if "__pycache__" not in name
]

setup(
    packages=[*code, RESOURCES, *data],
    package_dir={RESOURCES: "resources"},
)
