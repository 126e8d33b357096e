"""zlib against ISA-L on the bands of the hand images: ``python -m benchmarks.deflate
[--hands 300] [--rounds 3]``.

Issue 54. Draws ``--hands`` seeded hands of 8–20 cards (0–3 raised) with the card counter,
as a hand view shows them, and deflates each band the way ``rendering.bands.band`` does,
by zlib at ``BAND_LEVEL`` and by ISA-L (``isal.isal_zlib``) at levels 1–3, side by side in
one process: CPU per band (``time.thread_time``, the best of ``--rounds``) and mean bytes,
for the fan of card faces and for the counter's counts (a band of text on a panel).
docs/PERFORMANCE.md §Card faces deflated by ISA-L.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib
from types import ModuleType

from isal import isal_zlib
from PIL import Image

from bot.rules import DECK
from rendering.bands import BAND_LEVEL, filtered_rows
from rendering.cards import sort_cards
from rendering.compose import FELT
from rendering.hand import (
    COUNTER_H,
    COUNTER_SPLITS,
    TOP,
    WIDTH,
    _count_tile,
    _counts_panel,
    _draw_fan,
    hand_height,
)


def bands(hands: int) -> dict[str, list[bytes]]:
    """The filtered rows of ``hands`` seeded fans and as many counters' counts."""
    rng = random.Random(54)
    out: dict[str, list[bytes]] = {"fan": [], "counts": []}
    start = COUNTER_SPLITS[-1]
    for _ in range(hands):
        indices = sorted(rng.sample(range(len(DECK)), rng.randint(8, 20)))
        chosen = set(rng.sample(indices, rng.randint(0, 3)))
        img = Image.new("RGB", (WIDTH, hand_height(False, True) - start), FELT)
        _draw_fan(img, sort_cards([DECK[i] for i in indices], "rank"), chosen,
                  TOP + COUNTER_H - start, False)  # as ``_fan_band`` with the counter
        out["fan"].append(filtered_rows(img))
        out["counts"].append(_counts_rows(tuple(rng.randint(0, 4) for _ in range(15))))
    return out


def _counts_rows(counts: tuple[int, ...]) -> bytes:
    """The counts' band of ``counts``, drawn as ``rendering.hand`` draws it, as raw rows."""
    img = _counts_panel().copy()
    for index, count in enumerate(counts):
        tile, left, top = _count_tile(count, index)
        img.paste(tile, (left, top))
    return filtered_rows(img)


def deflate(lib: ModuleType, level: int, raws: list[bytes]) -> tuple[float, float]:
    """(CPU ms per band, mean bytes) of deflating ``raws`` as ``band`` does."""
    start, size = time.thread_time(), 0
    for raw in raws:
        compressor = lib.compressobj(level, lib.DEFLATED, -15, 9)
        size += len(compressor.compress(raw) + compressor.flush(lib.Z_SYNC_FLUSH))
    return (time.thread_time() - start) * 1000 / len(raws), size / len(raws)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for kind, raws in bands(args.hands).items():
        base_ms, base_bytes = min(deflate(zlib, BAND_LEVEL, raws) for _ in range(args.rounds))
        print(f"{kind}: {len(raws)} bands of {len(raws[0]):,} bytes raw; "
              f"zlib {BAND_LEVEL}: {base_ms:.3f} ms, {base_bytes:,.0f} B")
        for level in (1, 2, 3):
            ms, size = min(deflate(isal_zlib, level, raws) for _ in range(args.rounds))
            print(f"  isal {level}: {ms:.3f} ms ({ms / base_ms:.2f}×), {size:,.0f} B "
                  f"({size / base_bytes:.3f}×)")


if __name__ == "__main__":
    main()
