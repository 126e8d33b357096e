"""Palette PNGs assembled from compressed horizontal bands, each kept once it is drawn.

A hand or table image changes one part at a time: after another player's move a hand
view's card counter changes and its fan of cards does not; the table's header and the
panels of the seats that did not act stay as they were. ``encode_png``
(``rendering.compose``) would map every pixel of the whole canvas to the palette and
deflate all of it again (about 40 % of a hand image's CPU, docs/PERFORMANCE.md
§Figures). Here an image is a stack of ``Band``\\ s, each band a strip of full-width
rows already mapped to ``SHARED_PALETTE`` and deflated on its own, and ``assemble``
only concatenates them into one PNG: PNG's pixel data is one zlib stream of the
filtered rows, and a deflate stream may be cut at any block boundary, so pieces
deflated apart and ended with a sync flush (byte-aligned, none marked final) follow
one another as one stream (RFC 1951 §3.2.3; the way pigz splits its work). The zlib
check value of the whole is combined from the bands' (RFC 1950 §8.2's Adler-32 is the
two sums modulo 65521, so ``_adler_join`` needs only the second part's length).

Decoded, an assembled PNG holds exactly the pixels ``encode_png`` gives for the same
RGB canvas (the same palette and nearest-colour mapping, no dithering, which works
pixel by pixel; ``tests/rendering/test_bands.py``). Its bytes differ: each band has a
5-byte flush and no back-references into the band above. A hand image's bands of text
(its card counter) are deflated by zlib (``BAND_LEVEL``), its bands of large card faces
and every band of the table image by ISA-L (``FACES_LEVEL``, ``codec="isal"``;
``rendering.table.BAND_LEVEL``): raw deflate either way, so they join.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from isal import isal_zlib
from PIL import Image

from rendering.palette_data import SHARED_PALETTE

BAND_LEVEL = 3
"""zlib level of a band: 6 costs about twice level 3's CPU and gives 15 % fewer bytes;
a band is deflated once per cache miss."""
FACES_LEVEL = 2
"""ISA-L level (``isal.isal_zlib``, 0–3) of a band of large card faces (a hand's fan, a
shown hand; ``band(..., codec="isal")``): 0.99× the bytes of zlib's level 3 there for a
fifth of its CPU. On the small bands of text of a hand's card counter ISA-L's output is
6–13 % larger, so they keep zlib, and hand images stay no larger than at issue 54's
start (docs/PERFORMANCE.md §Card faces deflated by ISA-L); the table's bands take ISA-L
too (docs/PERFORMANCE.md §Table bands deflated by ISA-L)."""
Codec = Literal["zlib", "isal"]
_ADLER = 65521
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # BFINAL=1, fixed Huffman, end of block
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette(SHARED_PALETTE)


class _Kept(Protocol):
    def cache_clear(self) -> None: ...


K = TypeVar("K", bound=_Kept)
_KEPT: list[_Kept] = []


def kept(cache: K) -> K:
    """Register a ``functools.lru_cache`` of bands, so that ``forget`` empties it."""
    _KEPT.append(cache)
    return cache


def forget() -> None:
    """Empty every cache of bands (``kept``): the next images are drawn from scratch
    (tests that record what is drawn, or that redraw the card faces)."""
    for cache in _KEPT:
        cache.cache_clear()


@dataclass(frozen=True, slots=True)
class Band:
    """``height`` rows of a ``width`` px palette image, filtered (filter type 0 on every
    row) and deflated: ``data`` is a raw deflate piece ending in a sync flush (no final
    block), or, when ``final``, ending the stream (only the bottom band of an image may
    be); ``adler`` the Adler-32 and ``length`` the byte count of the filtered rows."""

    width: int
    height: int
    data: bytes
    adler: int
    length: int
    final: bool = False


def paletted(img: Image.Image) -> Image.Image:
    """``img`` (RGB) as a "P" image of ``SHARED_PALETTE``: each pixel mapped to the nearest
    colour (no dithering), as ``rendering.compose.encode_png`` does."""
    return img.quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)


def band(img: Image.Image, level: int = BAND_LEVEL, *, final: bool = False,
         codec: Codec = "zlib") -> Band:
    """The band of a canvas ``img``: an RGB canvas (mapped by ``paletted``), or a "P"
    image already holding indices of ``SHARED_PALETTE``; ``final``: the image's bottom
    band, which ends the stream (7 bytes fewer than a flush and an empty last block);
    ``codec``: the deflate of ``level``, zlib's (0–9) or ISA-L's (``"isal"``, 0–3): the
    same format either way, so bands of both join in one image."""
    width, height = img.size
    raw = filtered_rows(img)
    lib = isal_zlib if codec == "isal" else zlib
    deflate = lib.compressobj(level, lib.DEFLATED, -15, 9)
    data = deflate.compress(raw) + deflate.flush(lib.Z_FINISH if final else lib.Z_SYNC_FLUSH)
    return Band(width, height, data, zlib.adler32(raw), len(raw), final)


def filtered_rows(img: Image.Image) -> bytes:
    """The bytes ``band`` deflates for ``img`` (RGB, mapped by ``paletted``, or "P"): each
    row of palette indices after its filter byte (0: none)."""
    paletted_img = img if img.mode == "P" else paletted(img)
    rows = Image.new("P", (img.width + 1, img.height), 0)  # column 0: the filter bytes
    rows.paste(paletted_img, (1, 0))
    return rows.tobytes()


def _adler_join(first: int, second: int, second_length: int) -> int:
    """Adler-32 of A + B from Adler-32 of A, of B and B's length (zlib's adler32_combine)."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _ADLER
    b = (b1 + b2 + second_length * (a1 - 1)) % _ADLER
    return (b << 16) | a


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def assemble(bands: Sequence[Band]) -> bytes:
    """One 8-bit palette PNG (``SHARED_PALETTE``, no metadata) of ``bands`` stacked top
    to bottom. Raises ValueError on no band, bands of different widths, or a ``final``
    band above another."""
    if not bands or any(b.width != bands[0].width for b in bands):
        raise ValueError("assemble needs one or more bands of one width")
    if any(b.final for b in bands[:-1]):
        raise ValueError("only the bottom band may end the stream")
    adler = 1  # Adler-32 of nothing
    for piece in bands:
        adler = _adler_join(adler, piece.adler, piece.length)
    end = b"" if bands[-1].final else _FINAL_EMPTY_BLOCK
    stream = b"".join((_ZLIB_HEADER, *(b.data for b in bands), end, struct.pack(">I", adler)))
    header = struct.pack(">IIBBBBB", bands[0].width, sum(b.height for b in bands), 8, 3, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", SHARED_PALETTE),
                     _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))
