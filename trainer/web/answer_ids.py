"""Ids for graded answers: 32 hex digits of the operating system's randomness, drawn in blocks.

Each drill form carries a fresh id (the store keeps an answer sent twice once). ``uuid4`` asks the
kernel for 16 bytes each time, and every such call lets go of the interpreter lock; under a class's
load a thread that let go waits for it behind the others, so two calls per answer showed in the
latency. The same randomness read 4 KB at a time costs one call per 256 ids.

Each thread draws from a block of its own: a block shared under a lock made the lock where a class's
requests queued (a thread that lost the interpreter inside it held up every other). A forked server
process must not reuse its parent's blocks: it starts with none.
"""

from __future__ import annotations

import os
import threading

BLOCK = 4096
SIZE = 16

_mine = threading.local()


def _forget() -> None:
    global _mine
    _mine = threading.local()


os.register_at_fork(after_in_child=_forget)


def new() -> str:
    """A fresh answer id, as unguessable as ``uuid.uuid4().hex``."""
    mine = _mine
    used = getattr(mine, "used", BLOCK)
    if used + SIZE > BLOCK:
        mine.block, used = os.urandom(BLOCK), 0
    mine.used = used + SIZE
    return mine.block[used : used + SIZE].hex()
