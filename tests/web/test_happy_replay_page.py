"""A Happy hand's replay on the web page (docs/RULES.md §Happy rules, §Replays): its
calling page lists each call, grab, show and double in the reader's words, the header
says the Happy rules and the multiplier (no bid), the deal names who calls first.
Issue 52: the replay pages gained a line per decision, which the web page's verbs did
not know."""

from __future__ import annotations

import aiohttp
import pytest

from bot.values import FinishedHand, SeatChange, Settlement
from tests.support.fake_records import Records
from tests.support.happy import played
from tests.support.web_pages import GUILD, NAMES, running_site


def happy_record() -> FinishedHand:
    hand = played()  # Ana calls, Bo grabs, Carmen does not, Ana grabs back and shows
    result = hand.result
    assert result is not None
    users = (101, 102, 103)
    changes = [SeatChange(seat=i, user_id=u, name=NAMES[i], points=result.points[i],
                          role="landlord" if i == hand.landlord else "peasant",
                          total=result.points[i]) for i, u in enumerate(users)]
    settlement = Settlement(hand_id="happy", guild_id=GUILD, table_id="t", match_no=1,
                            changes=changes, winner=result.winner, hand_no=1)
    return FinishedHand(hand_no=1, hand_id="happy", guild_id=GUILD, finished_at=1.0,
                        hand_json=hand.model_dump_json(), settlement=settlement,
                        user_ids=users, channel_id=5_000)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Calling, grabbing and doubling", "Happy rules · ×8", "Ana calls first.",
            "Call", "Grab ×2", "Don't grab", "Show hand ×2", "No double", "Double ×2",
            "was landlord under the Happy rules"]),
    ("es", ["Cantar, robar y doblar", "Reglas Happy · ×8", "Ana canta primero.", "Cantar",
            "Robar ×2", "No robar", "Mostrar la mano ×2", "No doblar", "Doblar ×2"]),
])
async def test_a_happy_hands_web_replay_names_each_decision(lang: str, words: list[str]) -> None:
    async with running_site(Records(happy_record())) as (base, _, links):
        token = links.replay_token(GUILD, 1)
        async with aiohttp.ClientSession() as session, session.get(
                f"{base}/r/{token}?lang={lang}") as response:
            html = await response.text()
            assert response.status == 200, html[:500]
    for word in words:
        assert word.replace("'", "&#39;") in html, word
    assert "Bid 1" not in html and "bids" not in html
