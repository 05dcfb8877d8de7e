"""Ids for graded answers: 32 hex digits of the operating system's randomness, drawn in blocks.

Each drill form carries a fresh id (the store keeps an answer sent twice once). ``uuid4`` asks the
kernel for 16 bytes each time, and every such call lets go of the interpreter lock; under a class's
load a thread that let go waits for it behind the others, so two calls per answer showed in the
latency. The same randomness read 4 KB at a time costs one call per 256 ids. A forked server
process must not reuse its parent's block: it starts an empty one.
"""

from __future__ import annotations

import os
import threading

BLOCK = 4096
SIZE = 16

_lock = threading.Lock()
_block = b""
_used = 0


def _forget() -> None:
    global _block, _used, _lock
    _lock = threading.Lock()  # the parent's could have been held by another thread at the fork
    _block, _used = b"", 0


os.register_at_fork(after_in_child=_forget)


def new() -> str:
    """A fresh answer id, as unguessable as ``uuid.uuid4().hex``."""
    global _block, _used
    with _lock:
        if _used + SIZE > len(_block):
            _block, _used = os.urandom(BLOCK), 0
        chunk = _block[_used : _used + SIZE]
        _used += SIZE
    return chunk.hex()
