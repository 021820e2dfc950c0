"""Every service as every role: allowed or refused exactly as the permission table says.

The services are found, not listed: every public function of ``fieldops.services``
that takes an ``actor`` must be registered with ``@requires`` (a new one that is not
fails here). Each is then called as an account of every role, and as a deactivated
supervisor; the check comes before any argument is read, so placeholder arguments
are enough to see the verdict. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from accounts_support import enrol

import fieldops.services
from fieldops.errors import PermissionDeniedError
from fieldops.permissions import ROLES, SERVICES, permission_of, permitted
from fieldops.services.context import Actor

NOT_SERVICES = {  # the audit writer itself, with its bulk and audited-read forms
    "fieldops.services.context.audit",
    "fieldops.services.context.append_audit",
    "fieldops.services.context.audit_read",
}


def _services() -> dict[str, object]:
    found = {}
    for m in pkgutil.walk_packages(fieldops.services.__path__, "fieldops.services."):
        module = importlib.import_module(m.name)
        for name, fn in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(fn):
                continue
            if getattr(fn, "__module__", None) != module.__name__:
                continue  # imported from elsewhere: checked where it is defined
            if "actor" in inspect.signature(fn).parameters:
                found[f"{module.__name__}.{name}"] = fn
    return {k: v for k, v in found.items() if k not in NOT_SERVICES}


SERVICE_FUNCTIONS = _services()


def test_every_public_service_verb_is_registered_with_its_permission():
    unregistered = sorted(k for k, fn in SERVICE_FUNCTIONS.items() if permission_of(fn) is None)
    assert unregistered == [], "add @requires(Permission.X) to: " + ", ".join(unregistered)
    assert set(SERVICE_FUNCTIONS) <= set(SERVICES)
    assert len(SERVICE_FUNCTIONS) >= 40


def _call(db, fn, actor):
    params = list(inspect.signature(fn).parameters)
    args = []
    for p in params:
        if p == "actor":
            args.append(actor)
        elif p == "db":
            args.append(db)
        elif p in ("s", "session"):
            args.append("SESSION")
        else:
            break  # keyword-only and defaulted ones are left out
    sig = inspect.signature(fn)
    required = [
        p
        for p in sig.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    args += [0 if p.name.endswith("_id") else None for p in required[len(args) :]]
    kwargs = {
        p.name: None
        for p in sig.parameters.values()
        if p.kind is p.KEYWORD_ONLY and p.default is inspect.Parameter.empty
    }
    if "SESSION" in args:
        with db.write() as s:
            return fn(*[s if a == "SESSION" else a for a in args], **kwargs)
    return fn(*args, **kwargs)


def _verdict(db, fn, actor) -> bool:
    """True: allowed (whatever else went wrong with placeholder arguments)."""
    try:
        _call(db, fn, actor)
    except PermissionDeniedError:
        return False
    except Exception:
        return True
    return True


@pytest.mark.parametrize("name", sorted(SERVICE_FUNCTIONS))
def test_each_service_allows_and_refuses_every_role_as_the_table_says(db, name):
    fn = SERVICE_FUNCTIONS[name]
    needed = permission_of(fn)
    assert needed is not None
    got, expected = {}, {}
    for role in ROLES:
        actor = enrol(db, Actor(f"matrix-{role}", role, f"Matrix {role}"))
        got[role] = _verdict(db, fn, actor)
        expected[role] = permitted(role, needed)
    gone = enrol(db, Actor("matrix-gone", "supervisor"), active=False)
    got["inactive"], expected["inactive"] = _verdict(db, fn, gone), False
    claimed = Actor("matrix-nobody", "supervisor")  # no account at all, whatever it claims
    got["no account"], expected["no account"] = _verdict(db, fn, claimed), False
    assert got == expected, f"{name} needs {needed}"
