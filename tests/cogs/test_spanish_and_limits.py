"""Spanish replies and public messages; the hand view fits Discord's component limits."""

from __future__ import annotations

import re

from bot.ai import ordered_plays
from bot.game.table import Table
from bot.rules import parse_cards
from cogs.hand_view import add_rank, build_screen
from cogs.items import HAND_TEMPLATE, PUBLIC_TEMPLATE, SELECT_TEMPLATE, ViewState
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members


async def test_spanish_members_get_spanish_replies_and_public_messages(fake: FakeDiscord) -> None:
    ana, bo, cy = members(fake, "es-ES")
    reply = await ana.slash("start", computers=1)
    assert reply.text.startswith("La mesa `") and reply.text.endswith("está abierta en este canal.")
    lobby = fake.table_message()
    assert "Asiento 1: Ana" in lobby.content and "Asiento 2: Bot 2 (ordenador, normal)" in lobby.content
    assert list(lobby.buttons()) == ["Unirse", "Salir", "Añadir ordenador", "Empezar", "Cancelar",
                                     "Asiento libre → ordenador"]
    await bo.click(lobby, "Unirse")
    await bo.click(fake.table_message(), "Empezar")
    assert (await cy.click(fake.table_message(), "Apostar 1")).text == "No estás sentado en esta mesa."
    view = (await ana.click(fake.table_message(), "Mi mano")).last
    assert view.alt_texts == ["Tu mano: 3 3 3 4 4 4 5 5 6 6 7 7 8 8 9 9 10. Aún no las has visto: 3, 4, 5×2, 6×2, 7×2, 8×2, 9×2,"
                              " 10×3, J×4, Q×4, K×4, A×4, 2×4, comodín pequeño, comodín grande"]
    assert "**Te toca apostar.**" in view.content
    assert "` · apuestas" in fake.table_message().content


async def test_public_messages_follow_the_server_locale_and_replies_the_user(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake, "en-US")
    ana.guild_locale = "es-419"
    reply = await ana.slash("start")
    assert reply.text.endswith("is open in this channel.")
    assert "Asiento 1: Ana" in fake.table_message().content


def test_custom_id_templates_never_overlap() -> None:
    samples = ["ddz:ab12cd34:7:join", "ddz:ab12cd34:7:bid3", "ddz:ab12cd34:7:hand",
               "ddz:ab12cd34:7:hr14.1a.g2", "ddz:ab12cd34:7:hpick.0.r0", "ddz:ab12cd34:7:hrd1.z.r0"]
    for sample in samples:
        hits = [p for p in (PUBLIC_TEMPLATE, HAND_TEMPLATE, SELECT_TEMPLATE) if re.fullmatch(p, sample)]
        assert len(hits) == 1, sample


def test_rank_buttons_add_one_card_each_then_clear_the_rank() -> None:
    hand = parse_cards("3334")
    state = ViewState()
    counts = []
    for _ in range(4):
        state = add_rank(hand, state, 0)
        counts.append(len(state.selected))
    assert counts == [1, 2, 3, 0]


def test_a_twenty_card_hand_with_every_rank_fits_discord_limits() -> None:
    table = Table.open(1, 2, 11, "Ana")
    table.seats[1].computer = table.seats[2].computer = "normal"
    landlord = "3456789TJQKA2XD" + "33445"
    hands = [landlord[:17], None, None]
    rest = [c for c in "3456789TJQKA2" * 4 + "XD"]
    for ch in landlord:
        rest.remove(ch)
    hands[1], hands[2] = "".join(rest[:17]), "".join(rest[17:34])
    kitty = "".join(rest[34:]) if len(rest) > 34 else None
    table.start(11, 0.0, hands=hands, kitty=kitty or landlord[17:], first_bidder=0)
    table.bid(11, 3, 0.0)
    seat_cards = table.hand.hand_of(0)
    assert len(seat_cards) == 20
    screen = build_screen(table, 0, ViewState(frozenset(c.index for c in seat_cards)), "es",
                          plays=ordered_plays(table.hand.observation(0)))
    rows = screen.view.to_components()
    assert len(rows) <= 5 and sum(len(r["components"]) for r in rows) <= 25
    ids = [c["custom_id"] for r in rows for c in r["components"]]
    assert len(ids) == len(set(ids)) and max(map(len, ids)) <= 100
    assert all(len(r["components"]) <= 5 or r["components"][0]["type"] == 3 for r in rows)
    assert len(rows[0]["components"][0]["options"]) <= 25
