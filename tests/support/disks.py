"""A small disk for tests of a full disk: a tmpfs mounted for the test and filled up."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(size: str = "2m", owner: str | None = None) -> Iterator[Path]:
    """A ``size`` tmpfs mounted for the test, its root owned by ``owner`` if given
    (skips where mounting is not allowed)."""
    where = Path(tempfile.mkdtemp(prefix="ddz-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True)
    if mounted.returncode != 0:
        where.rmdir()
        pytest.skip("mounting a small tmpfs needs root")
    try:
        if owner is not None:
            shutil.chown(where, owner, owner)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with one file; its path (delete it: room again)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler
