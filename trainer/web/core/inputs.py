"""Text from the request is checked once, before any view reads it.

No address, query parameter or form field of this app has a use for a
control character, and some do harm: PostgreSQL refuses a NUL byte in any
text column (the request then failed with a 500 half-way through), and a
line break in a value that ends up in a header splits the header. So a
request carrying one is refused here, before a view runs or anything is
stored:

- in the path: 404, there is no such address;
- in the query string: 400 with a page that names the parameter;
- in a form field: ``ControlInField``, which the blueprints that own a form
  with text boxes catch to show the form again, filled in (without the
  control characters), with the message next to the field and status 200;
  elsewhere (hidden fields only) a 400 page that names the field.

In a form value, tab counts as a space, and a line break is allowed inside
the value only in the fields that are text areas (``MULTILINE``); around a
one-line value (pasted with it) it is trimmed like any space. A path or a
query string takes none of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain

from flask import Flask, request
from flask_babel import gettext as _
from werkzeug.datastructures import ImmutableMultiDict, MultiDict
from werkzeug.exceptions import BadRequest, NotFound

from trainer.web.core.csrf import SAFE_METHODS

# C0 controls but tab, LF and CR; DEL; the C1 controls (NEL, U+0085, among them).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# What ends a line, for the fields that hold one line; a path or query string takes neither.
LINE_BREAK = re.compile(r"[\r\n\u2028\u2029]")
ANY = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MULTILINE = frozenset({"ids", "yaml", "yaml_text", "explain-en", "explain-zh-Hant", "explain-zh-Hans"})  # text areas: the classroom's list of spot ids, one per line; a spot's YAML; the editor's YAML box and teaching notes


class ControlInPath(NotFound):
    def __init__(self) -> None:
        super().__init__(
            _(
                "There is nothing at this address: it holds a control character (such as a NUL byte or a "
                "line break), which no address of this site has."
            )
        )


class ControlInQuery(BadRequest):
    def __init__(self, name: str) -> None:
        self.parameter = name
        super().__init__(
            _(
                "The part “%(name)s” of this address holds a control character (such as a NUL byte or a "
                "line break). Remove it and open the address again.",
                name=shown(name)[:40],
            )
        )


class ControlInField(BadRequest):
    """A form field holds a control character; ``field`` is its name (already cleaned)."""

    def __init__(self, field: str) -> None:
        self.field = field
        super().__init__(
            _(
                "The form field “%(field)s” holds a control character (such as a NUL byte or a line "
                "break), so nothing was done. Go back, remove it and send the form again.",
                field=field[:40],
            )
        )

    @staticmethod
    def message() -> str:
        """What the form says next to the field."""
        return _("This field cannot hold control characters (such as a NUL byte or a line break): remove them and send it again.")


class Params(ImmutableMultiDict):
    """The query, the form and the cookies. ``get`` of a name that was not sent returns the default
    without raising first: Werkzeug's ``get`` catches the ``BadRequestKeyError`` (an HTTP exception,
    costly to make) its ``[]`` raises, and a drill answer asks for a dozen names a form leaves out."""

    def get(self, key, default=None, type=None):  # noqa: A002 - Werkzeug's signature
        if key not in self:
            return default
        return super().get(key, default, type)


def shown(text: str) -> str:
    """``text`` as a form may show it again: control characters dropped, line breaks made spaces."""
    return CONTROL.sub("", LINE_BREAK.sub(" ", text))


def cleaned_form() -> MultiDict:
    """The posted form with every value ``shown``: to fill a refused form in again."""
    return MultiDict([(key, shown(value)) for key, values in request.form.lists() for value in values])


def bad_value(name: str, value: str) -> bool:
    if CONTROL.search(value):
        return True
    # A line break around a one-line value (pasted with it) is trimmed as every reader trims spaces.
    return name not in MULTILINE and LINE_BREAK.search(value.strip()) is not None


def _first_bad(pairs: Iterable[tuple[str, list[str]]], *, query: bool) -> str | None:
    """The name of the first parameter whose name or a value holds what it may not, else None."""
    for name, values in pairs:
        if ANY.search(name) or any((ANY.search(v) is not None) if query else bad_value(name, v) for v in values):
            return name
    return None


def _any_control(params: MultiDict) -> bool:
    """Whether any name or value holds a character ``ANY`` finds: one search over them all, for the
    common case of none (``_first_bad`` then says which, and what a value may hold)."""
    return bool(params) and ANY.search("".join(chain.from_iterable((k, *vs) for k, vs in params.lists()))) is not None


def check_request() -> None:
    if ANY.search(request.path):
        raise ControlInPath()
    bad = _first_bad(request.args.lists(), query=True) if _any_control(request.args) else None
    if bad is not None:
        raise ControlInQuery(bad)
    if request.method in SAFE_METHODS:
        return
    form = request.form
    bad = _first_bad(form.lists(), query=False) if _any_control(form) else None
    if bad is not None:
        raise ControlInField(shown(bad))


def init_app(app: Flask) -> None:
    # The request class the app has (htmx-flask's, which knows the htmx headers), with ``Params``.
    base = app.request_class
    app.request_class = type(base.__name__, (base,), {"parameter_storage_class": Params, "dict_storage_class": Params})
    app.before_request(check_request)
