"""The mapped classes' annotations are objects, not strings (fieldops/db/models).

A postponed annotation (``from __future__ import annotations`` in a model file) makes
SQLAlchemy evaluate each ``Mapped[...]`` from its text while the window starts (issue 14).
"""

from __future__ import annotations

import sqlalchemy.orm

from fieldops.db.models import Base


def test_no_mapped_class_declares_its_columns_as_strings() -> None:
    sqlalchemy.orm.configure_mappers()
    written: dict[str, list[str]] = {}
    for mapper in Base.registry.mappers:
        for klass in mapper.class_.__mro__:
            for name, annotation in vars(klass).get("__annotations__", {}).items():
                if isinstance(annotation, str):
                    written.setdefault(klass.__name__, []).append(name)
    assert written == {}
    # ... and every table's class was looked at, with its columns annotated.
    assert {m.tables[0].name for m in Base.registry.mappers} == set(Base.metadata.tables)
    assert all(vars(m.class_).get("__annotations__") for m in Base.registry.mappers)
