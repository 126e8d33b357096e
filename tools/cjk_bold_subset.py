"""``python -m tools.cjk_bold_subset NotoSansCJK-Bold.ttc`` writes
``rendering/fonts/NotoSansCJKsc-Bold-subset.otf``: the bold face the images draw bold
Chinese with (Droid Sans Fallback has no bold; issue 51, docs/ARCHITECTURE.md §The images on a phone).

Source: Debian's ``fonts-noto-cjk`` (1:20220127+repack1-1), file
``/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc``, face 2 (Noto Sans CJK SC Bold,
whose character map covers Simplified and Traditional characters alike); SIL OFL 1.1
(``rendering/fonts/LICENSE-NotoSansCJK``), which allows a subset. Kept: the 3,755
characters of GB 2312 level 1 and the 5,401 of Big5 level 1 (the common characters of
both scripts, for members' names), every character of the Chinese catalogs and
glossaries, CJK punctuation and full-width forms; no hinting, no layout features
(Pillow's BASIC engine draws it). About 1.6 MB instead of 20 MB.

Needs fontTools (``pip install fonttools``: a tool's dependency, not the bot's). Run it
again when a Chinese catalog gains a character: ``tests/rendering/test_cjk_glyphs.py``
fails until then.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rendering" / "fonts" / "NotoSansCJKsc-Bold-subset.otf"
FACE = 2  # Noto Sans CJK SC Bold in the collection
PUNCTUATION = "U+0020,U+00B7,U+2014,U+2018-201F,U+2026,U+3000-303F,U+FF01-FF5E"


def common_characters() -> set[str]:
    """GB 2312 level 1 (rows 16-55) and Big5 level 1 (0xA440-0xC67E)."""
    found: set[str] = set()
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                found.add(bytes([high, low]).decode("gb2312"))
    for high in range(0xA4, 0xC7):
        for low in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            with contextlib.suppress(UnicodeDecodeError):
                found.add(bytes([high, low]).decode("big5"))
    return found


def catalog_characters() -> set[str]:
    """Every character of the Chinese catalogs and glossaries."""
    found: set[str] = set()
    for folder in sorted((ROOT / "bot" / "i18n" / "locales").glob("zh_*")):
        for path in (folder / "LC_MESSAGES" / "ddz.po", folder / "glossary.toml"):
            found |= set(path.read_text(encoding="utf-8"))
    return {c for c in found if ord(c) > 0x7F}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    with tempfile.TemporaryDirectory() as tmp:
        face = Path(tmp) / "face.otf"
        TTCollection(argv[0]).fonts[FACE].save(face)
        text = Path(tmp) / "text.txt"
        text.write_text("".join(sorted(common_characters() | catalog_characters())),
                        encoding="utf-8")
        subset.main([str(face), f"--text-file={text}", f"--unicodes={PUNCTUATION}",
                     "--layout-features=", "--no-hinting", "--desubroutinize",
                     f"--output-file={OUT}"])
    print(f"{OUT}  {OUT.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
