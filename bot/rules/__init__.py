"""The pure rules core of Dou Dizhu (docs/RULES.md): cards, combinations, beating, legal plays.

No discord, no I/O. Public API::

    from bot.rules import (Card, Rank, ComboKind, Combo, RuleSet,
                           parse_cards, format_cards, show_cards, spaced_cards, classify, legal_plays)
"""

from bot.rules.cards import (
    DECK,
    RANKS,
    Card,
    CardParseError,
    Immutable,
    Rank,
    ShownCards,
    Suit,
    format_cards,
    is_pass_text,
    parse_cards,
    parse_ranks,
    rank_counts,
    show_cards,
    spaced_cards,
)
from bot.rules.combos import DEFAULT_RULES, Combo, RuleSet, classify
from bot.rules.kinds import ComboKind
from bot.rules.moves import legal_plays

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "RANKS",
    "Card",
    "CardParseError",
    "Combo",
    "ComboKind",
    "Immutable",
    "Rank",
    "RuleSet",
    "ShownCards",
    "Suit",
    "classify",
    "format_cards",
    "is_pass_text",
    "legal_plays",
    "parse_cards",
    "parse_ranks",
    "rank_counts",
    "show_cards",
    "spaced_cards",
]
