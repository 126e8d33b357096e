"""``/ddz puzzle``: endgame puzzles (残局), docs/RULES.md §Puzzles.

Thin over ``PuzzleService`` (``ctx.feature(PuzzleService)``): today's puzzle of the server, a practice
puzzle near the member's puzzle rating, or the day's board. A puzzle is an ephemeral
message: an image of every hand face up (``rendering.py`` of this wing, drawn by the render
workers) and the member's controls, as in the hand view (cogs/hand_view.py): the card
menu, one button per rank held, then Play, Pass and Clear (custom_ids ``ddz:pz:…``,
``TEMPLATE``; the selection lives in them). Each click re-checks member, server,
attempt and move on the server: a forged or stale one changes nothing and is answered
with a polite ephemeral reason. A wrong move ends the attempt at once with the move that
wins and the refutation; a solved puzzle says in how many moves; both show the member's
puzzle rating before and after.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.features.puzzles.position import Move, Position
from bot.features.puzzles.rendering import PuzzleImage, PuzzleSeat, Status, render_puzzle
from bot.features.puzzles.service import Action, PuzzleService, PuzzleState
from bot.features.puzzles.values import PuzzleBoard, PuzzleRating
from bot.game.errors import GameError
from bot.game.seat import computer_name
from bot.i18n import cards_text, resolve_locale, t, tn
from bot.rules import Card, rank_counts, show_cards, spaced_cards
from cogs import permissions
from cogs.components import Components
from cogs.context import CogContext, CommandMixin
from cogs.hand_view import add_rank, card_options, choose_cards, rank_button_label, selected_cards
from cogs.items import (
    CARD_VALUES_MAX,
    ClickRoute,
    ViewState,
    cards_to_mask,
    mask_to_indices,
    parse_mask,
    to_base36,
)
from cogs.replies import answer_error, defer, png_file, respond
from cogs.translator import cmd
from rendering.cards import sort_cards

B = discord.ButtonStyle
Choice = app_commands.Choice
COLOR = 0x3BA55D
BOARD_ROWS = 20
"""Lines of a day's board shown (Discord embeds take 4,096 characters)."""
IMAGE = "puzzle.png"
RANK_ROWS = 3
"""Rows 1-3 hold the rank buttons (5 a row: 15 ranks at most, every rank there is)."""


def seat_name(state: PuzzleState, seat: int, name: str, lang: str) -> str:
    """The member's own name for their seat, "Bot 2" for the others (seat + 1), as the
    computers are named at tables (``bot.game.seat.computer_name``)."""
    return name if seat == state.puzzle.member_seat else computer_name(seat)


def order_text(state: PuzzleState, name: str, lang: str) -> str:
    """Who plays after whom, from the member: "Play goes round: Ana → Bot 1 → Bot 2,
    then Ana again." (docs/RULES.md §Puzzles: turn → turn + 1, over the position's hands)."""
    count = len(state.position.hands)
    first = state.puzzle.member_seat
    names = [seat_name(state, (first + k) % count, name, lang) for k in range(count)]
    return t("puzzle.order", lang, order=" → ".join(names), first=names[0])


def move_text(move: Move, lang: str, spaced: bool = False) -> str:
    """A move as a member reads it: the cards (``cards_text``; ``spaced``: one by one, for
    the alt text, ``spaced_cards``), or "pass"."""
    if move is None:
        return t("puzzle.pass", lang)
    return cards_text(spaced_cards(move.cards) if spaced else move.cards, lang)


def move_words(move: Move, lang: str, spaced: bool = False) -> str:
    """A move to fill a message with (``t``): the cards as ``show_cards`` marks them, so
    that a lone joker takes its article where the sentence wants one ("You played the
    small joker."), or "pass"; ``spaced``: one by one (``spaced_cards``), for the alt text."""
    if move is None:
        return t("puzzle.pass", lang)
    return spaced_cards(move.cards) if spaced else show_cards(move.cards)


def actions_text(state: PuzzleState, actions: Sequence[Action], name: str, lang: str,
                 spaced: bool = False) -> str:
    """"Bot 2: K · Ana: pass · …", the actions in order (``spaced``: as ``move_text``)."""
    return " · ".join(f"{seat_name(state, seat, name, lang)}: {move_text(move, lang, spaced)}"
                      for seat, move in actions)


def replies(state: PuzzleState) -> tuple[Action, ...]:
    """The computers' actions since the member's last move (their answer to it)."""
    member = state.puzzle.member_seat
    last = max((i for i, (seat, _) in enumerate(state.actions) if seat == member), default=-1)
    return state.actions[last + 1:]


def task_text(state: PuzzleState, lang: str) -> str:
    """What the member must do, by their role (a peasant has a computer partner)."""
    if state.puzzle.member_role == "landlord":
        return t("puzzle.task_landlord", lang)
    return t("puzzle.task_peasant", lang)


def title_text(state: PuzzleState, lang: str) -> str:
    """"Puzzle of the day (2026-12-02)" or "Practice puzzle (rated 1520)"."""
    if state.attempt.mode == "daily":
        return t("puzzle.title_daily", lang, day=state.attempt.day)
    return t("puzzle.title_practice", lang, rating=round(state.rating))


def rating_text(before: PuzzleRating | None, after: PuzzleRating | None, lang: str) -> str:
    """"Puzzle rating: 1500 → 1662 (+162)", or only the rating now when ``before`` is not
    known (an attempt shown again)."""
    if after is None:
        return ""
    if before is None:
        return t("puzzle.rating_now", lang, rating=round(after.rating))
    change = round(after.rating) - round(before.rating)
    return t("puzzle.rating_change", lang, before=round(before.rating),
             after=round(after.rating), change=f"{change:+d}".replace("-", "−"))


def outcome_lines(state: PuzzleState, name: str, lang: str, spaced: bool = False) -> list[str]:
    """The end of an attempt in words: solved in N moves, or the wrong move, the move that
    wins and the refutation (empty while it is played); ``spaced``: the cards one by one,
    for the alt text (``spaced_cards``)."""
    if state.solved:
        return [tn("puzzle.solved", state.attempt.moves, lang, n=state.attempt.moves)]
    if not state.failed:
        return []
    lines = [t("puzzle.wrong_pass", lang) if state.wrong is None
             else t("puzzle.wrong", lang, cards=move_words(state.wrong, lang, spaced)),
             t("puzzle.winning_pass", lang) if state.winning is None
             else t("puzzle.winning", lang, cards=move_words(state.winning, lang, spaced))]
    if state.line:
        lines.append(t("puzzle.refutation", lang, line=actions_text(state, state.line, name,
                                                                    lang, spaced)))
    return lines


def turn_text(state: PuzzleState, name: str, lang: str) -> str:
    """Whose turn and what to beat: "Your turn: beat 5 5 (Bot 2), or pass." """
    pos = state.position
    if pos.last is None:
        return t("puzzle.turn_lead", lang)
    seat, combo = pos.last
    return t("puzzle.turn_beat", lang, cards=show_cards(combo.cards),
             name=seat_name(state, seat, name, lang))


def content(state: PuzzleState, name: str, lang: str, notice: str | None = None) -> str:
    """The message's text: title, task, the computers' answer, whose turn, or the end
    with the member's puzzle rating."""
    parts = [f"**{title_text(state, lang)}**", task_text(state, lang),
             order_text(state, name, lang)]
    answer = replies(state)
    if answer and not state.failed:
        parts.append(t("puzzle.answered", lang, line=actions_text(state, answer, name, lang)))
    if notice:
        parts.append(notice)
    if state.finished:
        lines = outcome_lines(state, name, lang)
        parts.append(f"**{lines[0]}**" + ("\n" + "\n".join(lines[1:]) if lines[1:] else ""))
        rating = rating_text(state.before, state.after, lang)
        if rating:
            parts.append(rating)
        if state.puzzle_before is not None and state.puzzle_after is not None:
            parts.append(t("puzzle.puzzle_rating", lang,
                           before=round(state.puzzle_before.rating),
                           after=round(state.puzzle_after.rating)))
        parts.append(t("puzzle.more_daily" if state.attempt.mode == "daily"
                       else "puzzle.more_practice", lang))
    else:
        parts.append(turn_text(state, name, lang))
    return "\n".join(parts)


def image_model(state: PuzzleState, name: str, lang: str, selected: frozenset[int]
                ) -> PuzzleImage:
    """What the puzzle image shows (``bot.features.puzzles.rendering``), in ``lang``."""
    pos = state.position
    seats = tuple(PuzzleSeat(name=seat_name(state, seat, name, lang),
                             is_landlord=seat == pos.landlord,
                             is_member=seat == state.puzzle.member_seat,
                             cards=tuple(sort_cards(hand, "rank")))
                  for seat, hand in enumerate(pos.hands))
    to_beat: tuple[Card, ...] = ()
    if pos.last is None:
        beat_label = t("puzzle.free_lead", lang)
    else:
        beat_label = t("puzzle.to_beat", lang, name=seat_name(state, pos.last[0], name, lang))
        to_beat = tuple(pos.last[1].cards)
    status: Status = "solved" if state.solved else "failed" if state.failed else "play"
    task = task_text(state, lang).split(". ")[0].rstrip(".") + "."  # its first sentence
    return PuzzleImage(title=title_text(state, lang), task=task, seats=seats,
                       beat_label=beat_label, to_beat=to_beat, status=status,
                       banner=tuple(outcome_lines(state, name, lang)), selected=selected)


def alt_text(state: PuzzleState, name: str, lang: str) -> str:
    """The image in words: every hand, the play to beat and, once over, the outcome, the
    cards one by one for a screen reader (``spaced_cards``, docs/RULES.md §Notation)."""
    pos: Position = state.position
    hands = t("sep.items", lang).join(
        t("puzzle.alt_hand", lang, name=seat_name(state, seat, name, lang),
          role=t("puzzle.role_landlord" if seat == pos.landlord else "puzzle.role_peasant", lang),
          cards=spaced_cards(hand) if hand else "—")
        for seat, hand in enumerate(pos.hands))
    beat = (t("puzzle.free_lead", lang) if pos.last is None
            else t("puzzle.alt_beat", lang, cards=spaced_cards(pos.last[1].cards),
                   name=seat_name(state, pos.last[0], name, lang)))
    return " ".join([f"{hands}. {beat}.", *outcome_lines(state, name, lang, spaced=True)])


TEMPLATE = (r"ddz:pz:(?P<attempt>[0-9a-f]{12}):(?P<plies>\d{1,3}):"
            r"(?P<verb>cards|play|pass|clear|r\d{1,2})\.(?P<mask>[0-9a-z]{1,12})")
"""custom_id of a puzzle view component, ``ddz:pz:<attempt>:<plies>:<verb>.<mask>``:
``attempt`` 12 hex digits, ``plies`` the actions of the attempt when drawn, ``verb``
``cards`` (the card menu, values as the hand view's), ``r<0..14>`` (one more card of that
rank), ``play``, ``pass`` or ``clear``; ``mask`` the selected ``Card.index`` bits in base 36."""


def puzzle_id(attempt_id: str, plies: int, verb: str, selected: frozenset[int]) -> str:
    """custom_id of a puzzle view component (≤ 42 characters)."""
    return f"ddz:pz:{attempt_id}:{plies}:{verb}.{to_base36(cards_to_mask(selected))}"


def components(state: PuzzleState, selection: ViewState, lang: str) -> Components | None:
    """The member's controls while the attempt is played (None once it is over): the card
    menu, a button per rank held (each adds one card of it), Play, Pass and Clear."""
    if state.finished:
        return None
    view = Components()
    attempt_id, plies = state.attempt.attempt_id, state.attempt.plies
    hand = list(state.position.hands[state.puzzle.member_seat])
    selected = selection.selected

    def button(verb: str, label: str, row: int, style: B = B.secondary,
               disabled: bool = False) -> None:
        view.button(puzzle_id(attempt_id, plies, verb, selected), label, row, style, disabled)

    view.select(puzzle_id(attempt_id, plies, "cards", selected),
                card_options(hand, selection, lang), t("puzzle.pick_cards", lang), 0,
                min_values=0, max_values=len(hand))
    held = rank_counts(hand)
    chosen = rank_counts([c for c in hand if c.index in selected])
    for i, index in enumerate(r for r in range(15) if held[r]):
        label = rank_button_label(index, chosen[index], held[index], lang)
        button(f"r{index}", label, 1 + i // 5, B.success if chosen[index] else B.secondary)
    button("play", t("btn.play", lang), 4, B.primary, disabled=not selected)
    button("pass", t("btn.pass", lang), 4, disabled=state.position.last is None)
    button("clear", t("btn.clear", lang), 4, B.danger, disabled=not selected)
    return view


async def show(interaction: discord.Interaction, ctx: CogContext, state: PuzzleState,
               selection: ViewState, lang: str, notice: str | None = None) -> None:
    """Answer with the puzzle: its text, image and controls (an edit of the clicked view
    or the command's reply)."""
    name = interaction.user.display_name
    png = await ctx.board.renderer.draw(partial(render_puzzle, locale=lang),
                                        image_model(state, name, lang, selection.selected),
                                        urgent=True)
    await respond(interaction, content(state, name, lang, notice), edit=True,
                  file=png_file(png, IMAGE, alt_text(state, name, lang)),
                  view=components(state, selection, lang))


async def command(interaction: discord.Interaction, ctx: CogContext, mode: str) -> None:
    """``/ddz puzzle [mode:daily|practice|board]``."""
    await defer(interaction, ephemeral=True, thinking=True)
    guild_id = permissions.guild_id(interaction)
    lang = resolve_locale(interaction.locale)
    user = interaction.user
    puzzles = ctx.feature(PuzzleService)
    if mode == "board":
        day = await puzzles.today(guild_id)
        await respond(interaction, embed=await board_embed(puzzles, guild_id, day, user.id, lang))
        return
    if mode == "practice":
        state = await puzzles.practice(guild_id, user.id, user.display_name)
        await show(interaction, ctx, state, ViewState(), lang,
                   None if state.fresh else t("puzzle.again", lang))
        return
    if mode != "daily":
        raise GameError("bad_option")  # a value no Discord client sends
    state = await puzzles.daily(guild_id, user.id, user.display_name)
    if state.finished:  # one attempt a day: the result and the board, nothing to play
        result = outcome_lines(state, user.display_name, lang)[0]
        embed = await board_embed(puzzles, guild_id, state.attempt.day, user.id, lang)
        await respond(interaction, t("puzzle.done_today", lang, result=result), embed=embed)
        return
    await show(interaction, ctx, state, ViewState(), lang,
               None if state.fresh else t("puzzle.again", lang))


async def on_click(interaction: discord.Interaction, ctx: CogContext, attempt_id: str,
                   plies: int, verb: str, selected: frozenset[int], value: str | None) -> None:
    """A puzzle view component: re-check the member's attempt (theirs, this server's, not
    over, drawn at its latest action), then change the selection or play / pass
    (``PuzzleService.play``) and redraw. A refusal leaves the view as it is and answers
    with the reason, ephemerally."""
    lang = resolve_locale(interaction.locale)
    try:
        message = interaction.message
        if message is not None and not message.flags.ephemeral:
            raise GameError("puzzle_stale")  # a puzzle id forged onto a public message
        await defer(interaction)
        guild_id = permissions.guild_id(interaction)
        user_id = interaction.user.id
        puzzles = ctx.feature(PuzzleService)
        attempt = await puzzles.attempt_of(guild_id, user_id, attempt_id)
        if attempt.finished:
            raise GameError("puzzle_over")
        if attempt.plies != plies:
            raise GameError("puzzle_stale")
        state = await puzzles.state(attempt)
        hand = list(state.position.hands[state.puzzle.member_seat])
        held = frozenset(c.index for c in hand)
        selection = ViewState(selected=selected & held)
        notice = None
        if verb == "cards":
            selection = choose_cards(hand, selection, value or "")
        elif verb.startswith("r"):
            selection = add_rank(hand, selection, int(verb[1:]))
        elif verb == "clear":
            selection = ViewState()
        elif verb in ("play", "pass"):
            cards: list[Card] | None = None
            if verb == "play":
                cards = selected_cards(hand, selection)
                if not cards:
                    raise GameError("no_cards")
            state = await puzzles.play(guild_id, user_id, attempt_id, plies, cards)
            mine = state.actions[plies][1]  # the member's move, right after the view's actions
            notice = (t("hand.passed", lang) if mine is None  # "You passed.", as at a table
                      else t("puzzle.you_played", lang, cards=move_words(mine, lang)))
            selection = ViewState()
        await show(interaction, ctx, state, selection, lang, notice)
    except Exception as exc:
        await answer_error(interaction, exc)


def board_lines(board: PuzzleBoard, lang: str, limit: int = BOARD_ROWS) -> list[str]:
    """One line per finished attempt, best first: place, name, solved in N moves or not,
    the streaks of daily puzzles solved."""
    lines = []
    for row in board.rows[:limit]:
        attempt = row.attempt
        result = (tn("puzzle.board_solved", attempt.moves, lang, n=attempt.moves)
                  if attempt.solved else t("puzzle.board_failed", lang))
        lines.append(t("puzzle.board_line", lang, place=row.place,
                       name=discord.utils.escape_markdown(attempt.name or "?"), result=result,
                       streak=row.streak, best=row.best_streak))
    return lines


async def board_embed(puzzles: PuzzleService, guild_id: int, day: str, viewer_id: int,
                      lang: str) -> discord.Embed:
    """The board of ``day``'s puzzle for ``viewer_id``: its lines once they have finished
    their own attempt (``PuzzleService.may_see``), else only how many have."""
    embed = discord.Embed(title=t("puzzle.board_title", lang, day=day), colour=COLOR)
    board = await puzzles.visible_board(guild_id, day, viewer_id)
    if board is None:
        count = await puzzles.finished_count(guild_id, day)
        embed.description = tn("puzzle.board_hidden", count, lang, count=count)
    elif not board.rows:
        embed.description = t("puzzle.board_empty", lang)
    else:
        embed.description = "\n".join(board_lines(board, lang))
    return embed


class PuzzleCommands(CommandMixin):
    """``/ddz puzzle`` (mixed into the ``ddz`` GroupCog). Its contract: ``ctx``."""

    ctx: CogContext

    @app_commands.command(name=cmd("puzzle", "cmd.puzzle.name"),
                          description=cmd("Endgame puzzles: every hand face up, find the win",
                                          "cmd.puzzle.description"))
    @app_commands.rename(mode=cmd("mode", "param.mode.name"))
    @app_commands.describe(mode=cmd("Today's puzzle (default), practice near your rating, "
                                    "or today's board", "param.puzzle_mode.description"))
    @app_commands.choices(mode=[
        Choice(name=cmd("today's puzzle", "choice.puzzle.daily"), value="daily"),
        Choice(name=cmd("practice", "choice.puzzle.practice"), value="practice"),
        Choice(name=cmd("board", "choice.puzzle.board"), value="board")])
    async def puzzle(self, interaction: discord.Interaction,
                     mode: Choice[str] | None = None) -> None:
        """Endgame puzzles (docs/RULES.md §Puzzles): today's, practice, or the board."""
        self.ctx.seen(interaction)
        await command(interaction, self.ctx, mode.value if mode else "daily")


def parse_click(match: re.Match[str], data: Mapping[str, Any]) -> tuple[Any, ...]:
    """``on_click``'s arguments from a ``TEMPLATE`` match: the selection from the mask, the
    card menu's values (at most one more than a hand holds: more is refused later)."""
    values = data.get("values") or []
    value = (",".join(str(v) for v in values[:CARD_VALUES_MAX + 1])
             if match["verb"] == "cards" else None)
    return (match["attempt"], int(match["plies"]), match["verb"],
            mask_to_indices(parse_mask(match["mask"])), value)


ROUTES = (ClickRoute("puzzle", TEMPLATE, on_click, parse_click),)
"""The puzzles' components (their ``Wing.routes``)."""


async def stats_fields(service: PuzzleService, guild_id: int, user_id: int,
                       lang: str) -> list[tuple[str, str]]:
    """The puzzles' field of ``/ddz stats`` (``Wing.stats``; docs/RULES.md §Puzzles), once
    the member has finished an attempt: the puzzle rating (± its deviation), attempts
    solved, the daily puzzles solved and their streaks (apart from the table rating)."""
    puzzles = await service.summary(guild_id, user_id)
    rating = puzzles.rating
    if rating is None:
        return []
    return [(t("stats.puzzles", lang), t(
        "stats.puzzles_value", lang, rating=round(rating.rating),
        deviation=round(rating.deviation), solved=rating.solved, attempts=rating.attempts,
        daily=puzzles.daily_solved, streak=puzzles.streak, best=puzzles.best_streak))]


RULES_PARTS = ("rules.puzzles",)
"""Its part of ``/ddz rules`` (``Wing.rules``; docs/RULES.md §Puzzles)."""
