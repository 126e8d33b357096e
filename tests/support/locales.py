"""Throwaway catalogs for a test: the shipped ``en`` and ``es`` beside small catalogs the
test writes (e.g. a Chinese one with ``nplurals=1`` and a few keys), served by
``bot.i18n`` for the length of a ``with`` block.

The shipped Chinese catalogs (issue 51) are the real test of Chinese; this checks the code
paths (plural forms, resolution, fallback to English) whether or not they exist.
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

catalog_module = importlib.import_module("bot.i18n.catalog")
"""The module (``bot.i18n.catalog`` the attribute is the function of that name)."""

ONE_FORM = "nplurals=1; plural=0;"


def _po(entries: dict[str, str | list[str]], plural_forms: str) -> str:
    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    lines = ['msgid ""', 'msgstr ""', q("Content-Type: text/plain; charset=UTF-8\n"),
             q(f"Plural-Forms: {plural_forms}\n"), ""]
    for key, text in entries.items():
        if isinstance(text, list):
            lines += [f"msgid {q(key)}", f"msgid_plural {q(key)}"]
            lines += [f"msgstr[{i}] {q(form)}" for i, form in enumerate(text)]
        else:
            lines += [f"msgid {q(key)}", f"msgstr {q(text)}"]
        lines.append("")
    return "\n".join(lines)


def clear_caches() -> None:
    """Forget every catalog lookup ``bot.i18n`` remembered (after the folder changed)."""
    catalog_module.available_locales.cache_clear()
    catalog_module._by_tag.cache_clear()  # noqa: SLF001
    catalog_module._load.cache_clear()  # noqa: SLF001
    catalog_module._RESOLVED.clear()  # noqa: SLF001
    catalog_module._FOUND.clear()  # noqa: SLF001


@contextmanager
def throwaway_locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      catalogs: dict[str, dict[str, str | list[str]]],
                      plural_forms: str = ONE_FORM) -> Iterator[Path]:
    """Serve ``en``, ``es`` and ``catalogs`` (language folder → key → text, or a plural
    entry's forms as a list) from a folder under ``tmp_path`` inside the block."""
    root = tmp_path / "locales"
    for lang in ("en", "es"):
        shutil.copytree(catalog_module.LOCALES_DIR / lang, root / lang)
    for lang, entries in catalogs.items():
        folder = root / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / f"{catalog_module.DOMAIN}.po").write_text(_po(entries, plural_forms),
                                                            encoding="utf-8")
    with monkeypatch.context() as patch:
        patch.setattr(catalog_module, "LOCALES_DIR", root)
        clear_caches()
        try:
            yield root
        finally:
            patch.undo()
            clear_caches()
