"""Time zones read from the pinned tzdata package alone, as in the Docker image, which runs
with PYTHONTZPATH="" (no zone files of the machine's)."""

from __future__ import annotations

import importlib.resources
import zoneinfo

import pytest

from quizapp.srs import canonicalize_zone_name, listed_zone_names, zones

ZONE_CACHES = (zones._known_zone_names, zones._country_zones, zones._zone_links,
               zones.listed_zone_names, zones._loads_as_zone, zones.compute_zone)


def clear_zone_caches() -> None:
    for cached in ZONE_CACHES:
        cached.cache_clear()


@pytest.fixture
def package_zone_data():
    """zoneinfo without a search path (what PYTHONTZPATH="" gives), zones.py's caches empty;
    the machine's search path and fresh caches again afterwards."""
    saved = zoneinfo.TZPATH
    clear_zone_caches()
    zoneinfo.reset_tzpath(to=())
    try:
        yield
    finally:
        zoneinfo.reset_tzpath(to=saved)
        clear_zone_caches()


def package_zone_tab() -> set[str]:
    text = (importlib.resources.files("tzdata") / "zoneinfo" / "zone.tab").read_text(
        encoding="utf-8")
    return {line.split("\t")[2] for line in text.splitlines()
            if line and not line.startswith("#")}


def test_the_zone_list_comes_from_the_tzdata_package_without_machine_zone_data(
        package_zone_data):
    assert zoneinfo.TZPATH == ()
    listed = listed_zone_names()
    assert len(listed) > 300
    assert listed[0] == "UTC" and "Europe/Berlin" in listed and "Asia/Kolkata" in listed
    assert set(listed[1:]) == package_zone_tab()  # zone.tab's zones, not every Asia/* name
    assert "Asia/Calcutta" not in listed and "US/Eastern" not in listed


@pytest.mark.parametrize(("sent", "stored"), [
    ("Asia/Calcutta", "Asia/Kolkata"), ("US/Eastern", "America/New_York"), ("Etc/UTC", "UTC"),
    ("Europe/Berlin", "Europe/Berlin"), ("Mars/Olympus_Mons", None)])
def test_aliases_resolve_from_the_tzdata_package_without_machine_zone_data(
        package_zone_data, sent, stored):
    assert canonicalize_zone_name(sent) == stored
