"""Test helper: decode PNG bytes into a loaded Pillow image."""

from __future__ import annotations

import io

from PIL import Image


def decode(png: bytes) -> Image.Image:
    """Open PNG bytes fully; raises if they are not a valid PNG."""
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img


def colour_count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tol: int = 12) -> int:
    """Opaque-ish pixels inside ``box`` (l, t, r, b) within ``tol`` per channel of ``colour``."""
    data = img.crop(box).convert("RGBA").tobytes()
    r0, g0, b0 = colour
    return sum(
        1
        for i in range(0, len(data), 4)
        if data[i + 3] >= 128
        and abs(data[i] - r0) <= tol
        and abs(data[i + 1] - g0) <= tol
        and abs(data[i + 2] - b0) <= tol
    )
