"""``python -m tools.preview OUT_DIR`` (tools.preview)."""

from __future__ import annotations

from pathlib import Path

from tests.support.pngs import decode
from tools.preview import main, write_previews


def test_preview_writes_every_image_kind(tmp_path: Path) -> None:
    paths = write_previews(tmp_path / "out")
    names = {p.name for p in paths}
    assert {"hand_en.png", "hand_view_en.png", "table_en.png", "table_es.png", "table_bidding_en.png",
            "table_bidding_es.png", "result_en.png", "result_es.png", "stats_en.png",
            "stats_es.png"} <= names
    for path in paths:
        data = path.read_bytes()
        assert len(data) <= 150 * 1024
        assert decode(data).width == 800


def test_preview_without_a_directory_prints_usage() -> None:
    assert main([]) == 2
