"""The legal-play menu's size: Discord's limit, owned by the hand view, and the AI's
ranking lists exactly that many (docs/ARCHITECTURE.md §Layers)."""

from bot.ai import PLAYS_RANKED
from cogs.hand_view import MENU_SIZE


def test_the_ranking_fills_one_discord_menu_exactly() -> None:
    assert MENU_SIZE == 25
    assert PLAYS_RANKED == MENU_SIZE
