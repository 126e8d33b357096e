"""``python -m tools.preview OUT_DIR`` writes sample PNGs of every image kind.

Files: ``hand_en.png`` (20-card landlord hand, 3 selected), ``hand_view_en.png``
(the same without position labels, as the hand view shows it), ``hand_groups_es.png``,
``table_en.png`` / ``table_es.png`` (mid-game, warnings at 2 and 1 cards, the play to
beat), ``table_turn_back_en.png`` / ``_es`` (the turn back at a seat that played, a bomb),
``table_bidding_en.png`` / ``table_bidding_es.png`` (bids so far, "to bid"),
``result_en.png`` / ``result_es.png`` (spring), ``stats_en.png`` / ``stats_es.png``
(the ``/ddz stats`` chart of 50 hands over two matches), ``replay_deal_en.png``,
``replay_bidding_es.png``, ``replay_trick_en.png`` / ``_es`` (replay pages: long, CJK and
emoji names, a bomb played by the computer, a review mark).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rendering import render_hand, render_result, render_table
from rendering.replay import render_replay_page
from rendering.stats import render_stats
from tools.samples import (
    bidding_table,
    landlord_hand,
    mid_game_table,
    replay_bidding_page,
    replay_deal_page,
    replay_trick_page,
    returning_turn_table,
    selected_three,
    spring_result,
    stats_chart,
)


def write_previews(out_dir: Path) -> list[Path]:
    """Render the samples into ``out_dir`` (created if missing); returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    images = {
        "hand_en.png": render_hand(landlord_hand(), selected=selected_three()),
        "hand_view_en.png": render_hand(landlord_hand(), selected=selected_three(), show_indices=False),
        "hand_groups_es.png": render_hand(landlord_hand(), selected=selected_three(), sort="groups", locale="es"),
        "table_en.png": render_table(mid_game_table()),
        "table_es.png": render_table(mid_game_table(), locale="es"),
        "table_turn_back_en.png": render_table(returning_turn_table()),
        "table_turn_back_es.png": render_table(returning_turn_table(), locale="es"),
        "table_bidding_en.png": render_table(bidding_table()),
        "table_bidding_es.png": render_table(bidding_table(), locale="es"),
        "result_en.png": render_result(spring_result()),
        "result_es.png": render_result(spring_result(), locale="es"),
        "stats_en.png": render_stats(stats_chart()),
        "stats_es.png": render_stats(stats_chart(), locale="es"),
        "replay_deal_en.png": render_replay_page(replay_deal_page()),
        "replay_bidding_es.png": render_replay_page(replay_bidding_page(), locale="es"),
        "replay_trick_en.png": render_replay_page(replay_trick_page()),
        "replay_trick_es.png": render_replay_page(replay_trick_page(), locale="es"),
    }
    paths = []
    for name, data in images.items():
        path = out_dir / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.preview OUT_DIR", file=sys.stderr)
        return 2
    for path in write_previews(Path(argv[0])):
        print(f"{path}  {path.stat().st_size / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
