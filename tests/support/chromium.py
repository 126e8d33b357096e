"""Debian's chromium for every browser test (tests/web, tests/sandbox), driven by
Playwright: never a downloaded browser (no ``playwright install``). Without
/usr/bin/chromium the tests are skipped, except under ``CI=true`` (``.ci/run`` installs
it), where they fail."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]


def require_chromium() -> None:
    """Skip the calling test module without chromium (RuntimeError under CI=true)."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI needs Debian's chromium for the browser tests"
                           " (apt-get install chromium)")
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
