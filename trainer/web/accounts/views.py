"""Optional accounts: sign up (the anonymous history comes along), sign in (merged), sign out,
change the password. Signing out ends this browser's session; "every other device" and a new
password end the account's other sessions."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from flask_babel import gettext as _

from trainer.store import db
from trainer.store.learners import (
    AccountError,
    change_password,
    end_sessions,
    sign_in,
    sign_up,
)
from trainer.store.models import Account, Learner
from trainer.web.core import identity, limits
from trainer.web.core.csrf import CSRFError
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.render import render

bp = Blueprint("accounts", __name__, url_prefix="/account")


DONE = {"password", "others"}  # ?done= after changing the password or ending the other sessions


@bp.get("/")
def show() -> Response:
    done = request.args.get("done", "")
    return _account_page(done=done if done in DONE else None)


def _account_page(*, errors: dict[str, str] | None = None, done: str | None = None, status: int = 200) -> Response:
    return render("account/show.html", status=status, user=identity.account(), errors=errors or {}, done=done)


def _signed_in(user: Account, learner: Learner) -> Response:
    # An instructor's home is the classroom; a learner's, their progress.
    home = url_for("live.index") if user.is_instructor else url_for("progress.show")
    target = identity.safe_next(home)  # before the commit: nothing after it may fail
    identity.signed_in(user, learner.id)  # commits the account with its session
    return redirect(target, code=303)


def _typed_signup(form=None) -> dict:
    form = request.form if form is None else form
    return {
        "email": form.get("email", "")[:300],
        "name": form.get("name", "")[:300],
        "instructor": form.get("instructor") == "yes",
    }


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> Response:
    form = {"email": "", "name": "", "instructor": False}
    errors: dict[str, str] = {}
    if request.method == "POST":
        form = _typed_signup()
        if (wait := limits.current().signup_address.over(limits.address())) is not None:
            response = render("account/signup.html", status=429, form=form, errors={"email": limits.too_many_signups()},
                              next=identity.safe_next(""))
            response.headers["Retry-After"] = str(wait)
            return response
        try:
            user, learner = sign_up(
                db(),
                email=form["email"],
                password=request.form.get("password", ""),
                name=form["name"],
                instructor=form["instructor"],
                learner_id=identity.learner_id(),
                method=current_app.config["PASSWORD_HASH"],
            )
        except AccountError as exc:
            db().rollback()
            errors.update((each.field, said(each)) for each in exc.each)
        else:
            return _signed_in(user, learner)
    return render("account/signup.html", form=form, errors=errors, next=identity.safe_next(""))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response:
    email = ""
    errors: dict[str, str] = {}
    if request.method == "POST":
        email = request.form.get("email", "")[:300]
        throttle = limits.current()
        here, them = limits.address(), limits.account_key(email)
        # Over either limit the password is not even checked, so guessing learns nothing.
        for counter, key, message in (
            (throttle.login_address, here, limits.too_many_from_address),
            (throttle.login_account, them, limits.too_many_for_account),
        ):
            if (wait := counter.over(key)) is not None:
                response = render(
                    "account/login.html", status=429, email=email, errors={"email": message()},
                    next=identity.safe_next(""),
                )
                response.headers["Retry-After"] = str(wait)
                return response
        try:
            user, learner = sign_in(
                db(), email=email, password=request.form.get("password", ""), learner_id=identity.learner_id(),
                method=current_app.config["PASSWORD_HASH"],
            )
        except AccountError as exc:
            db().rollback()
            throttle.login_address.failed()
            throttle.login_account.failed()
            errors[exc.field] = said(exc)
        else:
            return _signed_in(user, learner)
    return render("account/login.html", email=email, errors=errors, next=identity.safe_next(""))


@bp.errorhandler(CSRFError)
def expired(exc: CSRFError) -> Response:
    """An expired sign-up or sign-in form comes back with what was typed but the password."""
    again = {"password": _("This form had expired: enter your password again and send it.")}
    nxt = identity.safe_next("")
    if request.endpoint == "accounts.signup":
        return render("account/signup.html", status=400, form=_typed_signup(), errors=again, next=nxt)
    if request.endpoint == "accounts.login":
        return render("account/login.html", status=400, email=request.form.get("email", "")[:300], errors=again, next=nxt)
    return handle_http(exc)


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the form again, filled in without it, nothing stored."""
    form = cleaned_form()
    nxt = identity.safe_next("")
    if request.endpoint == "accounts.signup":
        where = exc.field if exc.field in ("email", "name", "password") else "form"
        errors = {where: exc.message()}
        return render("account/signup.html", form=_typed_signup(form), errors=errors, next=nxt)
    if request.endpoint == "accounts.login":
        errors = {exc.field if exc.field in ("email", "password") else "form": exc.message()}
        return render("account/login.html", email=form.get("email", "")[:300], errors=errors, next=nxt)
    return handle_http(exc)


@bp.post("/logout")
def logout() -> Response:
    """Sign out this browser (copies of its cookie too); the account's other devices stay signed in."""
    identity.signed_out()
    return redirect(url_for("home.home"), code=303)


def _me() -> Account:
    user = identity.account()
    if user is None:
        abort(redirect(url_for("accounts.login", next=url_for("accounts.show"))))
    return user


@bp.post("/password")
def password() -> Response:
    """A new password; every other session is signed out, this one carries on."""
    user = _me()
    throttle = limits.current().login_account
    if (wait := throttle.over(limits.account_key(user.email))) is not None:
        response = _account_page(errors={"current_password": limits.too_many_for_account()}, status=429)
        response.headers["Retry-After"] = str(wait)
        return response
    try:
        change_password(
            db(), user, current=request.form.get("current_password", ""), new=request.form.get("new_password", ""),
            method=current_app.config["PASSWORD_HASH"],
        )
    except AccountError as exc:
        db().rollback()
        if exc.field == "current_password":
            throttle.failed()  # else a stolen session could try passwords here without limit
        return _account_page(errors={exc.field: said(exc)})
    return _carry_on(user, "password")


@bp.post("/sessions/end")
def end_others() -> Response:
    """Sign out on every other device: every session of the account ends and this one is signed in again."""
    user = _me()
    end_sessions(db(), user)
    return _carry_on(user, "others")


def _carry_on(user: Account, done: str) -> Response:
    learner = identity.learner_id()
    identity.signed_in(user, learner)  # commits the change with this browser's new session
    return redirect(url_for("accounts.show", done=done), code=303)
