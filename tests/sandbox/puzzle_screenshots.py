"""``python -m tests.sandbox.puzzle_screenshots [folder]``: a screenshot of ``/ddz puzzle``
(the puzzle of the day: the image of every hand and the controls) in the sandbox's web
client (the real bot through the loopback Discord) in Debian's Chromium through
Playwright, for the docs (default ``docs/images``: ``puzzle_sandbox_en.png``)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.sandbox_running import SandboxRun


def shoot(folder: Path) -> Path:
    """Write the screenshot into ``folder``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "puzzle_sandbox_en.png"
    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        run = SandboxRun("--lang", "en", env={"HOME": home})
        try:
            url = run.wait_ready()
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 900},
                                    device_scale_factor=1)
            page.goto(url)
            box = page.locator("#input")
            expect(box).to_be_visible()
            box.click()
            box.press_sequentially("/ddz puz")
            expect(page.locator("#suggestions .item .name", has_text="/ddz puzzle").first
                   ).to_be_visible()
            box.press("Tab")
            box.press("Enter")
            answer = page.locator("article.msg.ephemeral", has_text="Puzzle of the day").last
            expect(answer).to_contain_text("Your turn", timeout=20_000)
            expect(answer.locator("img").first).to_be_visible()
            answer.screenshot(path=str(path))
            browser.close()
        finally:
            assert run.stop() == 0, run.output
    return path


if __name__ == "__main__":
    print(shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
