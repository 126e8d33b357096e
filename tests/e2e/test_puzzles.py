"""Endgame puzzles end to end through ``python -m bot`` (docs/RULES.md §Puzzles): two
members get the same puzzle of the day; one solves it by the winning line, the other plays
a losing first move and is told at once, with the move that wins; the board and the
streaks show both; a second attempt the same day is refused politely; practice serves a
puzzle near the member's rating, and a solve and a failure move the member's and the
puzzle's ratings the right way. The moves are worked out by the exact solver from what the
member sees (the image's alt text), as a member would from the picture."""

from __future__ import annotations

import re

from bot.features.puzzles.model import load_puzzles
from bot.features.puzzles.position import Move, Position, legal_moves
from bot.features.puzzles.solver import winning_moves
from bot.i18n import t
from bot.rules import format_cards, show_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import FAST_ENV, SHOWN, finished, reply_text
from tests.support.menu_play import option_values

HAND_RE = re.compile(rf"(?:^|; )(?P<name>[^;]+?) \((?P<role>landlord|peasant)\) holds (?P<cards>{SHOWN}|—)")
BEAT_RE = re.compile(rf"To beat: (?P<cards>{SHOWN}) \((?P<name>[^)]+)\)")
PUZZLE_ID = re.compile(r"^ddz:pz:[0-9a-f]{12}:\d+:(?P<verb>[a-z]+\d*)\.")
RATING_RE = re.compile(r"Your puzzle rating: (\d+) → (\d+)")
PUZZLE_RATING_RE = re.compile(r"This puzzle's rating: (\d+) → (\d+)")
RATED_RE = re.compile(r"Practice puzzle \(rated (\d+)\)")


def alt(view: SimMessage) -> str:
    (att,) = [a for a in view.attachments if a.filename == "puzzle.png"]
    assert att.is_png and att.description, f"puzzle without PNG/alt text: {view!r}"
    return att.description


def position(view: SimMessage, me: str) -> Position:
    """The position the member sees: every hand, the landlord, their turn, the play to beat."""
    text = alt(view)
    hands = [(m["name"], m["role"], "" if m["cards"] == "—" else m["cards"].replace(" ", ""))
             for m in HAND_RE.finditer(text.split(". ")[0] + ".")]
    names = [name for name, _, _ in hands]
    assert me in names, (me, text)
    landlord = next(i for i, (_, role, _) in enumerate(hands) if role == "landlord")
    beat = BEAT_RE.search(text)
    last = None if beat is None else (names.index(beat["name"]),
                                      beat["cards"].replace(" ", "").replace("10", "T"))
    cards = [c.replace("10", "T") for _, _, c in hands]
    return Position.from_text(cards, landlord, names.index(me), last)


def component(view: SimMessage, verb: str) -> dict:  # type: ignore[type-arg]
    for comp in view.all_components():
        m = PUZZLE_ID.match(comp.get("custom_id", ""))
        if m is not None and m["verb"] == verb:
            return comp
    raise AssertionError(f"no puzzle component {verb!r}: {view.custom_ids}")


async def make(member: SimMember, view: SimMessage, move: Move) -> None:
    """Choose the move's cards in the card menu (by rank), then Play; or Pass."""
    if move is None:
        await finished(await member.click(view, component(view, "pass")["custom_id"]))
        return
    menu = component(view, "cards")
    values = option_values(menu["options"], format_cards(move.cards))
    await finished(await member.select(view, menu["custom_id"], values))
    await finished(await member.click(view, component(view, "play")["custom_id"]))


def shown(member: SimMember) -> str:
    """The member's name as the bot shows it (the loopback's display name)."""
    return member.name.capitalize()


def over(view: SimMessage) -> bool:
    return "Solved in" in view.text or "loses:" in view.text


async def solve(member: SimMember, view: SimMessage) -> int:
    """Play the winning line to the end; the member's moves."""
    moves = 0
    while not over(view):
        pos = position(view, shown(member))
        await make(member, view, winning_moves(pos)[0])
        moves += 1
        assert moves < 20, view.text
    assert "Solved in" in view.text, view.text
    return moves


def losing_first(pos: Position) -> tuple[Move, Move]:
    """(a first move that loses, whose cards no winning move shares; the winning move)."""
    wins = winning_moves(pos)
    win_cards = {format_cards(m.cards) if m else "" for m in wins}
    losing = [m for m in legal_moves(pos) if (format_cards(m.cards) if m else "") not in win_cards]
    assert losing, pos
    return losing[0], wins[0]


async def open_puzzle(member: SimMember, **options: str) -> SimMessage:
    ix = await finished(await member.slash("ddz puzzle", **options), timeout=15)
    view = ix.message
    assert view is not None and view.ephemeral and view.visible_to is member, reply_text(ix)
    return view


async def test_two_members_the_same_daily_puzzle_one_solves_one_fails_practice_rates(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice, bob, carol = emu.member(name="alice"), emu.member(name="bob"), emu.member(name="carol")

    a_view = await open_puzzle(alice)
    b_view = await open_puzzle(bob)
    assert "Puzzle of the day" in a_view.text and "Puzzle of the day" in b_view.text
    a_pos, b_pos = position(a_view, "Alice"), position(b_view, "Bob")
    assert (a_pos.hands, a_pos.landlord, a_pos.turn, a_pos.last) == (
        b_pos.hands, b_pos.landlord, b_pos.turn, b_pos.last)  # the same puzzle
    assert a_view.text.splitlines()[0] == b_view.text.splitlines()[0]  # the same day

    # Bob's board before his attempt: only a count, nothing of the solution
    hidden = await finished(await bob.slash("ddz puzzle", mode="board"))
    assert "Try today's puzzle first" in reply_text(hidden), reply_text(hidden)

    moves = await solve(alice, a_view)
    assert f"Solved in {moves} move" in a_view.text
    wrong, win = losing_first(b_pos)
    await make(bob, b_view, wrong)
    told = t("puzzle.wrong", "en", cards=show_cards(wrong.cards)) if wrong else "Passing loses:"
    assert told in b_view.text, b_view.text
    assert (t("puzzle.winning", "en", cards=show_cards(win.cards)) if win
            else t("puzzle.winning_pass", "en")) in b_view.text, b_view.text
    assert not b_view.components  # the attempt is over at once

    for member in (alice, bob):
        board = reply_text(await finished(await member.slash("ddz puzzle", mode="board")))
        assert f"1. Alice: **solved in {moves} move" in board and "streak: 1 (best 1)" in board
        assert "2. Bob: **not solved** · streak: 0 (best 0)" in board, board
        again = reply_text(await finished(await member.slash("ddz puzzle")))
        assert "You have had your attempt at today's puzzle" in again, again
    stats = reply_text(await finished(await alice.slash("ddz stats")))
    assert "Puzzle rating" in stats, stats

    # practice: near 1500 to begin; a solve moves carol up and the puzzle down
    puzzles = load_puzzles()
    c_view = await open_puzzle(carol, mode="practice")
    rated = int(RATED_RE.search(c_view.text)[1])  # type: ignore[index]
    nearest = min(abs(p.rating - 1500) for p in puzzles)
    assert abs(rated - 1500) <= nearest + 100, (rated, nearest)
    await solve(carol, c_view)
    mine = RATING_RE.search(c_view.text)
    its = PUZZLE_RATING_RE.search(c_view.text)
    assert mine is not None and its is not None, c_view.text
    assert int(mine[1]) == 1500 and int(mine[2]) > 1500
    assert int(its[2]) < int(its[1]) == rated
    after = int(mine[2])
    # the next practice puzzle is near carol's new rating, and a failure moves both back
    n_view = await open_puzzle(carol, mode="practice")
    rated2 = int(RATED_RE.search(n_view.text)[1])  # type: ignore[index]
    nearest2 = min(abs(p.rating - after) for p in puzzles)
    assert abs(rated2 - after) <= nearest2 + 100 + 50, (rated2, after)  # stored ratings move
    wrong2, _ = losing_first(position(n_view, "Carol"))
    await make(carol, n_view, wrong2)
    mine2 = RATING_RE.search(n_view.text)
    its2 = PUZZLE_RATING_RE.search(n_view.text)
    assert mine2 is not None and its2 is not None, n_view.text
    assert int(mine2[1]) == after and int(mine2[2]) < after
    assert int(its2[2]) > int(its2[1])
