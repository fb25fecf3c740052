"""What a cell showed in the grading sandbox, kept only in the expected shape and size (see :mod:`._isolated`)."""

from __future__ import annotations

import base64
import re

__all__ = ["clean_outputs"]

MAX_OUTPUT_TEXT = 20000
MAX_PNG = 2 << 20
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _text(value, limit: int = MAX_OUTPUT_TEXT) -> str:
    return _ANSI.sub("", value[:limit])


def clean_outputs(raw) -> list[dict]:
    """A cell's outputs as the child reported them, kept only in the expected shape and size.

    Each is ``{"type": "stream", "name": "stdout"|"stderr", "text"}``, ``{"type": "text", "text"}``,
    ``{"type": "image", "png"}`` (base64 of a PNG file) or ``{"type": "error", "ename", "evalue",
    "traceback"}``; anything else is dropped, long text is cut.
    """
    kept = []
    if type(raw) is not list:
        return kept
    for item in raw[:20]:
        if type(item) is not dict:
            continue
        kind = item.get("type")
        if kind == "stream" and item.get("name") in ("stdout", "stderr") and type(item.get("text")) is str:
            kept.append({"type": "stream", "name": item["name"], "text": _text(item["text"])})
        elif kind == "text" and type(item.get("text")) is str:
            kept.append({"type": "text", "text": _text(item["text"])})
        elif kind == "image" and type(item.get("png")) is str and len(item["png"]) <= MAX_PNG:
            try:
                data = base64.b64decode(item["png"].encode("ascii"), validate=True)
            except (ValueError, UnicodeEncodeError):
                continue
            if data.startswith(b"\x89PNG\r\n\x1a\n"):
                kept.append({"type": "image", "png": item["png"]})
        elif kind == "error" and type(item.get("ename")) is str and type(item.get("evalue")) is str:
            lines = item.get("traceback")
            lines = [_text(line, 2000) for line in lines[:40] if type(line) is str] if type(lines) is list else []
            kept.append({"type": "error", "ename": _text(item["ename"], 200), "evalue": _text(item["evalue"], 2000),
                         "traceback": lines})
    return kept
