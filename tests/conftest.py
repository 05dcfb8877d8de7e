"""The whole suite: the slowest files first.

pytest-xdist (``--dist loadfile``) hands each worker whole files in the order they were collected,
and a worker that is done takes the next. Collected alphabetically, a file that takes a minute or
more came last, while the other worker sat idle: the suite waited for its one straggler. Started
first, the long files run side by side with the many short ones, and both workers finish together.

The list is measured (``pytest --junitxml``, seconds per file summed), not a rule: a file missing
from it only runs in its usual place, and a stale entry costs nothing but its place.
"""

from __future__ import annotations

# Slowest first; each took 25 s or more on two cores.
SLOW_FILES = (
    "tests/web/test_cache.py",
    "tests/store/test_input_fuzz_postgresql.py",
    "tests/store/test_input_fuzz.py",
    "tests/e2e/test_cert_browser.py",
    "tests/test_generate.py",
    "tests/e2e/test_store_browser.py",
    "tests/e2e/test_classroom_phone_browser.py",
    "tests/e2e/test_speed_browser.py",
    "tests/test_wheel.py",
    "tests/e2e/test_steps_browser.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(SLOW_FILES)}
    last = len(SLOW_FILES)

    def place(item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], last)

    # sorted() is stable: within a file, and among the files not listed, the collected order stays.
    items[:] = sorted(items, key=place)
