"""``python -m tests.sandbox.happy_screenshots [folder]``: phone-width (400 px)
screenshots of a Happy hand (docs/RULES.md §Happy rules) in the sandbox's web client
(the real bot through the loopback Discord) in Debian's Chromium through Playwright:
the table's board and Alice's hand view, each with its multiplier, in English and
Spanish: Alice's hand view at the deal, whose "Show hand (points ×4)" sits beside rank
buttons such as "5 ×2"; the board after she showed her hand (×4), drawn face up, which
says "call the landlord"; and the replay's bidding page of a Happy hand (``replay_page``). PNGs in a
256-colour palette. Default folder ``docs/images``: ``happy_board_{en,es}.png``,
``happy_hand_{en,es}.png``, ``happy_replay_{en,es}.png`` and
``happy_shown_view_{en,es}.png`` (another seat's hand image with a shown hand, ``shown_view``),
``happy_hint_{en,es}.png`` (Alice's view after Hint on her call, ``hint_view``; only these
with ``python -m tests.sandbox.happy_screenshots docs/images hint``)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect, sync_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.sandbox_running import SandboxRun

LANGS = {"en": ("/ddz st", "/ddz start", "computers:2 rules:happy", "My hand", "Multiplier",
               "Show hand (points ×4)"),
         "es": ("/ddz emp", "/ddz empezar", "ordenadores:2 reglas:happy", "Mi mano",
                "Multiplicador", "Mostrar la mano (puntos ×4)")}


def shoot(folder: Path, lang: str) -> list[Path]:
    """Write ``happy_board_<lang>.png`` and ``happy_hand_<lang>.png`` into ``folder``."""
    partial, command, rest, mine, word, show = LANGS[lang]
    folder.mkdir(parents=True, exist_ok=True)
    board_path, hand_path = folder / f"happy_board_{lang}.png", folder / f"happy_hand_{lang}.png"
    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        run = SandboxRun("--lang", lang, env={"HOME": home})
        try:
            url = run.wait_ready()
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 400, "height": 900}, is_mobile=True, has_touch=True,
                                    device_scale_factor=1)
            page.goto(url)
            box = page.locator("#input")
            expect(box).to_be_visible()
            box.click()
            box.press_sequentially(partial)
            expect(page.locator("#suggestions .item .name", has_text=command).first
                   ).to_be_visible()
            box.press("Tab")
            box.press_sequentially(rest)
            box.press("Enter")
            page.locator("button[data-custom-id*=':start']").last.click()
            public = page.locator("article.msg:not(.ephemeral)").last
            expect(public).to_contain_text(word, timeout=20_000)
            public.get_by_role("button", name=mine, exact=True).click()
            view = page.locator("article.msg.ephemeral", has=page.locator("img[alt]")).filter(
                has=page.locator("button[data-custom-id*=':hsort']")).last
            expect(view).to_contain_text(word, timeout=20_000)
            page.wait_for_timeout(1500)  # the image loads
            view.scroll_into_view_if_needed()  # her view before the show: the stake buttons
            view.screenshot(path=str(hand_path))  # beside the rank buttons ("5 ×2")
            view.get_by_role("button", name=show, exact=True).click()  # 明牌开始: ×4
            expect(page.locator("article.msg:not(.ephemeral)").last).to_contain_text(
                f"{word}: ×4", timeout=20_000)
            page.wait_for_timeout(1500)  # the images load
            board = page.locator("article.msg:not(.ephemeral)").filter(has_text=word).last
            board.scroll_into_view_if_needed()
            board.screenshot(path=str(board_path))  # her hand face up on the board
            browser.close()
        finally:
            run.stop()
    for path in (board_path, hand_path):  # 256 colours: about a third of the RGB size
        Image.open(path).convert("RGB").quantize(
            256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    return [board_path, hand_path]


HINT = {"en": ("Hint", "💡 Call the landlord"), "es": ("Pista", "💡 Canta el terrateniente")}


def hint_view(folder: Path, lang: str) -> Path:
    """``happy_hint_<lang>.png``: Alice's hand view on her call (she speaks first: the
    sandbox's deal seed) after she pressed Hint: the hard computer's answer with the
    hand's estimated chance against its threshold (docs/AI.md §Happy rules)."""
    partial, command, rest, mine, word, _ = LANGS[lang]
    hint, answer = HINT[lang]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"happy_hint_{lang}.png"
    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        run = SandboxRun("--lang", lang, env={"HOME": home})
        try:
            url = run.wait_ready()
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 400, "height": 900}, is_mobile=True,
                                    has_touch=True, device_scale_factor=1)
            page.goto(url)
            box = page.locator("#input")
            expect(box).to_be_visible()
            box.click()
            box.press_sequentially(partial)
            expect(page.locator("#suggestions .item .name", has_text=command).first
                   ).to_be_visible()
            box.press("Tab")
            box.press_sequentially(rest)
            box.press("Enter")
            page.locator("button[data-custom-id*=':start']").last.click()
            public = page.locator("article.msg:not(.ephemeral)").last
            expect(public).to_contain_text(word, timeout=20_000)
            public.get_by_role("button", name=mine, exact=True).click()
            view = page.locator("article.msg.ephemeral", has=page.locator("img[alt]")).filter(
                has=page.locator("button[data-custom-id*=':hsort']")).last
            expect(view).to_contain_text(word, timeout=20_000)
            view.get_by_role("button", name=hint, exact=True).click()
            view = page.locator("article.msg.ephemeral").filter(has_text=answer).last
            expect(view).to_contain_text(answer, timeout=20_000)
            page.wait_for_timeout(1500)  # the image loads
            view.scroll_into_view_if_needed()
            view.screenshot(path=str(path))
            browser.close()
        finally:
            run.stop()
    Image.open(path).convert("RGB").quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    return path


def replay_page(folder: Path, lang: str) -> Path:
    """``happy_replay_<lang>.png``: the bidding page of the docs' whole Happy hand
    (``tests.support.happy.played``: a call, two grabs, a show, the doubles) as a phone
    shows the 800 px page, 400 px wide, in a 256-colour palette. Drawn by
    ``rendering.replay`` directly (the page ``/ddz replay`` attaches), not in the browser."""
    from bot.game.replay import replay
    from rendering.replay import page_image
    from rendering.replay_pages import Players, pages
    from tests.support.happy import played

    hand = played()
    page = pages(hand, replay(hand), Players(("Ana", "Bo", "Cy"), (1, 2, None)), 7)[1]
    image = page_image(page, locale=lang)
    image = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
    path = folder / f"happy_replay_{lang}.png"
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True)
    return path


def shown_view(folder: Path, lang: str) -> Path:
    """``happy_shown_view_<lang>.png``: the hand image of Bo's view after Ana started with
    her hand face up (the docs' deal, ``tests.support.happy.HANDS``), with the card
    counter: her cards in a strip on top. 400 px wide, 256 colours; drawn by
    ``rendering.render_hand`` from ``cogs.hand_view.build_screen`` directly."""
    import io

    from bot.game.table import Table
    from bot.rules import RuleSet
    from cogs.hand_view import build_screen
    from cogs.items import ViewState
    from rendering import render_hand
    from tests.support.happy import HANDS

    table = Table.open(1, 2, 10, "Ana", computers=2, rules=RuleSet(variant="happy"))
    table.seats[1] = table.seats[1].model_copy(update={"name": "Bo"})
    table.start(10, 0.0, hands=HANDS, kitty="AA2", first_bidder=0)
    table.decide(10, "show", 4, 0.5)
    screen = build_screen(table, 1, ViewState(), lang, counter=True)
    png = render_hand(screen.cards, locale=lang, show_indices=False, counter=screen.counts,
                      shown=screen.shown)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
    path = folder / f"happy_shown_view_{lang}.png"
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True)
    return path


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")
    if sys.argv[2:] == ["hint"]:
        for lang in LANGS:
            print(hint_view(out, lang))
        sys.exit(0)
    for lang in LANGS:
        for path in [*shoot(out, lang), replay_page(out, lang), shown_view(out, lang)]:
            print(path)
