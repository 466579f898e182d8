"""The heat map's colours: each band's text on its fill reaches WCAG's 4.5:1, light and dark,
and the dark values follow the account's theme as app.css does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[3] / "quizapp" / "web" / "static"
       / "dashboard.css").read_text()
BLOCKS = {
    "light": r":root \{(.*?)\}",
    "dark (system)": r':root:not\(\[data-theme="light"\]\) \{(.*?)\}',
    "dark (chosen)": r':root\[data-theme="dark"\] \{(.*?)\}',
}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("block", sorted(BLOCKS))
def test_every_band_reads_at_four_and_a_half_to_one(block):
    found = re.search(BLOCKS[block], CSS, re.S)
    assert found, block
    values = dict(re.findall(r"--(hm\d-(?:bg|fg)): (#[0-9a-f]{6})", found.group(1)))
    assert len(values) == 10, values
    for band in range(5):
        ratio = contrast(values[f"hm{band}-bg"], values[f"hm{band}-fg"])
        assert ratio >= 4.5, (block, band, round(ratio, 2))


def test_the_dark_values_are_the_same_for_the_system_and_the_chosen_theme():
    system = re.search(BLOCKS["dark (system)"], CSS, re.S).group(1).split()
    chosen = re.search(BLOCKS["dark (chosen)"], CSS, re.S).group(1).split()
    assert system == chosen
    assert "@media (prefers-color-scheme: dark)" in CSS
