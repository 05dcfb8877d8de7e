"""My spots: an instructor's own spots, written as scenario YAML, kept in versions, shared with classes.

Every page about a spot or an upload is its owner's alone: anyone else (another
instructor, a student, someone signed out) gets 404 at its address. A spot's
text goes through the scenario loader (``trainer.store.spots.save_spot``);
a refused text comes back in the form as typed, with the loader's message,
line and key.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from trainer.library import Entry
from trainer.quiz import Answer, Feedback, grade
from trainer.scenarios import MAX_FILE_BYTES
from trainer.store import classes as class_store
from trainer.store import db
from trainer.store import spots as store
from trainer.store.models import MySpot
from trainer.web.core import identity, uploads
from trainer.web.core.errors import handle_http, said
from trainer.web.core.inputs import CONTROL, ControlInField
from trainer.web.core.render import render
from trainer.web.core.spot_refs import resolve

bp = Blueprint("authoring", __name__, url_prefix="/my-spots")

TEMPLATE = """\
title:
  en: UTG raises; what may HJ do?
  zh-Hant: UTG 加注，HJ 可以做什麼？
  zh-Hans: UTG 加注，HJ 可以做什么？
topics: [min-raise]
level: 1
game:
  type: no-limit
  blinds: [50, 100]
stacks: {SB: 5000, BB: 5000, UTG: 5000, HJ: 5000, BTN: 5000}
actions:
  - UTG raise 300
ask: [card, options]
explain:
  en: The raise adds 200, so the next raise is to at least 500.
  zh-Hant: 這次加注增加了 200，所以下一次加注至少要加到 500。
  zh-Hans: 这次加注增加了 200，所以下一次加注至少要加到 500。
"""
MAX_YAML_FILES = 20
SHOWN_MAX = f"{MAX_FILE_BYTES:,}"


# ------------------------------------------------------------------ helpers


def _me() -> int:
    return identity.account().id


def mine(spot_id: str) -> MySpot:
    """The signed-in instructor's spot, or 404 for anyone else."""
    user = identity.account()
    found = store.of_owner(db(), spot_id, user.id) if user is not None and user.is_instructor else None
    if found is None:
        abort(404, description=_("There is no spot of yours at this address."))
    return found


def owner_only(view):
    """A page about one spot or upload: signed in, then 404 unless it is the asker's (inside the view)."""
    return identity.login_required(view)


def engine_answers(entry: Entry) -> Feedback:
    """The card as the engine fills it in: every field's right value, with the derivation and the note."""
    quiz = entry.quiz
    return grade(quiz, Answer(raw={}, values={f.name: f.expected for f in quiz.fields()}, errors={}))


def preview_values(entry: Entry) -> dict[str, Any]:
    return {"entry": entry, "spot": entry.spot, "quiz": entry.quiz, "answers": engine_answers(entry)}


def _list_page(**extra: Any) -> Response:
    user_id = _me()
    return render(
        "authoring/index.html",
        spots=store.spots_of(db(), user_id),
        archived=store.spots_of(db(), user_id, archived=True),
        **{"notice": None, "title": "", "style": "", **extra},
    )


def edit_page(*, spot: MySpot | None, text: str, problems: list[store.Located] | None = None,
               notice: str | None = None, status: int = 200) -> Response:
    return render(
        "authoring/edit.html",
        status=status,
        spot=spot,
        text=text,
        problems=problems or [],
        notice=notice,
        max_bytes=MAX_FILE_BYTES,
    )


def _download_name(spot: MySpot, version: int) -> str:
    base = re.sub(r"[^a-z0-9-]+", "-", spot.scenario_id.lower()).strip("-")[:60] or "spot"
    return f"{base}-v{version}.yaml"


# ------------------------------------------------------------------ errors


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A NUL byte (or another control character) in a form: the form again with the text kept
    without it, and the message; nothing saved."""
    try:
        if request.endpoint == "authoring.new":
            return edit_page(spot=None, text=_kept_text(), notice=exc.message())
        if request.endpoint == "authoring.edit":
            return edit_page(spot=mine(request.view_args["spot_id"]), text=_kept_text(), notice=exc.message())
    except HTTPException as other:
        return handle_http(other)
    return handle_http(exc)


def _kept_text() -> str:
    """The text as typed, without the control characters the app refuses (line breaks kept)."""
    return CONTROL.sub("", request.form.get("yaml", ""))


# ------------------------------------------------------------------ the list, new, edit


@bp.get("/")
@identity.instructor_required
def index() -> Response:
    if request.args.get("none_ticked") == "1":  # sent back by the live session form with no spot ticked
        return _list_page(notice=_("Tick at least one spot to ask in the live session."),
                          title=request.args.get("title", "")[:120], style=request.args.get("style", ""))
    return _list_page()


@bp.route("/new", methods=["GET", "POST"])
@uploads.takes("UPLOAD_MAX_BYTES")
@identity.instructor_required
def new() -> Response:
    if request.method == "GET":
        return edit_page(spot=None, text=TEMPLATE)
    text = request.form.get("yaml", "")
    return _save(None, text)


def _save(spot: MySpot | None, text: str) -> Response:
    """The text as a new spot, or as the next version of ``spot``: the spot's page, or the form again
    with what stops it (each problem with its line and key) and the text as it was typed."""
    try:
        made = store.save_spot(db(), _me(), text, spot.id if spot is not None else None)
    except store.SpotsError as exc:
        db().rollback()
        return edit_page(spot=spot, text=text, notice=said(exc))
    if isinstance(made, list):
        db().rollback()
        return edit_page(spot=spot, text=text, problems=made)
    db().commit()
    return redirect(url_for("authoring.show", spot_id=made.id, saved=1), code=303)


@bp.get("/<spot_id>")
@owner_only
def show(spot_id: str) -> Response:
    spot = mine(spot_id)
    version = _version(spot)
    entry = resolve(store.ref(spot.id, version))
    if entry is None:
        abort(404, description=_("This version of the spot cannot be shown."))
    user_classes = class_store.classes_of(db(), _me())
    return render(
        "authoring/spot.html",
        my_spot=spot,
        version=version,
        versions=store.versions_of(db(), spot),
        ref=store.ref(spot.id, version),
        classes=user_classes,
        shared=set(store.shared_classes(db(), spot)),
        saved=request.args.get("saved") == "1",
        sharing_saved=request.args.get("shared") == "1",
        **preview_values(entry),
    )


def _version(spot: MySpot) -> int:
    raw = request.args.get("version", "")
    if not raw:
        return spot.version
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw[:9]) <= spot.version:
        abort(404, description=_("This spot has no such version."))
    return int(raw)


@bp.route("/<spot_id>/edit", methods=["GET", "POST"])
@uploads.takes("UPLOAD_MAX_BYTES")
@owner_only
def edit(spot_id: str) -> Response:
    spot = mine(spot_id)
    if request.method == "GET":
        return edit_page(spot=spot, text=store.text_of(db(), spot.id, spot.version) or "")
    return _save(spot, request.form.get("yaml", ""))


@bp.get("/<spot_id>/download")
@owner_only
def download(spot_id: str) -> Response:
    spot = mine(spot_id)
    version = _version(spot)
    text = store.text_of(db(), spot.id, version) or ""
    response = Response(text, mimetype="application/yaml")
    response.headers["Content-Disposition"] = f'attachment; filename="{_download_name(spot, version)}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.post("/<spot_id>/share")
@owner_only
def share(spot_id: str) -> Response:
    spot = mine(spot_id)
    store.share(db(), spot, request.form.getlist("classes"))
    db().commit()
    return redirect(url_for("authoring.show", spot_id=spot.id, shared=1, _anchor="share-h"), code=303)


@bp.post("/<spot_id>/archive")
@owner_only
def archive(spot_id: str) -> Response:
    spot = mine(spot_id)
    store.archive(db(), spot, archived=request.form.get("restore") != "1")
    db().commit()
    return redirect(url_for("authoring.index"), code=303)


# ------------------------------------------------------------------ YAML files in


@bp.route("/import", methods=["GET", "POST"])
@uploads.takes("UPLOAD_MAX_BYTES")
@identity.instructor_required
def import_yaml() -> Response:
    """Scenario files uploaded: each is saved as a spot, or refused with its name, line and message."""
    if request.method == "GET":
        return render("authoring/import.html", notice=None, results=[])
    files = [f for f in request.files.getlist("files") if f.filename]
    if not files:
        return render("authoring/import.html", notice=_("Choose one or more .yaml files."), results=[])
    if len(files) > MAX_YAML_FILES:
        return render("authoring/import.html", results=[],
                      notice=_("At most %(n)s files at once.", n=MAX_YAML_FILES))
    results = []
    for upload in files:
        name = upload.filename[-120:]
        data = upload.stream.read(MAX_FILE_BYTES + 1)
        text, problem = _decoded(data)
        if problem is not None:
            results.append({"name": name, "spot": None, "problems": [problem]})
            continue
        try:
            made = store.save_spot(db(), _me(), text)
        except store.SpotsError as exc:
            results.append({"name": name, "spot": None, "problems": [store.Located(line=None, key=None, message=said(exc))]})
            continue
        if isinstance(made, list):
            results.append({"name": name, "spot": None, "problems": made})
        else:
            db().commit()
            results.append({"name": name, "spot": made, "problems": []})
    db().commit()
    return render("authoring/import.html", notice=None, results=results)


def _decoded(data: bytes) -> tuple[str, store.Located | None]:
    if len(data) > MAX_FILE_BYTES:
        return "", store.Located(line=None, key=None, message=_("The file is larger than %(n)s bytes: a scenario is one spot.",
                                                                n=SHOWN_MAX))
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return "", store.Located(line=None, key=None, message=_("The file is not UTF-8 text."))


# ------------------------------------------------------------------ learners: spots shared with their classes


@bp.get("/from-your-instructor")
@identity.login_required
def shared() -> Response:
    found = store.shared_with(db(), _me())
    return render("authoring/shared.html", spots=[
        {"spot": spot, "class_title": title, "ref": store.ref(spot.id, spot.version)} for spot, title in found
    ])


