"""Sphinx extension: pages with widgets paint first, and every figure opens at full size.

MyST-NB writes a page's widget state (every slider frame, base64-encoded: up to
1.2 MB) into a script in the page's ``<head>``, so a browser on a slow network
shows nothing until all of it has arrived. This extension, for each page:

- moves the widget state to the end of the page body, after the text (the
  widget manager reads it from anywhere in the document once it runs);
- puts a plain image of each frame slider's first frame (with alt text that
  names the slider and its first value) in front of the slider, so a reader
  without JavaScript, or one whose widget scripts are still loading, sees the
  figure; ``book.css`` hides it once the widget manager has drawn the slider;
- wraps every output figure in a link to its PNG, so a reader can open any
  figure at full size.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(?P<json>\{.*?\})</script>')
OUTPUT_IMAGE = re.compile(r'(?P<img><img alt="[^"]*" src="(?P<src>[^"]*_images/[^"]+\.png)" />)')


def _model(state: dict, ref: str) -> dict | None:
    model_id = ref[len("IPY_MODEL_"):] if isinstance(ref, str) and ref.startswith("IPY_MODEL_") else ref
    return state.get(model_id)


def _descendants(state: dict, model: dict):
    """Yield ``model`` and every model below it (children of boxes), depth first."""
    yield model
    for ref in model.get("state", {}).get("children", []) or []:
        child = _model(state, ref)
        if child is not None:
            yield from _descendants(state, child)


def first_frame(state: dict, model_id: str) -> tuple[bytes, str] | None:
    """The PNG shown first by the frame slider ``model_id`` and its alt text, or None.

    A frame slider is a box holding a
    ``SelectionSlider`` and a ``Stack`` of ``Image`` frames whose selected index
    follows the slider; other widgets get no fallback image.
    """
    root = state.get(model_id)
    if root is None:
        return None
    models = list(_descendants(state, root))
    stacks = [m for m in models if m.get("model_name") == "StackModel"]
    sliders = [m for m in models if m.get("model_name") == "SelectionSliderModel"]
    if len(stacks) != 1 or len(sliders) != 1:
        return None
    stack, slider = stacks[0]["state"], sliders[0]["state"]
    index = slider.get("index", 0) or 0
    children = stack.get("children", [])
    if not 0 <= index < len(children):
        return None
    image = _model(state, children[index])
    if image is None or image.get("model_name") != "ImageModel":
        return None
    buffers = [b for b in image.get("buffers", []) if b.get("path") == ["value"] and b.get("encoding") == "base64"]
    if not buffers:
        return None
    labels = slider.get("_options_labels", [])
    readout = labels[index] if index < len(labels) else str(index)
    description = slider.get("description", "") or "slider"
    alt = f"Figure for {description} = {readout} (the slider's first position)"
    return base64.b64decode(buffers[0]["data"]), alt


def _rewrite(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body:
        return
    pathto = context["pathto"]
    state_script = None
    scripts = []
    for script in context.get("script_files", []):
        if getattr(script, "attributes", {}).get("type") == STATE_TYPE:
            state_script = script
        else:
            scripts.append(script)
    if state_script is not None:
        context["script_files"] = scripts
        text = state_script.attributes["body"]
        state = json.loads(text).get("state", {})
        images = Path(app.outdir) / "_images"

        def add_fallback(match: re.Match) -> str:
            model_id = json.loads(match.group("json")).get("model_id", "")
            frame = first_frame(state, model_id)
            if frame is None:
                return match.group(0)
            png, alt = frame
            images.mkdir(parents=True, exist_ok=True)
            name = f"widget-{model_id}.png"
            (images / name).write_bytes(png)
            src = pathto(f"_images/{name}", 1)
            return (f'<img class="widget-fallback" src="{src}" alt="{html.escape(alt)}" loading="lazy" />'
                    + match.group(0))

        body = VIEW.sub(add_fallback, body)
        body += f'\n<script type="{STATE_TYPE}">{text}</script>\n'
    body = OUTPUT_IMAGE.sub(
        lambda m: f'<a class="figure-full" href="{m.group("src")}" target="_blank" rel="noopener">{m.group("img")}</a>',
        body)
    context["body"] = body


def setup(app):
    app.connect("html-page-context", _rewrite, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
