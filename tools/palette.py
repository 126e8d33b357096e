"""The shared PNG palette, chosen from the sample images: ``python -m tools.palette``.

``rendering.compose.encode_png`` maps every image to one fixed palette of 256
colours (``SHARED_PALETTE`` in ``rendering/palette_data.py``), so that encoding is
a cheap lookup. This module chooses it: the RGB drawings of the samples of every
image kind (``tools.samples``) stacked into one atlas, Pillow's fast octree of
it, then the ``EXACT_COLOURS`` most frequent colours of the atlas (felt, panels,
paper, text) put in place of their nearest entries so that flat areas stay exact.
Run it after changing a colour of the drawings (a test fails until then); it
rewrites ``rendering/palette_data.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PIL import Image

from rendering import hand, result, stats, table
from rendering.compose import PNG_COLOURS
from tools import samples

EXACT_COLOURS = 32
"""The most frequent colours of the samples, kept exact in the palette."""

DATA = Path(__file__).resolve().parents[1] / "rendering" / "palette_data.py"


def sample_drawings() -> list[Image.Image]:
    """The RGB drawings of the samples (English: other languages change words, not colours).

    Not thread-safe: it swaps the result's and the chart's ``encode_png`` for a moment
    (the hand and the table, assembled from bands, have their canvases drawn whole:
    ``hand_image``, ``table_image``)."""
    drawn: list[Image.Image] = [
        hand.hand_image(samples.landlord_hand(), selected=samples.selected_three()),
        table.table_image(samples.mid_game_table()),
        table.table_image(samples.bidding_table()),
    ]

    def keep(img: Image.Image) -> bytes:
        drawn.append(img.copy())
        return b""

    modules = (result, stats)
    saved = [module.encode_png for module in modules]
    for module in modules:
        module.encode_png = keep  # type: ignore[attr-defined]  # each module's own name for it, swapped for the warm-up
    try:
        result.render_result(samples.spring_result())
        stats.render_stats(samples.stats_chart())
    finally:
        for module, encode in zip(modules, saved, strict=True):
            module.encode_png = encode  # type: ignore[attr-defined]  # each module's own name for it, swapped for the warm-up
    return drawn


def sample_palette() -> bytes:
    """``PNG_COLOURS`` RGB triples (768 bytes) chosen from ``sample_drawings``."""
    drawn = sample_drawings()
    atlas = Image.new("RGB", (max(i.width for i in drawn), sum(i.height for i in drawn)))
    top = 0
    for img in drawn:
        atlas.paste(img, (0, top))
        top += img.height
    flat = list(atlas.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE).getpalette() or [])
    flat += [0] * (3 * PNG_COLOURS - len(flat))
    entries: list[Any] = [tuple(flat[i:i + 3]) for i in range(0, 3 * PNG_COLOURS, 3)]
    taken: set[int] = set()
    colour: Any
    for _, colour in sorted(atlas.getcolors(1 << 24) or [], reverse=True)[:EXACT_COLOURS]:
        nearest = min((i for i in range(PNG_COLOURS) if i not in taken),
                      key=lambda i: sum((a - b) ** 2 for a, b in zip(entries[i], colour, strict=True)))
        entries[nearest] = colour
        taken.add(nearest)
    return bytes(v for entry in entries for v in entry)


def source(colours: bytes) -> str:
    """The text of ``rendering/palette_data.py`` holding ``colours``."""
    rows = [colours[i:i + 24].hex() for i in range(0, len(colours), 24)]
    body = "\n".join(f'    "{row}"' for row in rows)
    return ('"""The shared PNG palette (256 RGB triples), written by ``python -m tools.palette``."""\n\n'
            f"SHARED_PALETTE = bytes.fromhex(\n{body}\n)\n")


def main() -> int:
    DATA.write_text(source(sample_palette()), encoding="utf-8")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
