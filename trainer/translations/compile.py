"""Compile every catalog (``messages`` and ``engine``) to its ``.mo``: ``python -m trainer.translations.compile``.

The same as ``pybabel compile -d trainer/translations -D "messages engine"``,
with Babel's own checks, but one false alarm less: Babel marks any text
holding ``%`` followed by a space and a letter (``the 50% standard``) as a
``%``-format string and then rejects a translation without the same
"placeholder". The engine's texts are ``{name}`` templates
(``python-brace-format``) or plain sentences, where a percent sign is just
text, so for them that check is skipped; their ``{placeholders}`` are
checked by ``tests/test_messages_zh.py`` instead. Exits non-zero on any
other error.
"""

from __future__ import annotations

import sys

from babel.messages.checkers import python_format
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from . import FOLDER

DOMAINS = ("messages", "engine")


def _errors(catalog, domain: str) -> list[tuple[object, list[Exception]]]:
    found = []
    for message, errors in catalog.check():
        if domain == "engine":
            errors = [e for e in errors if not _percent_is_text(message, e)]
        if errors:
            found.append((message, errors))
    return found


def _percent_is_text(message, error: Exception) -> bool:
    try:
        python_format(None, message)
    except Exception as raised:  # the error python_format gives is the one to drop
        return str(raised) == str(error)
    return False


def main() -> int:
    problems = 0
    for domain in DOMAINS:
        for po_path in sorted(FOLDER.glob(f"*/LC_MESSAGES/{domain}.po")):
            with open(po_path, "rb") as fh:
                catalog = read_po(fh, locale=po_path.parent.parent.name)
            for message, errors in _errors(catalog, domain):
                for error in errors:
                    print(f"error: {po_path}:{message.lineno}: {error}", file=sys.stderr)
                    problems += 1
            translated = sum(1 for m in list(catalog)[1:] if m.string)
            print(f"{translated} of {len(catalog)} messages translated in {po_path.relative_to(FOLDER)}")
            with open(po_path.with_suffix(".mo"), "wb") as fh:
                write_mo(fh, catalog)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
