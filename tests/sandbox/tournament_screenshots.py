"""``python -m tests.sandbox.tournament_screenshots [folder]``: screenshots of a tournament
(docs/RULES.md §Tournaments) for the docs (default ``docs/images``), taken in the
sandbox's web client (the real bot through the loopback Discord, whose threads the
client lists as channels) in Debian's Chromium through Playwright: the public sign-up,
a table's board in its thread, and the final standings.

Four members (Alice organises) play a two-round, one-hand tournament; their seats go on
auto-play so that it plays itself (``DDZ_AUTOPLAY_PACE_SCALE=0``)."""

from __future__ import annotations

import json
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.sandbox_running import SandboxRun

ENV = {"DDZ_AUTOPLAY_PACE_SCALE": "0", "DDZ_COMPUTER_DELAY": "0.2,0.3"}


def call(url: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(url + path, data=None if body is None else
                                     json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - 127.0.0.1
        return json.loads(answer.read())


def world(url: str) -> dict[str, Any]:
    return call(url, "/api/world")  # type: ignore[no-any-return]


def command(url: str, member: str, channel: str, text: str) -> None:
    answer = call(url, "/api/command", {"member": member, "channel": channel, "text": text})
    assert "ok" in answer, (text, answer)
    time.sleep(0.5)


def wait_for(predicate: Any, what: str, timeout: float = 90.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def shoot(folder: Path) -> list[Path]:
    """Write the screenshots into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    run = SandboxRun("--members", "4", env=ENV)
    written: list[Path] = []
    try:
        page_url = run.wait_ready()
        parts = urllib.parse.urlsplit(page_url)
        url = f"{parts.scheme}://{parts.netloc}"
        w = world(url)
        members = {m["name"]: m["id"] for m in w["members"]}
        ddz = next(c["id"] for c in w["channels"] if c["name"] == "ddz")
        command(url, members["Alice"], ddz,
                "/ddz tournament create name:Friday cup rounds:2 hands:1 level:easy")
        for name in ("Alice", "Bob", "Carol", "Dave"):
            command(url, members[name], ddz, "/ddz tournament join")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 820},
                                    device_scale_factor=1)
            page.goto(page_url)
            expect(page.locator("#input")).to_be_visible()
            page.locator("#channels li", has_text="ddz").first.click()
            signup = page.locator("article.msg", has_text="4 entrants").last
            expect(signup).to_be_visible(timeout=20_000)
            written.append(folder / "tournament_signup.png")
            signup.screenshot(path=str(written[-1]))

            command(url, members["Alice"], ddz, "/ddz tournament start")
            wait_for(lambda: [c for c in world(url)["channels"] if "round 1" in c["name"]],
                     "round 1's threads")
            page.reload()
            expect(page.locator("#input")).to_be_visible()
            page.locator("#channels li", has_text="round 1 · table 1").click()
            board = page.locator("article.msg", has=page.locator("img")).last
            expect(board).to_be_visible(timeout=30_000)
            page.wait_for_timeout(1500)
            written.append(folder / "tournament_thread_board.png")
            page.locator("#messages, main").first.screenshot(path=str(written[-1]))

            for round_no in (1, 2):
                threads = wait_for(lambda n=round_no: [c for c in world(url)["channels"]
                                                       if f"round {n}" in c["name"]],
                                   f"round {round_no}'s threads")
                for thread in threads:
                    for member in members.values():
                        call(url, "/api/command", {"member": member, "channel": thread["id"],
                                                   "text": "/ddz autoplay mode:on pace:1"})
            page.reload()
            expect(page.locator("#input")).to_be_visible()
            page.locator("#channels li", has_text="ddz").first.click()
            final = page.locator("article.msg", has_text="is over").last
            expect(final).to_be_visible(timeout=120_000)
            page.wait_for_timeout(500)
            written.append(folder / "tournament_final.png")
            final.screenshot(path=str(written[-1]))
            browser.close()
    finally:
        assert run.stop() == 0, run.output
    return written


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(shot)
