"""The browser side of the docs' screenshot scripts (``daily_screenshots``,
``event_screenshots``): the sandbox run with a database filled beforehand, a slash
command typed in its web client, the ephemeral answer photographed."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.sandbox_running import SandboxRun


@dataclass(frozen=True)
class Shot:
    """One screenshot: ``file`` written, sandbox ``lang``, the command's first letters
    typed (``partial``), the suggestion Tab picks, then the options typed (``rest``)."""

    file: str
    lang: str
    partial: str
    suggestion: str
    rest: str = ""


def shoot(folder: Path, shots: Sequence[Shot], fill: Callable[[Path, Shot], None],
          answer_has: str = "Alice") -> list[Path]:
    """Write ``shots`` into ``folder``; their paths. Before each one ``fill(db, shot)``
    writes what it shows into the sandbox database ``db`` (its schema made by a first
    run); the answer photographed is the last ephemeral embed containing ``answer_has``.
    Raises AssertionError when a sandbox run does not stop cleanly."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        env = {"HOME": home}
        first = SandboxRun("--keep", env=env)
        first.wait_ready()
        assert first.stop() == 0, first.output
        db = Path(home) / ".ddz-sandbox" / "sandbox.sqlite3"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        for shot in shots:
            fill(db, shot)
            run = SandboxRun("--keep", "--lang", shot.lang, "--members", "5", env=env)
            try:
                url = run.wait_ready()
                page = browser.new_page(viewport={"width": 1000, "height": 640},
                                        device_scale_factor=1)
                page.goto(url)
                box = page.locator("#input")
                expect(box).to_be_visible()
                box.click()
                box.press_sequentially(shot.partial)
                expect(page.locator("#suggestions .item .name", has_text=shot.suggestion).first
                       ).to_be_visible()
                box.press("Tab")
                if shot.rest:
                    box.press_sequentially(shot.rest)
                box.press("Enter")
                answer = page.locator("article.msg.ephemeral", has=page.locator(".embed")).last
                expect(answer).to_contain_text(answer_has, timeout=20_000)
                path = folder / shot.file
                answer.screenshot(path=str(path))
                written.append(path)
                page.close()
            finally:
                assert run.stop() == 0, run.output
        browser.close()
    return written
