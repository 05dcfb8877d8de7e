"""Learners and accounts: the anonymous learner, signing up, signing in, merging histories."""

from __future__ import annotations

import secrets
import unicodedata
from functools import cache

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from trainer.store.models import (
    Account,
    AccountSession,
    Attempt,
    LiveStudent,
    ExamAttempt,
    Learner,
    Rating,
    RatingGame,
    ReviewCard,
    SpeedRun,
    StreakRun,
)
from trainer.store.user_errors import N_, UserError

MIN_PASSWORD = 8
MAX_NAME = 80  # characters of an account's name (accounts.name)
# How passwords are hashed: werkzeug's method string (its default, scrypt with n=2^15). A
# setting (TRAINER_PASSWORD_HASH) may name another; only the test suite uses a cheaper one.
PASSWORD_HASH = "scrypt"


@cache
def _dummy_hash(method: str) -> str:
    """Checked against when the email is unknown, so a wrong email takes as long as a wrong password."""
    return generate_password_hash("not a password of anyone", method=method)


class AccountError(UserError):
    """A sign-up or sign-in that cannot go ahead; ``field`` names the form field."""

    def __init__(self, field: str, message: str, **params: object) -> None:
        super().__init__(message, **params)
        self.field = field

    @property
    def each(self) -> list[AccountError]:
        """Every field refused (a form shows them all at once)."""
        return [self]


class AccountErrors(AccountError):
    """Several fields refused at once; reads as the first where one message is shown."""

    def __init__(self, errors: list[AccountError]) -> None:
        super().__init__(errors[0].field, errors[0].message, **errors[0].params)
        self._each = errors

    @property
    def each(self) -> list[AccountError]:
        return self._each


def name_too_long(name: str) -> AccountError:
    """Refused, not cut: a name cut short would go on results without the person knowing."""
    return AccountError("name", N_("A name can have up to %(n)s characters; this one has %(count)s."),
                        n=MAX_NAME, count=len(name))


def new_id() -> str:
    return secrets.token_hex(16)


def ensure_learner(s: Session, learner_id: str) -> Learner:
    """The learner with this id, made on first use (two first requests at once make one row)."""
    found = s.get(Learner, learner_id)
    if found is not None:
        return found
    try:
        with s.begin_nested():
            found = Learner(id=learner_id)
            s.add(found)
    except IntegrityError:
        found = s.get(Learner, learner_id)
        if found is None:
            raise
    return found


def clean_name(name: str) -> str:
    """A display name as stored (an account's, a class seat's): without format characters (Unicode
    Cf: the bidi overrides that make "\u202eecilA" read as "Alice", zero-width spaces), spaces
    collapsed. A certificate's name is read by an employer: it must be what it looks like."""
    return " ".join(_without_format(name).split())


def _without_format(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def normalize_email(email: str) -> str:
    """An email as accounts are told apart: "Ana@Example.com", "ａｎａ＠ｅｘａｍｐｌｅ．ｃｏｍ" (typed
    full-width) and "ana\u200b@example.com" (a zero-width space pasted in) are one address."""
    return _without_format(unicodedata.normalize("NFKC", email)).strip().lower()


def _stored_forms(email: str) -> list[str]:
    # Accounts made before emails were normalized this way were stored stripped and lower-cased only.
    return list(dict.fromkeys((normalize_email(email), email.strip().lower())))


def sign_up(
    s: Session, *, email: str, password: str, name: str, instructor: bool, learner_id: str | None,
    method: str = PASSWORD_HASH,
) -> tuple[Account, Learner]:
    """A new account with a learner of its own; the anonymous history of this browser (if any) is merged in.

    Every field wrong is refused at once (``AccountErrors``), so the form says them all in one go."""
    email = normalize_email(email)
    name = clean_name(name)
    errors = []
    if "@" not in email or len(email) > 254 or email.startswith("@") or email.endswith("@") or any(
        c.isspace() for c in email
    ):
        errors.append(AccountError("email", N_("Enter an email address, like %(example)s."), example="ana@example.com"))
    elif s.scalar(select(Account.id).where(Account.email == email)) is not None:
        errors.append(AccountError("email", N_("There is already an account with this email: sign in instead.")))
    if not name:
        errors.append(AccountError("name", N_("Enter your name (up to 80 characters).")))
    elif len(name) > MAX_NAME:
        errors.append(name_too_long(name))
    if len(password) < MIN_PASSWORD:
        errors.append(AccountError("password", N_("Use at least %(n)s characters."), n=MIN_PASSWORD))
    if errors:
        raise errors[0] if len(errors) == 1 else AccountErrors(errors)
    account = Account(email=email, password_hash=generate_password_hash(password, method=method), name=name,
                      is_instructor=instructor)
    try:
        with s.begin_nested():
            s.add(account)
            s.flush()
    except IntegrityError:
        raise AccountError("email", N_("There is already an account with this email: sign in instead.")) from None
    # A new identity, never the browser's anonymous one: a copy of the old cookie (a shared
    # computer, a planted cookie) must open nothing of the account. The history moves across.
    learner = Learner(id=new_id(), account_id=account.id)
    s.add(learner)
    s.flush()
    anonymous = s.get(Learner, learner_id) if learner_id else None
    if anonymous is not None and anonymous.account_id is None:
        merge(s, source=anonymous, target=learner, new_target=True)
    return account, learner


def sign_in(
    s: Session, *, email: str, password: str, learner_id: str | None, method: str = PASSWORD_HASH
) -> tuple[Account, Learner]:
    """The account, and its learner with this browser's anonymous history merged in."""
    forms = _stored_forms(email)
    found = {a.email: a for a in s.scalars(select(Account).where(Account.email.in_(forms)))}
    account = next((found[f] for f in forms if f in found), None)
    if account is None:
        check_password_hash(_dummy_hash(method), password)
        raise AccountError("email", N_("That email and password do not match an account."))
    if not check_password_hash(account.password_hash, password):
        raise AccountError("email", N_("That email and password do not match an account."))
    learner = s.scalar(select(Learner).where(Learner.account_id == account.id))
    made = learner is None
    if learner is None:
        learner = Learner(id=new_id(), account_id=account.id)
        s.add(learner)
        s.flush()
    if learner_id and learner_id != learner.id:
        anonymous = s.get(Learner, learner_id)
        if anonymous is not None and anonymous.account_id is None:
            merge(s, source=anonymous, target=learner, new_target=made)
    return account, learner


MAX_SESSIONS = 50  # signed-in sessions kept per account: signing in once more ends the oldest


def start_session(s: Session, account: Account) -> str:
    """A new session of the account; its id, for the session cookie.

    A row is deleted only by signing out, and a browser thrown away never signs out: past
    ``MAX_SESSIONS`` an account's oldest sessions end, so the table stays bounded."""
    session_id = secrets.token_hex(16)
    s.add(AccountSession(id=session_id, account_id=account.id))
    s.flush()
    newest = (
        select(AccountSession.id)
        .where(AccountSession.account_id == account.id)
        .order_by(AccountSession.created_at.desc(), AccountSession.id)
        .limit(MAX_SESSIONS)
    )
    s.execute(
        delete(AccountSession).where(AccountSession.account_id == account.id, AccountSession.id.not_in(newest.scalar_subquery()))
    )
    return session_id


def session_is_live(s: Session, account: Account, session_id: object) -> bool:
    return isinstance(session_id, str) and s.scalar(
        select(AccountSession.id).where(AccountSession.id == session_id, AccountSession.account_id == account.id)
    ) is not None


def end_session(s: Session, session_id: object) -> None:
    """This session only: the account's sessions on other devices carry on."""
    if isinstance(session_id, str):
        s.execute(delete(AccountSession).where(AccountSession.id == session_id))


def end_sessions(s: Session, account: Account) -> None:
    """Every session of the account is over (the one making the request signs in again after)."""
    s.execute(delete(AccountSession).where(AccountSession.account_id == account.id))


def change_password(s: Session, account: Account, *, current: str, new: str, method: str = PASSWORD_HASH) -> None:
    """A new password for the account; every session signed in with the old one is over."""
    if not check_password_hash(account.password_hash, current):
        raise AccountError("current_password", N_("That is not your current password."))
    if len(new) < MIN_PASSWORD:
        raise AccountError("new_password", N_("Use at least %(n)s characters."), n=MIN_PASSWORD)
    account.password_hash = generate_password_hash(new, method=method)
    s.flush()
    end_sessions(s, account)


def merge(s: Session, *, source: Learner, target: Learner, new_target: bool = False) -> None:
    """Move an anonymous learner's attempts, exams, speed runs and streaks, review cards, rating and live
    session seats to ``target``.

    A spot with a review card on both sides keeps the card reviewed last; a rating on both sides
    keeps the target's (the account's, played longer). Spaced repetition stays as the account had it
    (on is every new learner's default, so the browser's says little), unless the account's learner
    is made just now (``new_target``): then it comes from the browser.
    """
    s.execute(update(Attempt).where(Attempt.learner_id == source.id).values(learner_id=target.id))
    s.execute(update(ExamAttempt).where(ExamAttempt.learner_id == source.id).values(learner_id=target.id))
    s.execute(update(SpeedRun).where(SpeedRun.learner_id == source.id).values(learner_id=target.id))
    s.execute(update(StreakRun).where(StreakRun.learner_id == source.id).values(learner_id=target.id))
    theirs = {c.scenario_id: c for c in s.scalars(select(ReviewCard).where(ReviewCard.learner_id == target.id))}
    for card in s.scalars(select(ReviewCard).where(ReviewCard.learner_id == source.id)).all():
        kept = theirs.get(card.scenario_id)
        if kept is None:
            card.learner_id = target.id
        else:
            if (card.card.get("last_review") or "") > (kept.card.get("last_review") or ""):
                kept.card, kept.due = card.card, card.due
            s.delete(card)
    _merge_ratings(s, source=source.id, target=target.id)
    # a live session's seat follows its student, unless the account has a seat there already
    seated = select(LiveStudent.session_id).where(LiveStudent.learner_id == target.id)
    s.execute(
        update(LiveStudent)
        .where(LiveStudent.learner_id == source.id, LiveStudent.session_id.not_in(seated.scalar_subquery()))
        .values(learner_id=target.id)
    )
    if new_target:
        target.srs_enabled = source.srs_enabled
    s.flush()
    s.delete(source)
    s.flush()


def _merge_ratings(s: Session, *, source: str, target: str) -> None:
    theirs = s.get(Rating, f"learner:{target}")
    mine = s.get(Rating, f"learner:{source}")
    if mine is not None:
        if theirs is None:
            s.add(Rating(subject=f"learner:{target}", rating=mine.rating, rd=mine.rd, vol=mine.vol, games=mine.games))
        s.delete(mine)
    played = select(RatingGame.scenario_id).where(RatingGame.learner_id == target)
    s.execute(
        update(RatingGame)
        .where(RatingGame.learner_id == source, RatingGame.scenario_id.not_in(played.scalar_subquery()))
        .values(learner_id=target)
    )
    s.execute(delete(RatingGame).where(RatingGame.learner_id == source))
