"""Keeping freed pages for reuse instead of handing them back to the kernel at once.

glibc's ``malloc`` gives the top of its heap back to the system as soon as more than
``M_TRIM_THRESHOLD`` of it is free, and serves a block above ``M_MMAP_THRESHOLD`` with a
mapping of its own that goes back at ``free``. Its defaults adapt to a program's biggest
blocks, but only up to twice the biggest one for the trim. The bot handles a few hundred
kB per board many times a second (the picture as the render worker sends it, the
request that uploads it), and a render worker draws boards of that size: when the heap
grows past the threshold and shrinks again, the kernel maps and zeroes fresh pages for
the next board. In a loop that reads board-sized answers as the worker pool does (a
micro-benchmark, not the bot), an answer took 160 µs of CPU, 130 of them page faults, and
17 µs with the pages kept; in the load bench the bot process's page faults fell from about
4.6 to 0.6 per action, a gain within the bench's noise.

:func:`keep_freed_pages` raises both thresholds once at start (the bot process and each
worker). Free pages are still given back: the memory keeper's rounds call
``malloc_trim`` (:mod:`bot.runtime.memory`), which ignores the threshold.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable
from functools import cache
from typing import Any, cast

log = logging.getLogger(__name__)

#: mallopt's parameter numbers (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: free memory at the top of the heap kept for reuse (given back by malloc_trim)
TRIM_THRESHOLD = 64 << 20
#: blocks from this size on get mappings of their own (a board is far below it)
MMAP_THRESHOLD = 4 << 20


@cache
def libc_function(name: str, *argtypes: type[Any]) -> Callable[..., int] | None:
    """The C library's function ``name`` taking ``argtypes`` and returning an int, or
    None on a C library without it (musl, macOS: no ``mallopt``, no ``malloc_trim``)."""
    lib = ctypes.util.find_library("c")
    if lib is None:
        return None
    try:
        fn = getattr(ctypes.CDLL(lib), name)
    except (OSError, AttributeError):
        return None
    fn.argtypes = list(argtypes)
    fn.restype = ctypes.c_int
    return cast("Callable[..., int]", fn)


def keep_freed_pages() -> bool:
    """Raise glibc's trim and mmap thresholds (see the module docstring); whether it
    could (False on a C library without ``mallopt``, e.g. musl or macOS)."""
    mallopt = libc_function("mallopt", ctypes.c_int, ctypes.c_int)
    if mallopt is None:
        return False
    ok = bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and bool(
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not ok:
        log.info("the C library refused new malloc thresholds")
    return ok
