"""What the engine and the generator say, in three languages, is exactly the reviewed text.

The golden digests (``tests/golden/engine-texts.sha256``) were taken from the
texts learners read; any change of a character in a derivation step, an error
sentence, a rule text or a generated spot's title or note shows up here with
the lines of the spot that changed. See ``tests/engine_texts.py``.
"""

from __future__ import annotations

from pathlib import Path

from tests.engine_texts import digests, group_of, lines, read_digests

GOLDEN = Path(__file__).resolve().parent / "golden" / "engine-texts.sha256"


def test_every_engine_and_generator_text_is_unchanged():
    found = lines()
    want = read_digests(GOLDEN)
    got = digests(found)
    assert sum(count for count, _ in got.values()) > 30000
    changed = [group for group in want.keys() | got.keys() if want.get(group) != got.get(group)]
    shown = [line for line in found if group_of(line) in set(sorted(changed)[:3])]
    assert not changed, (
        f"{len(changed)} groups differ, e.g. {sorted(changed)[:10]}; their lines now:\n" + "".join(shown[:60])
    )
