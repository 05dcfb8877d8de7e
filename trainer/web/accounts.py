"""Optional accounts: sign up (the anonymous history comes along), sign in (merged), sign out."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, request, url_for
from flask_babel import gettext as _

from trainer.store import db
from trainer.store.learners import AccountError, sign_in, sign_up
from trainer.store.models import Account, Learner

from . import identity, limits
from .csrf import CSRFError
from .errors import handle_http, said
from .inputs import ControlInField, cleaned_form
from .render import render

bp = Blueprint("accounts", __name__, url_prefix="/account")


@bp.get("/")
def show() -> Response:
    return render("account/show.html", user=identity.account())


def _signed_in(user: Account, learner: Learner) -> Response:
    target = identity.safe_next(url_for("progress.show"))  # before the commit: nothing after it may fail
    db().commit()
    identity.signed_in(user, learner.id)
    return redirect(target, code=303)


def _typed_signup(form=None) -> dict:
    form = request.form if form is None else form
    return {
        "email": form.get("email", "")[:300],
        "name": form.get("name", "")[:200],
        "instructor": form.get("instructor") == "yes",
    }


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> Response:
    form = {"email": "", "name": "", "instructor": False}
    errors: dict[str, str] = {}
    if request.method == "POST":
        form = _typed_signup()
        try:
            user, learner = sign_up(
                db(),
                email=form["email"],
                password=request.form.get("password", ""),
                name=form["name"],
                instructor=form["instructor"],
                learner_id=identity.learner_id(),
            )
        except AccountError as exc:
            db().rollback()
            errors[exc.field] = said(exc)
        else:
            return _signed_in(user, learner)
    return render("account/signup.html", form=form, errors=errors, next=identity.safe_next(""))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response:
    email = ""
    errors: dict[str, str] = {}
    if request.method == "POST":
        email = request.form.get("email", "")[:300]
        try:
            user, learner = sign_in(
                db(), email=email, password=request.form.get("password", ""), learner_id=identity.learner_id()
            )
        except AccountError as exc:
            db().rollback()
            limits.failed()
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
    identity.signed_out()
    return redirect(url_for("pages.home"), code=303)
