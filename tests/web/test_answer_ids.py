"""Answer ids: fresh in every form, never the same in two server processes."""

from __future__ import annotations

import os
import re

from trainer.web import answer_ids


def test_ids_are_32_hex_digits_and_do_not_repeat():
    ids = [answer_ids.new() for _ in range(5_000)]  # past the end of several blocks
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert len(set(ids)) == len(ids)


def test_a_forked_server_process_does_not_draw_its_parents_next_ids():
    answer_ids.new()  # the parent holds a block it has only begun
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.write(write, ",".join(answer_ids.new() for _ in range(3)).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child = set(pipe.read().split(","))
    os.waitpid(pid, 0)
    parent = {answer_ids.new() for _ in range(3)}
    assert len(child) == 3 and not child & parent


def test_threads_drawing_at_once_never_get_the_same_id():
    """Each thread draws from a block of its own: no two threads' ids are the same."""
    import threading

    found: list[list[str]] = [[] for _ in range(8)]

    def draw(mine: list[str]) -> None:
        mine.extend(answer_ids.new() for _ in range(3_000))

    threads = [threading.Thread(target=draw, args=(mine,)) for mine in found]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [i for mine in found for i in mine]
    assert len(set(every)) == len(every) == 24_000
