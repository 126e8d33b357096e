"""A member asks the Hint on the Happy rules' decisions through the real ``python -m bot``
(docs/AI.md §Happy rules), in English and Spanish.

Ana opens a Happy table with two computers. On her call she opens her hand view and
presses Hint: the view answers what the hard computer would decide there, with the
hand's estimated chance of winning against the computer's threshold, and nothing
changes at the table. She calls, asks the Hint again on the double and doubles, plays
the hand out with Play and Pass, and reads the result.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.ai.happy import HARD
from bot.ai.players import hint_options
from bot.game.happy import HappyHand
from bot.i18n import t
from bot.rules import RuleSet, format_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    cards_in_alt,
    changes_in_result,
    finished,
    hand_component,
    open_view,
    press,
    public_actions,
    public_seq,
    reply_text,
    table_message,
    wait_public,
)
from tests.support.hand_player import Words, _mark, _pattern, discord_locale, take_turn

pytestmark = pytest.mark.asyncio(loop_scope="function")

NAMES = ("Ana", "Bot 2", "Bot 3")
DEAL_SEED = 4
"""``DDZ_DEAL_SEED``: its first Happy deal has Ana (seat 0) speak first."""
HAPPY = RuleSet(variant="happy")
DOUBLES = ("happy_super_double", "happy_double", "happy_no_double", "happy_no_double_cap")


def first_deal() -> HappyHand:
    """The table's first deal under ``DEAL_SEED`` (``TableService.deal_seed``)."""
    hand = HappyHand.deal(HAPPY, seed=random.Random(DEAL_SEED).getrandbits(63))
    assert isinstance(hand, HappyHand) and hand.opener == 0
    return hand


def hint_line(code: str, lang: str) -> re.Pattern[str]:
    """The view's Hint line for the reason ``code``, its numbers as groups."""
    fields = {name: _mark(name) for name in ("n", "need", "high")}
    reason = t(f"reason.{code}", lang, **fields)
    return _pattern(t("hand.hint", lang, reason=reason),
                    n=r"(?P<n>\d+)", need=r"(?P<need>\d+)", high=r"(?P<high>\d+)")


async def ask_hint(emu: Emulator, member: SimMember, view: SimMessage, codes: tuple[str, ...],
                   lang: str) -> tuple[str, re.Match[str]]:
    """Ana presses Hint and reads its line once the hard computer's answer is in (a quick
    look, normal's answer, reads "💡 Quick look …: …" and is replaced when the AI worker
    answers within ``cogs.open_views.HINT_WAIT``; on a machine too loaded for that she
    presses Hint again, as a person would, and the answer is ready then). Returns
    (reason code, its numbers)."""
    found: list[tuple[str, re.Match[str]]] = []

    def final() -> bool:
        for code in codes:
            match = hint_line(code, lang).search(view.text)
            if match is not None:
                found[:] = [(code, match)]
                return True
        return False

    await press(member, view, "hint")
    try:
        await emu.wait_until(final, timeout=12, what=f"the Hint's answer ({lang})")
    except AssertionError:  # still the quick look: once more
        await press(member, view, "hint")
        await emu.wait_until(final, timeout=12, what=f"the Hint's answer ({lang}): {view.text}")
    return found[0]


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_member_asks_the_hint_on_the_call_and_the_double(tmp_path: Path,
                                                                  lang: str) -> None:
    emu = await Emulator().start()
    bot = BotProcess(emu, db_path=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                     extra_env={**FAST_ENV, "DDZ_DEAL_SEED": str(DEAL_SEED)})
    words = Words(lang)
    try:
        await bot.start(timeout=30)
        ana = emu.member(name="ana", locale=discord_locale(lang))
        ack = await finished(await ana.slash("ddz start", computers=2, rules="happy"))
        assert ack.ephemeral, reply_text(ack)
        lobby = await wait_public(emu, lambda m: "start" in public_actions(m), what="the lobby")
        assert "Rules: Happy, cap ×64" in lobby.text, lobby.text
        await ana.click(lobby, public_actions(lobby)["start"]["custom_id"])

        # ---- the call: Hint, read, nothing changes, then Call ---------------------------
        deal = first_deal()
        await wait_public(emu, lambda m: f"<@{ana.id}>" in m.content
                          and "hand" in public_actions(m), what="the deal")
        view = await open_view(ana)
        emu.diagnostics.append(lambda: f"--- Ana's hand view ---\n{view.text}")
        await emu.wait_until(lambda: words.turn(view.text) == "call", timeout=15,
                             what="Ana's call")
        assert format_cards(cards_in_alt(view)) == format_cards(sorted(deal.holdings[0]))
        hint = hand_component(view, "hint")
        assert hint["label"] == t("btn.hint", lang) and not hint.get("disabled"), hint
        board = table_message(emu)
        assert board is not None
        seq = public_seq(board)
        expected = hint_options(deal.observation(0), happy="call")
        code, numbers = await ask_hint(emu, ana, view, ("happy_call", "happy_no_call",
                                                        "happy_show_deal"), lang)
        first = expected[0]
        assert code == first.reason, (code, first)
        assert (int(numbers["n"]), int(numbers["need"])) == (first.params["n"],
                                                               first.params["need"])
        assert int(numbers["need"]) == round(100 * (HARD.show_deal if code == "happy_show_deal"
                                                    else HARD.call))
        # the Hint changed nothing: still Ana's call, the same table message
        assert words.turn(view.text) == "call", view.text
        assert public_seq(table_message(emu)) == seq  # type: ignore[arg-type]
        assert "b1" in {c.get("custom_id", "").split(":h")[-1].split(".")[0]
                        for c in view.buttons}

        # ---- the rest of the auction, the double (Hint first), the play ------------------
        hinted = {"call"}
        actions: list[str] = []
        for _ in range(80):
            await emu.wait_until(
                lambda: words.turn(view.text) is not None or words.over in view.text
                or words.sorry in view.text, timeout=30, what=f"Ana's turn ({lang}): {actions}")
            assert words.sorry not in view.text, view.text
            if words.over in view.text and words.turn(view.text) is None:
                break
            kind = words.turn(view.text)
            if kind == "double" and kind not in hinted:
                hinted.add(kind)
                code, numbers = await ask_hint(emu, ana, view, DOUBLES, lang)
                if code != "happy_no_double_cap":
                    assert 0 <= int(numbers["n"]) <= 100
                    assert int(numbers["need"]) in {round(100 * x) for x in
                                                    HARD.landlord_double + HARD.peasant_double}
                assert words.turn(view.text) == "double", view.text  # nothing chosen
            actions.append(await take_turn(ana, view, words, pass_if_free="pass" not in actions))
        assert actions[0] == "call" and "double" in actions, actions
        assert "play" in actions and "pass" in actions, actions
        assert hinted == {"call", "double"}

        # ---- the result ------------------------------------------------------------------
        result = await wait_public(emu, lambda m: "again" in public_actions(m), timeout=30,
                                   what="the result")
        changes = changes_in_result(result.text, NAMES)
        assert sum(changes.values()) == 0 and changes["Ana"] != 0, result.text
        assert emu.errors == [] and emu.late_interactions() == []
    finally:
        await bot.kill()
        timing.record(emu)
        await emu.close()
