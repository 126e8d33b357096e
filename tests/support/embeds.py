"""An embed as one text, for tests that read what a member reads: the description, then
each field as ``**name** value`` (``/ddz rules`` puts its parts in fields)."""

from __future__ import annotations

from typing import Any


def embed_text(embed: dict[str, Any]) -> str:
    """``embed`` (a message's embed as sent) as text: description and fields."""
    parts = [embed.get("description") or ""]
    for field in embed.get("fields") or []:
        name = "" if field["name"] == "\u200b" else f"**{field['name']}** "
        parts.append(name + field["value"])
    return "\n\n".join(p for p in parts if p)
