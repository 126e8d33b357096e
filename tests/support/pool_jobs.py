"""Jobs the worker-pool tests send to worker processes (module level: they pickle)."""

from __future__ import annotations

import os
import time


def logged_step(log: str, seconds: float) -> int:
    """Append ``start <pid>``, sleep, append ``end <pid>`` to the file ``log``."""
    with open(log, "a") as out:
        out.write(f"start {os.getpid()}\n")
    time.sleep(seconds)
    with open(log, "a") as out:
        out.write(f"end {os.getpid()}\n")
    return os.getpid()


def echo_back(data: bytes) -> bytes:
    """``data`` itself: a call and an answer of the same size."""
    return data
