"""instructors.md lists the layers of `make test` that the Makefile runs, in its order."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def makefile_layers() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    match = re.search(r"^LAYERS := (.*?)(?<!\\)\n", text, re.MULTILINE | re.DOTALL)
    assert match, "the Makefile defines no LAYERS"
    quoted = re.findall(r'"([^"]+)"|(\S+)', match.group(1).replace("\\\n", " "))
    return [(a or b).split()[0] for a, b in quoted]


def test_the_instructors_page_names_every_layer_in_order():
    section = (ROOT / "instructors.md").read_text().split("## Changing a chapter and running the tests", 1)[1]
    items = re.split(r"^\d+\. ", section.split("\n\n1. ", 1)[1].split("\n\n", 1)[0], flags=re.MULTILINE)
    listed = [re.findall(r"`([\w-]+)`", item)[-1] for item in ["1. " + items[0]] + items[1:]]
    assert listed == makefile_layers(), (listed, makefile_layers())
    assert f"It runs {['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'][len(listed)]} layers" in section
