"""The jurisdiction profile: time zone, periods, fees and extra holidays.

One TOML file per jurisdiction (RULES.md section 5). ``Profile.default()`` is
the city's own profile shipped in this package; ``Profile.from_toml`` loads
another and raises ``ValueError`` naming the offending key. A profile is a
frozen dataclass, so a service applies the council fee schedule in force on a
date with ``dataclasses.replace(profile, fees=...)``; every field is validated
on construction, including through ``replace``.

RULES.md section 8 adds the dog licence rates (``licence_unaltered``,
``licence_altered``, ``licence_late_fee``), the chicken and fancier permit
rules (``chickens``, ``fancier``) and the penalty ladders (``penalties``);
their types and the city's values are in ``profile_local.py``. Besides the
city's, the package ships other towns' profiles (``profiles/*.toml``):
``Profile.shipped()`` lists them, ``Profile.named("dodgeville")`` loads one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fieldops.rules._frozen import FrozenMap
from fieldops.rules.profile_local import (
    CITY_CHICKENS,
    CITY_FANCIER,
    CITY_LICENCE_ALTERED,
    CITY_LICENCE_LATE_FEE,
    CITY_LICENCE_UNALTERED,
    CITY_PENALTIES,
    ChickenRules,
    FancierRules,
    Ladder,
    check_penalties,
    penalties_toml,
    read_penalties,
    read_rules,
    rules_toml,
)
from fieldops.rules.profile_local import (
    parse_money as parse_money,  # re-exported: it lived here first
)

SPECIES = ("dog", "cat", "other")
"""Fee classes. Any species other than dog or cat is charged as "other"."""


@dataclass(frozen=True)
class FeeSchedule:
    """The council's fees for one species class (city code 58-526(a); Wis. Stat. 173.15(1)).

    Amounts may be given as ``Decimal``, ``int`` or strings like "40.00"; they
    are stored as two-place ``Decimal`` values (see ``parse_money``).
    """

    impound: Decimal
    boarding_per_day: Decimal
    adoption: Decimal

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, parse_money(getattr(self, f.name), f.name))


# attribute -> (TOML section, minimum). The TOML key equals the attribute name.
_PERIODS: dict[str, tuple[str, int]] = {
    "hold_days": ("impound", 1),
    "bite_hold_days": ("impound", 1),
    "repeat_window_days": ("impound", 1),
    "repeat_multiplier": ("impound", 1),
    "observation_days": ("quarantine", 1),
    "exams_required": ("quarantine", 2),
    "certificate_return_days": ("quarantine", 1),
    "clinic_delivery_hours": ("quarantine", 1),
    "notice_hours": ("vicious", 1),
}

_SECTIONS: dict[str, tuple[str, ...]] = {
    "jurisdiction": ("name", "timezone"),
    "impound": ("hold_days", "bite_hold_days", "repeat_window_days", "repeat_multiplier"),
    "fees": SPECIES,
    "quarantine": (
        "observation_days",
        "exams_required",
        "certificate_return_days",
        "clinic_delivery_hours",
    ),
    "vicious": ("notice_hours",),
    "holidays": ("extra",),
}
_OPTIONAL_SECTIONS = frozenset({"holidays"})
# RULES.md sections 6-8: optional; when absent the city's values apply
# (profile_local.py). Read by _read_local, not by the loop over _SECTIONS.
_LOCAL_SECTIONS = ("licence", "permits", "penalties")
_LICENCE_KEYS = ("unaltered", "altered", "late_fee")
_PERMIT_KINDS = ("chicken", "fancier")
_FEE_KEYS = ("impound", "boarding_per_day", "adoption")


def _zone(value: Any, key: str) -> ZoneInfo:
    if isinstance(value, ZoneInfo):
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key}: {value!r} is not a time zone name")
    try:
        return ZoneInfo(value.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"{key}: unknown time zone {value!r}") from None


def _holiday(value: Any, key: str) -> date:
    if isinstance(value, datetime):
        raise ValueError(f"{key}: {value!r} is a date and time; give a date")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ValueError(f"{key}: {value!r} is not a date (use YYYY-MM-DD)")


def _period(value: Any, key: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: must be a whole number, not {value!r}")
    if value < minimum:
        raise ValueError(f"{key}: must be at least {minimum}, not {value}")
    return value


@dataclass(frozen=True)
class Profile:
    """One jurisdiction's settings (RULES.md section 5). Fields mirror the TOML.

    Construction (and ``dataclasses.replace``) validates every field and
    raises ``ValueError`` naming the TOML key. For convenience ``timezone`` may
    be given as a zone name, ``fees`` as a plain dict (stored read-only) and
    ``extra_holidays`` as any iterable of dates.
    """

    name: str
    timezone: ZoneInfo
    hold_days: int
    bite_hold_days: int
    repeat_window_days: int
    repeat_multiplier: int
    fees: Mapping[str, FeeSchedule]
    observation_days: int
    exams_required: int
    certificate_return_days: int
    clinic_delivery_hours: int
    notice_hours: int
    extra_holidays: frozenset[date] = field(default_factory=frozenset)
    licence_unaltered: Decimal = CITY_LICENCE_UNALTERED
    licence_altered: Decimal = CITY_LICENCE_ALTERED
    licence_late_fee: Decimal = CITY_LICENCE_LATE_FEE
    chickens: ChickenRules = CITY_CHICKENS
    fancier: FancierRules = CITY_FANCIER
    penalties: Mapping[str, Ladder] = CITY_PENALTIES

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for key in _LICENCE_KEYS:
            attr = f"licence_{key}"
            set_(self, attr, parse_money(getattr(self, attr), f"licence.{key}"))
        if not isinstance(self.chickens, ChickenRules):
            raise ValueError("permits.chicken: must be a ChickenRules")
        if not isinstance(self.fancier, FancierRules):
            raise ValueError("permits.fancier: must be a FancierRules")
        set_(self, "penalties", check_penalties(self.penalties))
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("jurisdiction.name: must be a non-empty string")
        set_(self, "timezone", _zone(self.timezone, "jurisdiction.timezone"))
        for attr, (section, minimum) in _PERIODS.items():
            _period(getattr(self, attr), f"{section}.{attr}", minimum)
        if self.exams_required > 3:
            # 58-527(b) requires three; ATCP 13.03(3) lets a local program use two.
            raise ValueError(
                f"quarantine.exams_required: must be 2 or 3, not {self.exams_required}"
            )
        if self.bite_hold_days < self.hold_days:
            raise ValueError(
                "impound.bite_hold_days: must not be shorter than impound.hold_days "
                f"({self.bite_hold_days} < {self.hold_days})"
            )
        set_(self, "fees", _fee_table(self.fees))
        if isinstance(self.extra_holidays, str | date) or not isinstance(
            self.extra_holidays, Iterable
        ):
            raise ValueError("holidays.extra: must be a list of dates")
        set_(
            self,
            "extra_holidays",
            frozenset(_holiday(d, "holidays.extra") for d in self.extra_holidays),
        )

    # -- loading ---------------------------------------------------------

    @classmethod
    def default(cls) -> Profile:
        """The city's profile shipped with the app (``default_profile.toml``)."""
        return _default_profile()

    @classmethod
    def from_toml(cls, text: str) -> Profile:
        """Parse a jurisdiction profile; ``ValueError`` names the bad key or section.

        Every section and key of RULES.md section 5 is required except
        ``[holidays]``; unknown sections and keys are refused so a typo cannot
        silently fall back to another jurisdiction's value. ``[licence]``,
        ``[permits.chicken]``, ``[permits.fancier]`` and ``[penalties]``
        (RULES.md section 8) are optional, the city's values applying when
        absent; one that is present is read whole (``profile_local.py``).
        """
        if not isinstance(text, str):
            raise TypeError("from_toml takes the text of a TOML file")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"profile is not valid TOML: {exc}") from None
        local = _read_local({k: data.pop(k) for k in _LOCAL_SECTIONS if k in data})
        for section in data:
            if section not in _SECTIONS:
                raise ValueError(f"[{section}]: unknown section")
        tables: dict[str, dict[str, Any]] = {}
        for section, keys in _SECTIONS.items():
            table = data.get(section)
            if table is None:
                if section in _OPTIONAL_SECTIONS:
                    table = {}
                else:
                    raise ValueError(f"[{section}]: missing section")
            if not isinstance(table, dict):
                raise ValueError(f"[{section}]: must be a table")
            for key in table:
                if key not in keys:
                    kind = "section" if section == "fees" else "key"
                    raise ValueError(f"{section}.{key}: unknown {kind}")
            if section not in _OPTIONAL_SECTIONS:
                for key in keys:
                    if key not in table:
                        kind = "section" if section == "fees" else "key"
                        raise ValueError(f"{section}.{key}: missing {kind}")
            tables[section] = table

        fees: dict[str, FeeSchedule] = {}
        for species in SPECIES:
            table = tables["fees"][species]
            prefix = f"fees.{species}"
            if not isinstance(table, dict):
                raise ValueError(f"[{prefix}]: must be a table")
            for key in table:
                if key not in _FEE_KEYS:
                    raise ValueError(f"{prefix}.{key}: unknown key")
            amounts = {}
            for key in _FEE_KEYS:
                if key not in table:
                    raise ValueError(f"{prefix}.{key}: missing key")
                amounts[key] = parse_money(table[key], f"{prefix}.{key}")
            fees[species] = FeeSchedule(**amounts)

        extra = tables["holidays"].get("extra", [])
        if not isinstance(extra, list):
            raise ValueError("holidays.extra: must be a list of dates")

        values: dict[str, Any] = {
            attr: tables[section][attr] for attr, (section, _) in _PERIODS.items()
        }
        return cls(
            name=tables["jurisdiction"]["name"],
            timezone=_zone(tables["jurisdiction"]["timezone"], "jurisdiction.timezone"),
            fees=fees,
            extra_holidays=frozenset(_holiday(d, "holidays.extra") for d in extra),
            **values,
            **local,
        )

    @classmethod
    def shipped(cls) -> tuple[str, ...]:
        """Names of the profiles shipped with the app: "city" and the other towns'."""
        folder = resources.files("fieldops.rules").joinpath("profiles")
        entries = folder.iterdir() if folder.is_dir() else ()
        towns = sorted(e.name.removesuffix(".toml") for e in entries if e.name.endswith(".toml"))
        return ("city", *towns)

    @classmethod
    def named(cls, name: str) -> Profile:
        """A shipped profile by name ("city", "dodgeville", "village"); see ``shipped``.

        An unknown name raises ``ValueError`` listing the names there are.
        """
        return _named_profile(name.strip().lower() if isinstance(name, str) else "")

    # -- use ---------------------------------------------------------------

    def fee_class(self, species: str) -> str:
        """The fee class for ``species``: "dog", "cat" or, for anything else, "other"."""
        key = species.strip().lower() if isinstance(species, str) else ""
        return key if key in self.fees else "other"

    def fee_schedule(self, species: str) -> FeeSchedule:
        """The fees for ``species`` (an unknown species uses "other")."""
        return self.fees[self.fee_class(species)]

    def to_toml(self) -> str:
        """The profile as TOML text that ``from_toml`` reads back to an equal profile."""
        lines = [
            "# FieldOps jurisdiction profile (RULES.md section 5).",
            "",
            "[jurisdiction]",
            f"name = {_toml_str(self.name)}",
            f"timezone = {_toml_str(self.timezone.key)}",
            "",
            "[impound]",
        ]
        lines += [f"{a} = {getattr(self, a)}" for a, (s, _) in _PERIODS.items() if s == "impound"]
        lines.append("")
        lines.append("# Fee amounts are set by common council resolution (city code 58-526(a)).")
        for species in SPECIES:
            sched = self.fees[species]
            lines += [
                f"[fees.{species}]",
                f'impound = "{sched.impound}"',
                f'boarding_per_day = "{sched.boarding_per_day}"',
                f'adoption = "{sched.adoption}"',
                "",
            ]
        lines.append("[quarantine]")
        lines += [
            f"{a} = {getattr(self, a)}" for a, (s, _) in _PERIODS.items() if s == "quarantine"
        ]
        lines += ["", "[vicious]", f"notice_hours = {self.notice_hours}", "", "[holidays]"]
        extra = ", ".join(f'"{d.isoformat()}"' for d in sorted(self.extra_holidays))
        lines += [f"extra = [{extra}]", ""]
        lines += [
            "# Licence rates and late fee: set by common council resolution (58-533(c)(4)).",
            "[licence]",
            f'unaltered = "{self.licence_unaltered}"',
            f'altered = "{self.licence_altered}"',
            f'late_fee = "{self.licence_late_fee}"',
            "",
        ]
        lines += rules_toml(self.chickens, "permits.chicken")
        lines += rules_toml(self.fancier, "permits.fancier")
        lines += penalties_toml(self.penalties)
        return "\n".join(lines)


def _fee_table(fees: Any) -> FrozenMap[str, FeeSchedule]:
    if not isinstance(fees, Mapping):
        raise ValueError("fees: must map species to a FeeSchedule")
    table: dict[str, FeeSchedule] = {}
    for species, sched in fees.items():
        if species not in SPECIES:
            raise ValueError(f"fees.{species}: unknown section (use dog, cat or other)")
        if not isinstance(sched, FeeSchedule):
            raise ValueError(f"fees.{species}: must be a FeeSchedule")
        table[species] = sched
    for species in SPECIES:
        if species not in table:
            raise ValueError(f"fees.{species}: missing section")
    return FrozenMap(table)


def _toml_str(value: str) -> str:
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _read_local(data: dict[str, Any]) -> dict[str, Any]:
    """The optional ``[licence]``, ``[permits.*]`` and ``[penalties.*]`` as Profile fields."""
    out: dict[str, Any] = {}
    if "licence" in data:
        table = data["licence"]
        if not isinstance(table, dict):
            raise ValueError("[licence]: must be a table")
        for key in table:
            if key not in _LICENCE_KEYS:
                raise ValueError(f"licence.{key}: unknown key")
        for key in _LICENCE_KEYS:
            if key not in table:
                raise ValueError(f"licence.{key}: missing key")
            out[f"licence_{key}"] = parse_money(table[key], f"licence.{key}")
    if "permits" in data:
        table = data["permits"]
        if not isinstance(table, dict):
            raise ValueError("[permits]: must be a table")
        for kind in table:
            if kind not in _PERMIT_KINDS:
                raise ValueError(f"permits.{kind}: unknown section (use chicken or fancier)")
        if "chicken" in table:
            out["chickens"] = read_rules(ChickenRules, table["chicken"], "permits.chicken")
        if "fancier" in table:
            out["fancier"] = read_rules(FancierRules, table["fancier"], "permits.fancier")
    if "penalties" in data:
        out["penalties"] = read_penalties(data["penalties"])
    return out


@lru_cache(maxsize=8)
def _named_profile(name: str) -> Profile:
    if name == "city":
        return _default_profile()
    names = Profile.shipped()
    if name not in names:
        raise ValueError(
            f"profile {name!r}: no such shipped profile (there are {', '.join(names)})"
        )
    text = resources.files("fieldops.rules").joinpath("profiles", f"{name}.toml").read_text("utf-8")
    return Profile.from_toml(text)


@lru_cache(maxsize=1)
def _default_profile() -> Profile:
    text = resources.files("fieldops.rules").joinpath("default_profile.toml").read_text("utf-8")
    return Profile.from_toml(text)
