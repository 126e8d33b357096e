"""``python -m tests.sandbox.hand_screenshots [folder]``: the screenshots of docs/SANDBOX.md
and the README, in the sandbox's web client (the real bot through the loopback Discord)
in Debian's Chromium through Playwright; default folder ``docs/images``:

* ``sandbox_hand.png`` (1280 × 900): Alice's hand view after she bid 3 and picked two
  cards in the card menu, the table's board above it;
* ``sandbox_phone_hand.png`` (400 × 800): her hand view while she is to bid;
* ``sandbox_phone_menu.png`` (400 × 800): the sidebar opened with ☰.

PNGs in a 256-colour palette."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, expect, sync_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.sandbox_running import SandboxRun


def start_and_open_hand(page: Page) -> None:
    """``/ddz start computers:2``, Start, then My hand; waits for the hand view."""
    box = page.locator("#input")
    expect(box).to_be_visible()
    box.click()
    box.press_sequentially("/ddz st")
    expect(page.locator("#suggestions .item .name", has_text="/ddz start").first).to_be_visible()
    box.press("Tab")
    box.press_sequentially("computers:2")
    box.press("Enter")
    page.locator("button[data-custom-id*=':start']").last.click()
    page.locator("article.msg:not(.ephemeral)").last.get_by_role(
        "button", name="My hand", exact=True).click()
    expect(view(page).locator("button[data-custom-id*=':hb']:not([disabled])").first
           ).to_be_visible(timeout=20_000)


def view(page: Page):  # type: ignore[no-untyped-def]
    """The latest hand view on ``page``."""
    return page.locator("article.msg.ephemeral", has=page.locator("img[alt]")).filter(
        has=page.locator("button[data-custom-id*=':hsort']")).last


def palette(path: Path) -> None:
    """Rewrite ``path`` in a 256-colour palette (about a third of the RGB size)."""
    Image.open(path).convert("RGB").quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def shoot(folder: Path) -> list[Path]:
    """Write the three screenshots into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / n for n in ("sandbox_hand.png", "sandbox_phone_hand.png",
                                  "sandbox_phone_menu.png")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        for phone in (False, True):
            with tempfile.TemporaryDirectory() as home:
                run = SandboxRun("--lang", "en", env={"HOME": home})
                try:
                    url = run.wait_ready()
                    size = {"width": 400, "height": 800} if phone else \
                        {"width": 1280, "height": 900}
                    page = browser.new_page(viewport=size, is_mobile=phone, has_touch=phone,
                                            device_scale_factor=1)
                    page.goto(url)
                    start_and_open_hand(page)
                    if phone:
                        page.wait_for_timeout(1500)
                        view(page).scroll_into_view_if_needed()
                        page.screenshot(path=str(paths[1]))
                        page.locator("#menu-toggle").click()
                        expect(page.locator("#member")).to_be_in_viewport()
                        page.wait_for_timeout(500)
                        page.screenshot(path=str(paths[2]))
                    else:
                        view(page).locator("button[data-custom-id*=':hb3.']").click()
                        hand = view(page)
                        expect(hand.locator("button[data-custom-id*=':hplay.']")).to_be_visible(
                            timeout=20_000)
                        cards = hand.locator(".select[data-custom-id*=':hcards.']")
                        cards.locator(".select-box").click()
                        cards.locator(".select-menu li").nth(0).click()
                        cards.locator(".select-menu li").nth(1).click()
                        page.locator("#channel-header").click()  # closing the menu sends both
                        expect(view(page)).to_contain_text("Selected:", timeout=20_000)
                        page.wait_for_timeout(1500)
                        view(page).scroll_into_view_if_needed()
                        page.screenshot(path=str(paths[0]))
                    page.close()
                finally:
                    run.stop()
        browser.close()
    for path in paths:
        palette(path)
    return paths


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(path)
