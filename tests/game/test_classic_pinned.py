"""The classic game is pinned byte for byte (issue 52): the Happy rules and no-shuffle
deals sit beside it as registered rule sets, and a classic table's states, hand JSON,
replay pages and settlement stay exactly what they were before them.

``DIGEST`` was computed on main before the rule sets were added (commit 87289a3). The
players here are seeded random choosers, not the computer players, so that a change to
the AI (which plays differently on purpose) does not move the digest.

Issue 49 took out of the core's JSON what only the features used (a Table's ``daily``,
``event`` and ``tournament``, always null at a channel's table; the settings'
``daily_level`` and ``daily_channel``, now the daily deal's part of
``GuildSettings.features``, empty by default): ``as_pinned`` and ``settings_as_pinned``
put those keys back where that commit wrote them, so the digest still proves every other
byte the same.
"""

from __future__ import annotations

import hashlib
import pickle
import random

from bot.game import Table
from bot.game.outcome import outcome_of
from bot.game.replay import replay
from bot.rules import DEFAULT_RULES, RuleSet
from bot.values import GuildSettings
from tests.support.game_tables import points_by_player

DIGEST = "8d7489bf0aa72b465001abd2c738cd76863152e6f3f07d09505126c1ed951cd4"

RULES = (RuleSet(), RuleSet(kickers="distinct", bidding="until_two_passes"),
         RuleSet(target_points=50, match_hands=8))


def as_pinned(table: Table) -> str:
    """The table's JSON as the pinned commit wrote it: with the null feature fields it had
    before issue 49, just before ``fill``."""
    text = table.model_dump_json()
    assert text.count('"fill":') == 1
    return text.replace('"fill":', '"daily":null,"event":null,"tournament":null,"fill":')


def settings_as_pinned(settings: GuildSettings) -> str:
    """Default settings' JSON as the pinned commit wrote it: with the daily deal's two
    defaults just before ``turn_ping``."""
    text = settings.model_dump_json()
    assert text.count('"turn_ping":') == 1 and '"features"' not in text
    return text.replace('"turn_ping":', '"daily_level":"hard","daily_channel":null,"turn_ping":')


def _lines(seed: int, rules: RuleSet) -> list[str]:
    """Every state of a table that plays three hands (seeded deals, random legal choices)."""
    rng = random.Random(seed)
    table = Table.open(1, 2, 10, "Ana", computers=0, rules=rules)
    table.id = f"t{seed}"
    table.join(11, "Bo")
    table.join(12, "Cy")
    lines = [as_pinned(table)]
    now = 0.0
    for hand_no in range(3):
        if hand_no == 0:
            table.start(10, now, seed=seed * 7 + 1)
        else:
            table.play_again(11, now, seed=seed * 7 + 1 + hand_no)
        for _ in range(400):
            if table.phase != "playing":
                break
            hand = table.hand
            assert hand is not None and hand.turn is not None
            user = table.seats[hand.turn].user_id
            assert user is not None
            now += 1.0
            if hand.phase == "bidding":
                table.bid(user, rng.choice(hand.allowed_bids(hand.turn)), now)
            else:
                plays = hand.legal_plays(hand.turn)
                if hand.to_beat_for(hand.turn) is not None and (not plays or rng.random() < 0.3):
                    table.pass_turn(user, now)
                else:
                    table.play(user, rng.choice(plays), now)
            lines.append(as_pinned(table))
        outcome = outcome_of(table)
        lines.append(repr(outcome.seats) + outcome.winner + outcome.hand_json)
        assert table.hand is not None
        for step in replay(table.hand):
            lines.append(repr((step.kind, step.trick, step.first, step.multiplier,
                               [a.model_dump_json() for a in step.actions],
                               step.before, step.after)))
        lines.append(repr(points_by_player(table)))
    return lines


def classic_digest() -> str:
    """sha256 over 12 tables × 3 hands under three classic variants, the settings' JSON
    and the rule sets' pickles."""
    digest = hashlib.sha256()
    for seed in range(12):
        for line in _lines(seed, RULES[seed % 3]):
            digest.update(line.encode())
    for rules in RULES:
        digest.update(rules.model_dump_json().encode())
        digest.update(repr(rules.model_dump()).encode())
        assert pickle.loads(pickle.dumps(rules)) == rules
    digest.update(settings_as_pinned(GuildSettings(guild_id=1)).encode())
    assert pickle.loads(pickle.dumps(DEFAULT_RULES)) is DEFAULT_RULES
    return digest.hexdigest()


def test_classic_tables_are_byte_identical_to_before_the_rule_sets() -> None:
    assert classic_digest() == DIGEST
