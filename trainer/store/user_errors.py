"""Messages the store gives people, marked for translation but translated by the web layer.

The store has no request and so no language: it raises a ``UserError`` holding the
English message and its values, and the page shows ``gettext(exc.message, **exc.params)``.
``N_`` only marks a literal for ``pybabel extract`` (``-k N_``, docs/i18n.md).
"""

from __future__ import annotations


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "translate later"
    return message


class UserError(ValueError):
    """Something a person asked that cannot go ahead; the message is for them."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params
