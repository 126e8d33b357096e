"""Write ``tables.json`` of this folder with the code of the checkout it runs in:
``python -m tests.storage.main_db.tables OUT_FILE``.

Open tables as a restart reloads them (``open_tables.state``, the Table JSON): a channel's
table in the lobby and one mid-hand, the daily deal's and an event's private tables
mid-hand, a tournament's table mid-hand (a member withdrawn, one dropped) and one between
its hands (a member who left), and a demonstration feature's table (``feature``). Each
with what the code that wrote it said of it (``kind``, ``private``, its feature's label).
The file kept here was written by ``main`` at 2f51224, before the Table kept one ``kind``
and an opaque feature payload (issue 49); tests/storage/test_main_db.py loads it with
today's code. Do not regenerate it: it stands for the tables a server held then (this
script runs only on that code: it sets the per-feature fields the Table had then).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot.features.daily.rules import daily_table
from bot.features.events.rules import event_table
from bot.game.seat import Seat, computer_seat
from bot.game.table import Table
from bot.rules import RuleSet


def _lowest(table: Table, seat: int) -> list[object]:
    """The lowest card ``seat`` holds (a single it may lead)."""
    assert table.hand is not None
    return [min(table.hand.holdings[seat], key=lambda card: card.rank)]


def tables() -> list[tuple[str, Table]]:
    """The named tables (see the module docstring)."""
    out: list[tuple[str, Table]] = []
    lobby = Table.open(1, 10, 101, "Ana", "es", computers=1, level="hard",
                       chosen={"variant": "classic", "deal": "no-shuffle"})
    out.append(("lobby", lobby))
    channel = Table.open(1, 11, 101, "Ana", "en", computers=2, level="easy")
    channel.start(101, 0.0, seed=7, first_bidder=0)
    channel.bid(101, 3, 1.0)
    channel.play(101, _lowest(channel, 0), 2.0)
    channel.set_autoplay(101, True, 2.0)
    out.append(("channel_mid_hand", channel))
    daily, _ = daily_table(1, 101, "Ana", "en", day="2026-12-01", seed=5, level="hard",
                           rules=RuleSet(), turn_seconds=60, now=0.0)
    daily.play(101, _lowest(daily, 0), 1.0)
    out.append(("daily_mid_hand", daily))
    event, _ = event_table(1, 102, "Bea", "es", event_id="ev01", deal=2, seed=5,
                           level="easy", rules=RuleSet(kickers="distinct"), turn_seconds=60,
                           now=0.0)
    out.append(("event_mid_hand", event))
    cup = Table(id="cup1", guild_id=1, channel_id=9001, starter_id=101,
                computer_level="normal", tournament="to1:1:1")
    for i, user in enumerate((101, 102, 103)):
        cup.seats[i] = Seat(user_id=user, name=f"u{user}")
    cup.deal_next(0.0, seed=3)
    cup.hand_over(102, computer=False)  # withdrawn: auto-play, still theirs
    cup.hand_over(103, computer=True)  # dropped: a computer at once
    out.append(("tournament_mid_hand", cup))
    between = Table(id="cup2", guild_id=1, channel_id=9002, starter_id=101,
                    computer_level="easy", tournament="to1:1:2")
    between.seats[0] = Seat(user_id=104, name="u104")
    between.seats[1], between.seats[2] = computer_seat(1, "easy"), computer_seat(2, "easy")
    between.deal_next(0.0, seed=4)
    between.stop_hand(101, is_admin=True)
    between.leave(104)  # between its hands: the seat stays the member's, on auto-play
    out.append(("tournament_between_hands", between))
    ping = Table(id="ping1", guild_id=1, channel_id=12, starter_id=101,
                 computer_level="easy", feature="ping")
    ping.seats[0] = Seat(user_id=101, name="Ana")
    ping.seats[1], ping.seats[2] = computer_seat(1, "easy"), computer_seat(2, "easy")
    ping.deal_next(0.0, seed=9)
    out.append(("feature_mid_hand", ping))
    return out


def describe(table: Table) -> dict[str, object]:
    """What the code that wrote ``table`` said of it."""
    return {"kind": table.kind, "private": table.private, "daily": table.daily,
            "event": table.event, "tournament": table.tournament, "feature": table.feature,
            "phase": table.phase, "hand_no": table.hand_no, "seq": table.seq,
            "json": table.model_dump_json()}


if __name__ == "__main__":
    written = {name: describe(table) for name, table in tables()}
    Path(sys.argv[1]).write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")
