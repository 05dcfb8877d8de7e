"""Who is asking: the learner id and the signed-in account, both in the signed session cookie."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, g, redirect, request, session, url_for
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from werkzeug.urls import iri_to_uri

from trainer.store import db
from trainer.store.learners import end_session, new_id, session_is_live, start_session
from trainer.store.models import Account, Learner
from trainer.web.core import csrf

LEARNER = "learner"
ACCOUNT = "account"
SESSION_ID = "session_id"  # the row in account_sessions that keeps this signed-in session live
SIGNED_AT = "signed_at"  # when it signed in (seconds since 1970)
TOUCHED = "touched"  # the day (days since 1970) the cookie was last written
REFRESH_DAYS = 7
# Left by the card lesson's last page: this browser has been through the lesson, so the drill no
# longer offers it (nothing of the lesson is stored in the database).
LESSON_DONE = "lesson_done"


def learner_id(*, create: bool = False) -> str | None:
    """Whose history this request reads and writes; ``create`` makes an anonymous learner when there is none.

    Signed in, it is the account's learner, whatever else the cookie carries. Signed out, it is the
    cookie's anonymous learner, unless that learner has since become an account's: a copy of a
    cookie from before a sign-up (a shared computer, a planted cookie) then opens nothing of it."""
    if "_learner" in g:
        return g._learner
    found = _learner_of_request(create=create)
    if found is not None:
        g._learner = found
    return found


def _learner_of_request(*, create: bool) -> str | None:
    user = account()
    if user is not None:
        mine = _read(lambda s: s.scalar(select(Learner.id).where(Learner.account_id == user.id)))
        if mine is None and create:
            mine = new_id()
            db().add(Learner(id=mine, account_id=user.id))
            db().commit()
        return mine
    value = session.get(LEARNER)
    if isinstance(value, str) and len(value) == 32:
        try:
            owner = _read(lambda s: s.scalar(select(Learner.account_id).where(Learner.id == value)))
        except DBAPIError:
            # The database is away: a graded answer is still shown and queued under this id (stored
            # once the database is back), and nothing of an account can be read meanwhile anyway.
            db().rollback()
            return value
        if owner is None:
            return value
        session.pop(LEARNER)
    if not create:
        return None
    value = secrets.token_hex(16)
    session[LEARNER] = value
    _last_long()
    return value


def _read(query: Callable[[Any], Any]) -> Any:
    """A read that leaves the request's session as it found it: a transaction it opens is ended
    here, since on SQLite an open one holds back the writer that a graded answer waits for."""
    opened = not db().in_transaction()
    found = query(db())
    if opened:
        db().commit()
    return found


def account() -> Account | None:
    if "_account" not in g:
        account_id = session.get(ACCOUNT)
        g._account = db().get(Account, account_id) if _storable_id(account_id) else None
    return g._account


def _storable_id(value: object) -> bool:
    """An id the database can be asked for. A cookie signed with the secret may still carry any JSON
    number (one from another app on the same secret), and one the column cannot hold fails the query:
    ``accounts.id`` is an ``Integer``, 32 bits on PostgreSQL (past 64 bits SQLite fails too)."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31


def signed_in(user: Account, learner: str | None) -> None:
    """A new session for the account (a fresh CSRF token, no left-overs from before).

    The token is made here, with the session, so that the pages opened next do not
    each make one of their own and race to write it. Commits the session's row."""
    session_id = start_session(db(), user)
    db().commit()
    session.clear()
    session[ACCOUNT] = user.id
    session[SESSION_ID] = session_id
    session[SIGNED_AT] = int(time.time())
    if learner:
        session[LEARNER] = learner
    csrf.token()
    _last_long()
    g._account = user
    g.pop("_learner", None)


def signed_out() -> None:
    """This browser's session, and every copy of its cookie, is over; the account's others go on."""
    if ACCOUNT in session:
        end_session(db(), session.get(SESSION_ID))
        db().commit()
    session.clear()
    g.pop("_account", None)
    g.pop("_learner", None)


def check_session() -> None:
    """End a signed-in session that has been signed out, or that is too old.

    The session is a signed cookie, so a copy of it is as good as the original
    while its row in ``account_sessions`` lasts: signing out deletes this
    session's row, "every other device" and a new password the account's others
    (``trainer.store.learners``), and a cookie whose row is gone (or from before
    there were rows) is then cleared here, learner id and all, before any page
    reads it. Instructor sessions, which open
    every student's answers, last ``INSTRUCTOR_SESSION_HOURS`` from signing
    in; learners' last as long as the cookie.
    """
    if request.endpoint == "static" or ACCOUNT not in session:
        return
    user = account()
    if user is None or not session_is_live(db(), user, session.get(SESSION_ID)) or _too_old(user):
        end_session(db(), session.get(SESSION_ID))
        db().commit()
        session.clear()
        g.pop("_account", None)
        g.pop("_learner", None)


def _too_old(user: Account) -> bool:
    if not user.is_instructor:
        return False
    signed_at = session.get(SIGNED_AT)
    hours = current_app.config["INSTRUCTOR_SESSION_HOURS"]
    return not isinstance(signed_at, int) or time.time() - signed_at > hours * 3600


def _today() -> int:
    return int(time.time() // 86400)


def _last_long() -> None:
    session.permanent = True
    session[TOUCHED] = _today()


def keep_alive() -> None:
    """Re-write a long-lived session cookie once a week, not on every response.

    Flask's default re-sends the cookie with every response of a permanent session,
    including a slow favicon or a poll that set out before a form was shown. Such a
    response carries the cookie as it was when it set out, and so can put back a
    cookie without the CSRF token that the form was just given: the next post is
    refused as "expired". With ``SESSION_REFRESH_EACH_REQUEST`` off, only a response
    that changed the session writes it; this hook keeps a returning learner's cookie
    from running out a year after it was first written.
    """
    if request.endpoint == "static" or not session.permanent:
        return
    touched = session.get(TOUCHED)
    if not isinstance(touched, int) or _today() - touched >= REFRESH_DAYS:
        _last_long()


MAX_NEXT = 2000


def safe_next(default: str) -> str:
    """The ``next`` address if it is a path on this site, else ``default``.

    Only a plain path: one slash first (browsers take ``//host`` and ``/\\host`` to another
    site), no scheme or host, no backslash, and nothing a ``Location`` header cannot carry
    (control characters, spaces: a line break there failed the response after the sign-in
    was stored). Letters beyond ASCII are percent-encoded. It is read before anything is stored.
    """
    target = request.values.get("next", "")
    if (
        not target.startswith("/")
        or target.startswith("//")
        or len(target) > MAX_NEXT
        or "\\" in target
        or any(c.isspace() or not c.isprintable() for c in target)
    ):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return iri_to_uri(target)


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if account() is None:
            return redirect(url_for("accounts.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped


def instructor_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    @login_required
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        user = account()
        if user is None or not user.is_instructor:
            abort(403, description="This page is for instructor accounts.")
        return view(*args, **kwargs)

    return wrapped
