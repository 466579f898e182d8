"""Users' time zones: IANA names (daylight saving included) or fixed "UTC+05:30" offsets."""

from __future__ import annotations

import importlib.resources
import re
import zoneinfo
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Protocol

DEFAULT_ZONE = "UTC"
ZONE_NAME_MAX = 64
# Real-world UTC offsets run from -12:00 to +14:00 (a fixed offset is kept only for accounts
# made before time zones were stored, and for browsers that report no zone name).
FIXED_OFFSET_RANGE = (-12 * 60, 14 * 60)
FIXED_OFFSET_PATTERN = re.compile(r"UTC([+-])([0-9]{2}):([0-9]{2})")
# What a person picks from: zone.tab, the IANA database's list of one zone per region of each
# country (Europe/Oslo, Africa/Accra, Asia/Kolkata; 418 of them), as operating systems offer.
# Left out are the names kept for old systems ("US/Eastern", "Asia/Calcutta", "Etc/GMT+5"
# whose sign is inverted); typed or sent by a browser (Chromium says "Asia/Calcutta"), they
# become the zone they link to. Without zone.tab, the zones of these regions are listed.
LISTED_REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic",
                  "Australia", "Europe", "Indian", "Pacific")
# Names zoneinfo may list that are not a place: the machine's own zone, tzdata's placeholder.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})


@lru_cache(maxsize=1)
def _known_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) - NOT_ZONES


def _read_zone_file(name: str) -> str:
    """A file of the zone database (tzdata.zi, zone.tab) from where zoneinfo reads zones: the
    machine's TZPATH first, then the tzdata package ("" if neither has it)."""
    for base in zoneinfo.TZPATH:
        path = Path(base) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return (importlib.resources.files("tzdata") / "zoneinfo" / name).read_text(
            encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return ""


@lru_cache(maxsize=1)
def _country_zones() -> frozenset[str]:
    """The zones of zone.tab (its third column) that zoneinfo knows."""
    names = (line.split("\t")[2] for line in _read_zone_file("zone.tab").splitlines()
             if line and not line.startswith("#") and line.count("\t") >= 2)
    return frozenset(names) & _known_zone_names()


@lru_cache(maxsize=1)
def _zone_links() -> dict[str, str]:
    """Alias -> the zone it names ("L target alias" lines of tzdata.zi, chains followed)."""
    links = {}
    for line in _read_zone_file("tzdata.zi").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L":
            links[parts[2]] = parts[1]
    resolved = {}
    for alias, target in links.items():
        for _ in range(8):  # a link to a link (none today): follow it a few steps
            target = links.get(target, target)
        resolved[alias] = target
    return resolved


@lru_cache(maxsize=1)
def listed_zone_names() -> tuple[str, ...]:
    """"UTC" and the zones of zone.tab, sorted: the choices a settings page offers."""
    names = _country_zones() or frozenset(
        name for name in _known_zone_names() if name.split("/", 1)[0] in LISTED_REGIONS)
    return (DEFAULT_ZONE, *sorted(names))


def _read_fixed_offset(text: str) -> int | None:
    """Minutes east of UTC of "UTC+05:30" (within FIXED_OFFSET_RANGE), else None."""
    fixed = FIXED_OFFSET_PATTERN.fullmatch(text)
    if not fixed:
        return None
    sign, hours, minutes = fixed.groups()
    total = int(hours) * 60 + int(minutes)
    signed = total if sign == "+" else -total
    low, high = FIXED_OFFSET_RANGE
    return signed if int(minutes) < 60 and low <= signed <= high else None


def is_zone_name(name: str | None) -> bool:
    """A stored zone this server can use: "UTC", a fixed offset as format_fixed_offset spells
    it, or any name the zone database knows (links included)."""
    if not name or len(name) > ZONE_NAME_MAX:
        return False
    minutes = _read_fixed_offset(name)
    if minutes is not None:
        return format_fixed_offset(minutes) == name
    return name == DEFAULT_ZONE or _loads_as_zone(name)


@lru_cache(maxsize=1024)
def _loads_as_zone(name: str) -> bool:
    """Whether zoneinfo loads ``name``: what _known_zone_names holds, without listing the whole
    database from disk (50-80 ms) on the first request of each worker that meets a stored zone."""
    if name in NOT_ZONES or not name.isascii():
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def format_fixed_offset(minutes: int) -> str:
    """+330 -> "UTC+05:30", -300 -> "UTC-05:00", 0 -> "UTC"."""
    if not minutes:
        return DEFAULT_ZONE
    sign = "+" if minutes > 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def canonicalize_zone_name(text: str | None) -> str | None:
    """The stored spelling of a zone typed or sent by a browser, or None if it names none.

    Accepts an IANA name zoneinfo knows ("Europe/Berlin"; a link becomes the zone it names,
    "Asia/Calcutta" -> "Asia/Kolkata", and UTC's aliases "UTC") and a fixed offset within
    FIXED_OFFSET_RANGE ("UTC+05:30"; "UTC+00:00" becomes "UTC").
    """
    text = (text or "").strip()
    if not text or len(text) > ZONE_NAME_MAX or not text.isascii():
        return None
    if FIXED_OFFSET_PATTERN.fullmatch(text):
        minutes = _read_fixed_offset(text)
        return None if minutes is None else format_fixed_offset(minutes)
    if text not in _known_zone_names() and text != DEFAULT_ZONE:
        return None
    # A zone of the list stays as it is, even where the database now links it to another
    # (Europe/Oslo to Europe/Berlin since 2022): people know their own place's name.
    target = text if text in _country_zones() else _zone_links().get(text, text)
    return DEFAULT_ZONE if target in ("Etc/UTC", DEFAULT_ZONE) else target


def describe_zone(name: str, now: datetime) -> str:
    """A stored zone with its offset at ``now``, "Europe/Berlin (UTC+01:00 now)"; a fixed
    zone as itself ("UTC+05:30"); ValueError for a name this server does not know."""
    offset = now.astimezone(compute_zone(name)).utcoffset() or timedelta(0)
    spelled = format_fixed_offset(offset // timedelta(minutes=1))
    return name if name == spelled else f"{name} ({spelled} now)"


@lru_cache(maxsize=1024)
def compute_zone(name: str) -> tzinfo:
    """The tzinfo of a stored zone name (see is_zone_name); ValueError otherwise."""
    if not is_zone_name(name):
        raise ValueError(f"not a time zone name: {name!r}")
    if name == DEFAULT_ZONE:
        return UTC
    minutes = _read_fixed_offset(name)
    if minutes is not None:
        return timezone(timedelta(minutes=minutes))
    return zoneinfo.ZoneInfo(name)


class Zoned(Protocol):
    """Anything with a stored time zone name (an account, a signed-in user)."""

    @property
    def time_zone(self) -> str: ...


def compute_named_zone(name: str) -> tzinfo:
    """The tzinfo of a stored time zone; UTC if the name is no longer known (a zone database
    without it), so a page still renders rather than failing on every request."""
    try:
        return compute_zone(name)
    except ValueError:
        return UTC


def compute_user_zone(user: Zoned) -> tzinfo:
    """The tzinfo of ``user.time_zone`` (compute_named_zone)."""
    return compute_named_zone(user.time_zone)
