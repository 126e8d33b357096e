"""Discord's message limits, checked on every message the bot creates or edits.

Sources: Discord API v10 docs, "Message Components" (≤ 5 action rows, ≤ 5 buttons
or one select per row, custom_id ≤ 100 chars, ≤ 25 select options, labels ≤ 80),
"Components v2" (≤ 40 components in total), "Embed Limits" (≤ 10 embeds, 6000
characters in total), "Create Message" (content ≤ 2000, alt text ≤ 1024).
"""

from __future__ import annotations

from typing import Any

from sandbox.loopback.model import FLAG_COMPONENTS_V2

SELECT_TYPES = (3, 5, 6, 7, 8)
INTERACTIVE_TYPES = (2, *SELECT_TYPES, 4)


def _check_custom_id(c: dict[str, Any], where: str, seen: set[str], out: list[str]) -> None:
    cid = c.get("custom_id")
    if cid is None:
        out.append(f"{where}: custom_id is required")
        return
    if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
        out.append(f"{where}: custom_id must be 1..100 chars (got {len(str(cid))})")
    if cid in seen:
        out.append(f"{where}: duplicate custom_id {cid!r}")
    seen.add(cid)


def _check_button(c: dict[str, Any], where: str, seen: set[str], out: list[str]) -> None:
    style = c.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        out.append(f"{where}: invalid button style {style!r}")
    if len(c.get("label") or "") > 80:
        out.append(f"{where}: button label longer than 80 chars")
    if style == 5:
        if not c.get("url") or "custom_id" in c:
            out.append(f"{where}: link button needs url and no custom_id")
    elif style != 6:
        _check_custom_id(c, where, seen, out)
    if not c.get("label") and not c.get("emoji") and style != 6:
        out.append(f"{where}: button needs a label or an emoji")


def _check_select(c: dict[str, Any], where: str, seen: set[str], out: list[str]) -> None:
    _check_custom_id(c, where, seen, out)
    if len(c.get("placeholder") or "") > 150:
        out.append(f"{where}: placeholder longer than 150 chars")
    min_v, max_v = c.get("min_values", 1), c.get("max_values", 1)
    if not 0 <= min_v <= 25 or not 1 <= max_v <= 25 or min_v > max_v:
        out.append(f"{where}: bad min_values/max_values {min_v}/{max_v}")
    if c.get("type") != 3:
        return
    options = c.get("options") or []
    if not 1 <= len(options) <= 25:
        out.append(f"{where}: select needs 1..25 options (got {len(options)})")
    if max_v > len(options):
        out.append(f"{where}: max_values {max_v} exceeds {len(options)} options")
    values: set[str] = set()
    for j, opt in enumerate(options):
        ow = f"{where}.options[{j}]"
        for key in ("label", "value", "description"):
            if len(str(opt.get(key) or "")) > 100:
                out.append(f"{ow}: {key} longer than 100 chars")
        if not opt.get("label") or not opt.get("value"):
            out.append(f"{ow}: label and value are required")
        if opt.get("value") in values:
            out.append(f"{ow}: duplicate option value {opt.get('value')!r}")
        values.add(opt.get("value"))


def _check_component(c: dict[str, Any], where: str, seen: set[str], out: list[str]) -> None:
    t = c.get("type")
    if t == 2:
        _check_button(c, where, seen, out)
    elif t in SELECT_TYPES:
        _check_select(c, where, seen, out)
    for i, child in enumerate(c.get("components") or []):
        _check_component(child, f"{where}.components[{i}]", seen, out)
    if isinstance(c.get("accessory"), dict):
        _check_component(c["accessory"], f"{where}.accessory", seen, out)


def _count(items: list[dict[str, Any]]) -> int:
    n = 0
    for c in items:
        n += 1 + _count(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            n += 1
    return n


def component_problems(components: list[dict[str, Any]], flags: int) -> list[str]:
    """Problems with a message's ``components`` (empty list when valid)."""
    out: list[str] = []
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        if _count(components) > 40:
            out.append(f"components: more than 40 components ({_count(components)})")
    else:
        if len(components) > 5:
            out.append(f"components: more than 5 action rows ({len(components)})")
        for i, row in enumerate(components):
            where = f"components[{i}]"
            if row.get("type") != 1:
                out.append(f"{where}: top-level component must be an action row (type 1)")
                continue
            kids = row.get("components") or []
            kinds = {k.get("type") for k in kids}
            if not kids:
                out.append(f"{where}: empty action row")
            elif kinds <= {2} and len(kids) > 5:
                out.append(f"{where}: more than 5 buttons in a row ({len(kids)})")
            elif kinds & set(SELECT_TYPES) and len(kids) != 1:
                out.append(f"{where}: a select must be alone in its row")
            elif kinds & set(SELECT_TYPES) and kinds & {2}:
                out.append(f"{where}: buttons and selects mixed in a row")
    for i, c in enumerate(components):
        _check_component(c, f"components[{i}]", seen, out)
    return out


def embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    """Problems with a message's ``embeds`` (Discord "Embed Limits")."""
    out: list[str] = []
    if len(embeds) > 10:
        out.append(f"embeds: more than 10 ({len(embeds)})")
    total = 0
    for i, e in enumerate(embeds):
        where = f"embeds[{i}]"
        limits = {"title": 256, "description": 4096}
        for key, lim in limits.items():
            n = len(e.get(key) or "")
            total += n
            if n > lim:
                out.append(f"{where}.{key}: longer than {lim} ({n})")
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(f"{where}.fields: more than 25")
        for j, f in enumerate(fields):
            name, value = str(f.get("name", "")), str(f.get("value", ""))
            total += len(name) + len(value)
            if not name or len(name) > 256:
                out.append(f"{where}.fields[{j}].name: must be 1..256 chars")
            if not value or len(value) > 1024:
                out.append(f"{where}.fields[{j}].value: must be 1..1024 chars")
        footer = len((e.get("footer") or {}).get("text") or "")
        author = len((e.get("author") or {}).get("name") or "")
        total += footer + author
        if footer > 2048:
            out.append(f"{where}.footer.text: longer than 2048")
        if author > 256:
            out.append(f"{where}.author.name: longer than 256")
    if total > 6000:
        out.append(f"embeds: more than 6000 characters in total ({total})")
    return out


def message_problems(state: dict[str, Any]) -> list[str]:
    """Problems with a message's final state: keys content, embeds, components, flags,
    attachments (each a dict with ``filename`` and optional ``description``)."""
    out: list[str] = []
    content = state.get("content") or ""
    flags = int(state.get("flags") or 0)
    if len(content) > 2000:
        out.append(f"content: longer than 2000 chars ({len(content)})")
    if flags & FLAG_COMPONENTS_V2 and (content or state.get("embeds")):
        out.append("content/embeds cannot be used with the IS_COMPONENTS_V2 flag")
    out += embed_problems(state.get("embeds") or [])
    out += component_problems(state.get("components") or [], flags)
    for i, a in enumerate(state.get("attachments") or []):
        if not a.get("filename"):
            out.append(f"attachments[{i}]: filename is required")
        if len(a.get("description") or "") > 1024:
            out.append(f"attachments[{i}].description: longer than 1024 chars")
    return out


def is_empty(state: dict[str, Any]) -> bool:
    """True when a message would have nothing to show (Discord error 50006)."""
    return not (
        state.get("content")
        or state.get("embeds")
        or state.get("components")
        or state.get("attachments")
        or state.get("poll")
    )
