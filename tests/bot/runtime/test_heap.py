"""glibc keeps freed pages for reuse once :func:`keep_freed_pages` has run: a block of a
board's size, freed and taken again, no longer costs the kernel fresh pages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
glibc = pytest.mark.skipif(not sys.platform.startswith("linux")
                           or os.confstr("CS_GNU_LIBC_VERSION") is None,
                           reason="glibc's mallopt")

#: counts the minor page faults of taking and freeing 600 kB 200 times, in a fresh process
CHURN = """
import resource, sys
from bot.runtime.heap import keep_freed_pages
if sys.argv[1] == "kept":
    assert keep_freed_pages()
def churn():
    for _ in range(200):
        a = bytearray(300_000); a[::4096] = b"x" * len(a[::4096])
        b = bytes(a)
        del a, b
churn()  # the first round maps what it needs either way
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
churn()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", CHURN, mode], cwd=ROOT, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return int(out.stdout.split()[-1])


@glibc
def test_freed_pages_are_kept_for_the_next_board() -> None:
    default, kept = _faults("default"), _faults("kept")
    assert kept < 200 <= default, (default, kept)
