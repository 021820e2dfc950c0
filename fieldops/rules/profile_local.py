"""The profile's licence, permit and penalty settings (RULES.md sections 6-8).

A jurisdiction's profile may carry ``[licence]``, ``[permits.chicken]``,
``[permits.fancier]`` and ``[penalties.<name>]`` tables; each is optional in a
file and, when absent, the city's values below apply (RULES.md section 8:
"the city's defaults apply"). ``fieldops/rules/default_profile.toml`` writes
the same city values out with the sections they come from, and a test checks
the two agree. A table that is present is read whole: an unknown key is
refused and a required key must be there, so a typo never falls back to
another town's number. Keys whose value may be "the text sets none"
(``hens_max``, ``setback_feet``, ``renew_by`` ...) are simply left out.

Everything here is frozen data; the rules that use it live in
``licence.py``, ``permits.py`` and ``penalties.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from fieldops.rules._frozen import FrozenMap

_ZERO = Decimal("0.00")


_CENT = Decimal("0.01")


def parse_money(value: Any, key: str) -> Decimal:
    """An amount of money as an exact ``Decimal`` with two places.

    Accepts a ``Decimal``, an ``int`` or a string such as ``"40.00"``. Floats
    are refused (they cannot hold most cent amounts exactly), as are negative
    amounts, more than two decimal places, NaN and infinities. Errors name
    ``key``.
    """
    if isinstance(value, bool | float):
        raise ValueError(
            f"{key}: money must be written as a quoted decimal string such as "
            f'"40.00", not {value!r}'
        )
    if isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, Decimal):
        amount = value
    elif isinstance(value, str):
        try:
            amount = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"{key}: {value!r} is not an amount of money") from None
    else:
        raise ValueError(f"{key}: {value!r} is not an amount of money")
    if not amount.is_finite():
        raise ValueError(f"{key}: {value!r} is not an amount of money")
    if amount < 0:
        raise ValueError(f"{key}: a fee cannot be negative ({value!r})")
    if amount != amount.quantize(_CENT):
        raise ValueError(f"{key}: {value!r} has fractions of a cent")
    return amount.quantize(_CENT)


_money = parse_money


def _whole(value: Any, key: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: must be a whole number, not {value!r}")
    if value < minimum:
        raise ValueError(f"{key}: must be at least {minimum}, not {value}")
    return value


def _optional_whole(value: Any, key: str, minimum: int) -> int | None:
    return None if value is None else _whole(value, key, minimum)


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key}: must be true or false, not {value!r}")
    return value


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key}: must be text, not {value!r}")
    return value.strip()


def _month_day(value: Any, key: str) -> tuple[int, int] | None:
    """``renew_by``: "MM-DD" in TOML, ``(month, day)`` in Python, None for none."""
    if value is None:
        return None
    if isinstance(value, str):
        parts = value.strip().split("-")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            value = (int(parts[0]), int(parts[1]))
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        month, day = value
        try:
            date(2001, month, day)  # a common year: Feb 29 is refused (it would skip years)
        except ValueError:
            pass
        else:
            return (month, day)
    raise ValueError(f'{key}: {value!r} is not a month and day such as "03-01"')


# --------------------------------------------------------------------------
# Permits
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ChickenRules:
    """A jurisdiction's chicken permit (city 58-533(b); Dodgeville 12.16; village ch. 12).

    ``hens_max`` None: the text sets no number. ``setback_feet`` is the
    enclosure's least distance from a property line (None: none set);
    ``setback_waivable``: less is allowed with the neighbour's written consent.
    ``renew_by`` (month, day): a renewal after that day pays ``late_fee``
    (None: no late day). ``ban_years_after_refusal``: years a refused permittee
    may not apply again. The remaining fields are read by no rule yet but are
    what the texts set, for the forms and documents: ``residence_setback_feet``
    (from a neighbouring residence), ``nonrenewal_complaints`` within
    ``complaint_radius_feet`` and ``complaint_window_months`` (with a
    violation found, no renewal), ``state_registration_years``. ``source``
    cites the text for the "why" sentences.
    """

    hens_max: int | None = None
    roosters_allowed: bool = False
    setback_feet: int | None = 50
    setback_waivable: bool = True
    hoa_consent_for_first: bool = True
    application_fee: Decimal = _ZERO
    annual_fee: Decimal = Decimal("25.00")
    late_fee: Decimal = _ZERO
    renew_by: tuple[int, int] | None = None
    prorated: bool = False
    ban_years_after_refusal: int | None = None
    residence_setback_feet: int | None = None
    nonrenewal_complaints: int | None = None
    complaint_radius_feet: int | None = None
    complaint_window_months: int | None = None
    state_registration_years: int | None = None
    source: str = "city code 58-533(b)"

    def __post_init__(self) -> None:
        _check(self, "permits.chicken")


@dataclass(frozen=True)
class FancierRules:
    """The animal fancier's permit (city 58-533(a)).

    ``incidents_for_nonrenewal`` separate incidents dated within
    ``incident_window_months`` up to the review day mean no renewal;
    ``appeal_days`` after the certified-mail notice to appeal;
    ``list_update_days`` to update the list of animals after a change.
    """

    application_fee: Decimal = _ZERO
    annual_fee: Decimal = _ZERO
    late_fee: Decimal = _ZERO
    renew_by: tuple[int, int] | None = None
    prorated: bool = False
    incidents_for_nonrenewal: int = 3
    incident_window_months: int = 12
    appeal_days: int = 30
    list_update_days: int = 30
    source: str = "city code 58-533(a)"

    def __post_init__(self) -> None:
        _check(self, "permits.fancier")


_MONEY_FIELDS = frozenset({"application_fee", "annual_fee", "late_fee"})
_FLAG_FIELDS = frozenset(
    {"roosters_allowed", "setback_waivable", "hoa_consent_for_first", "prorated"}
)
_OPTIONAL_INT_FIELDS = frozenset(
    {
        "hens_max",
        "setback_feet",
        "ban_years_after_refusal",
        "residence_setback_feet",
        "nonrenewal_complaints",
        "complaint_radius_feet",
        "complaint_window_months",
        "state_registration_years",
    }
)
# optional-int fields that may be 0 (a setback of 0 feet); the rest count something
_MAY_BE_ZERO = frozenset({"hens_max", "setback_feet", "residence_setback_feet"})
_INT_MINIMUM = {
    "incidents_for_nonrenewal": 1,
    "incident_window_months": 1,
    "appeal_days": 1,
    "list_update_days": 1,
}


def _check(rules: ChickenRules | FancierRules, prefix: str) -> None:
    set_ = object.__setattr__
    for f in fields(rules):
        key = f"{prefix}.{f.name}"
        value = getattr(rules, f.name)
        if f.name in _MONEY_FIELDS:
            set_(rules, f.name, _money(value, key))
        elif f.name in _FLAG_FIELDS:
            _flag(value, key)
        elif f.name in _OPTIONAL_INT_FIELDS:
            _optional_whole(value, key, 0 if f.name in _MAY_BE_ZERO else 1)
        elif f.name in _INT_MINIMUM:
            _whole(value, key, _INT_MINIMUM[f.name])
        elif f.name == "renew_by":
            set_(rules, f.name, _month_day(value, key))
        elif f.name == "source":
            set_(rules, f.name, _text(value, key))


def read_rules(cls: type[Any], table: Any, prefix: str) -> Any:
    """A ``[permits.*]`` table as ``cls``; ``ValueError`` names the bad key."""
    if not isinstance(table, dict):
        raise ValueError(f"[{prefix}]: must be a table")
    names = {f.name for f in fields(cls)}
    for key in table:
        if key not in names:
            raise ValueError(f"{prefix}.{key}: unknown key")
    values: dict[str, Any] = {}
    for name in sorted(names):
        if name in table:
            values[name] = table[name]
        elif name in _OPTIONAL_INT_FIELDS or name == "renew_by":
            values[name] = None  # left out: the text sets none
        else:
            raise ValueError(f"{prefix}.{name}: missing key")
    return cls(**values)


# --------------------------------------------------------------------------
# Penalty ladders
# --------------------------------------------------------------------------

PERMANENT = 0
"""``PenaltyStep.revocation_months`` for a revocation without end."""


@dataclass(frozen=True)
class PenaltyStep:
    """One rung of a ladder: the n-th offence's forfeiture, warning, revocation, order.

    ``forfeiture`` None: no money (a warning). ``revocation_months`` None: no
    revocation; ``PERMANENT`` (0): revoked without end. ``order`` is what the
    offender is ordered to do ("" for nothing).
    """

    forfeiture: Decimal | None = None
    warning: bool = False
    revocation_months: int | None = None
    order: str = ""

    def __post_init__(self) -> None:
        if self.forfeiture is not None:
            object.__setattr__(self, "forfeiture", _money(self.forfeiture, "forfeiture"))
        _flag(self.warning, "warning")
        _optional_whole(self.revocation_months, "revocation_months", 0)
        object.__setattr__(self, "order", _text(self.order, "order"))
        if self.forfeiture is None and not self.warning:
            raise ValueError("a penalty step needs a forfeiture or warning = true")


@dataclass(frozen=True)
class Ladder:
    """The penalties for one ordinance section (or class of offence), 1st offence first.

    ``plus_court_costs``: each forfeiture is plus the costs of the court.
    ``source`` cites the text ("Dodgeville 12.16(14)(b)").
    """

    source: str
    steps: tuple[PenaltyStep, ...]
    plus_court_costs: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", _text(self.source, "source"))
        object.__setattr__(self, "steps", tuple(self.steps))
        if not self.steps or not all(isinstance(s, PenaltyStep) for s in self.steps):
            raise ValueError("steps: a ladder needs at least one step")
        _flag(self.plus_court_costs, "plus_court_costs")


GENERAL = "general"
"""The ladder used for a section without its own (the city's general penalty, 1-7)."""

_STEP_KEYS = ("forfeiture", "warning", "revocation_months", "revocation", "order")


def _read_step(raw: Any, key: str) -> PenaltyStep:
    if not isinstance(raw, dict):
        raise ValueError(f'{key}: must be a table such as {{ forfeiture = "50.00" }}')
    for name in raw:
        if name not in _STEP_KEYS:
            raise ValueError(f"{key}.{name}: unknown key")
    months = raw.get("revocation_months")
    if "revocation" in raw:
        if raw["revocation"] != "permanent" or months is not None:
            raise ValueError(f'{key}.revocation: the only value is "permanent"')
        months = PERMANENT
    elif months is not None:
        _whole(months, f"{key}.revocation_months", 1)
    try:
        return PenaltyStep(
            forfeiture=(
                None
                if raw.get("forfeiture") is None
                else _money(raw["forfeiture"], f"{key}.forfeiture")
            ),
            warning=_flag(raw.get("warning", False), f"{key}.warning"),
            revocation_months=months,
            order=_text(raw.get("order", ""), f"{key}.order"),
        )
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None


def read_penalties(table: Any) -> FrozenMap[str, Ladder]:
    """The ``[penalties.<name>]`` tables; a ``general`` ladder is required."""
    if not isinstance(table, dict):
        raise ValueError("[penalties]: must be a table")
    ladders: dict[str, Ladder] = {}
    for name, raw in table.items():
        prefix = f"penalties.{_quoted(name)}"
        if not isinstance(raw, dict):
            raise ValueError(f"[{prefix}]: must be a table")
        for key in raw:
            if key not in ("source", "steps", "plus_court_costs"):
                raise ValueError(f"{prefix}.{key}: unknown key")
        steps = raw.get("steps")
        if not isinstance(steps, list) or not steps:
            raise ValueError(f"{prefix}.steps: missing key (a list of at least one step)")
        ladders[name] = Ladder(
            source=_text(raw.get("source", f"section {name}"), f"{prefix}.source"),
            steps=tuple(_read_step(s, f"{prefix}.steps[{i}]") for i, s in enumerate(steps)),
            plus_court_costs=_flag(
                raw.get("plus_court_costs", False), f"{prefix}.plus_court_costs"
            ),
        )
    if GENERAL not in ladders:
        raise ValueError("penalties.general: missing section (the general penalty)")
    return FrozenMap(ladders)


def check_penalties(value: Any) -> FrozenMap[str, Ladder]:
    """Validate ``Profile.penalties`` given in Python (a mapping of name -> Ladder)."""
    if not isinstance(value, Mapping):
        raise ValueError("penalties: must map section names to ladders")
    for name, ladder in value.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"penalties.{name!r}: a section name must be text")
        if not isinstance(ladder, Ladder):
            raise ValueError(f"penalties.{_quoted(name)}: must be a Ladder")
    if GENERAL not in value:
        raise ValueError("penalties.general: missing section (the general penalty)")
    return value if isinstance(value, FrozenMap) else FrozenMap(value)


# --------------------------------------------------------------------------
# The city's values (the same as default_profile.toml; a test checks)
# --------------------------------------------------------------------------

CITY_LICENCE_UNALTERED = Decimal("20.00")  # PLACEHOLDER: council resolution, 58-533(c)(4)a
CITY_LICENCE_ALTERED = Decimal("10.00")  # PLACEHOLDER: council resolution, 58-533(c)(4)a
CITY_LICENCE_LATE_FEE = Decimal("10.00")  # PLACEHOLDER: council resolution, 58-533(c)(4)c
CITY_CHICKENS = ChickenRules()
CITY_FANCIER = FancierRules()
CITY_PENALTIES: FrozenMap[str, Ladder] = FrozenMap(
    {
        GENERAL: Ladder(
            source="city code 1-7 (general penalty), applied by 58-534(b)",
            steps=(
                PenaltyStep(forfeiture=Decimal("50.00")),  # PLACEHOLDER
                PenaltyStep(forfeiture=Decimal("100.00")),  # PLACEHOLDER
            ),
        )
    }
)


# --------------------------------------------------------------------------
# Writing back (Profile.to_toml)
# --------------------------------------------------------------------------


def _quoted(name: str) -> str:
    bare = name and all(c.isalnum() or c in "_-" for c in name)
    return name if bare else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return f'"{value}"'
    if isinstance(value, tuple):
        return f'"{value[0]:02d}-{value[1]:02d}"'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def rules_toml(rules: ChickenRules | FancierRules, prefix: str) -> list[str]:
    lines = [f"[{prefix}]"]
    for f in fields(rules):
        value = getattr(rules, f.name)
        if value is not None:
            lines.append(f"{f.name} = {_value(value)}")
    return [*lines, ""]


def penalties_toml(ladders: Mapping[str, Ladder]) -> list[str]:
    lines: list[str] = []
    for name, ladder in ladders.items():
        lines += [
            f"[penalties.{_quoted(name)}]",
            f"source = {_value(ladder.source)}",
            f"plus_court_costs = {_value(ladder.plus_court_costs)}",
            "steps = [",
        ]
        for step in ladder.steps:
            parts = []
            if step.forfeiture is not None:
                parts.append(f"forfeiture = {_value(step.forfeiture)}")
            if step.warning:
                parts.append("warning = true")
            if step.revocation_months == PERMANENT:
                parts.append('revocation = "permanent"')
            elif step.revocation_months is not None:
                parts.append(f"revocation_months = {step.revocation_months}")
            if step.order:
                parts.append(f"order = {_value(step.order)}")
            lines.append("  { " + ", ".join(parts) + " },")
        lines += ["]", ""]
    return lines
