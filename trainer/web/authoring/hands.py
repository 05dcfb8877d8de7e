"""Hand histories in: an instructor uploads PHH or client text files, the importer makes spots, the page
shows its report and the instructor keeps the spots they want in My spots.

The files are read by ``trainer.importer.import_files`` within ``Limits`` taken from the settings
(``UPLOAD_MAX_FILES``, ``UPLOAD_MAX_FILE_BYTES``, ``UPLOAD_MAX_BYTES``, ``UPLOAD_MAX_SPOTS``); nothing
in them is evaluated. The report and the spots made wait in ``spot_uploads``, their owner's alone.
"""

from __future__ import annotations

from typing import Any

import yaml
from flask import Response, abort, current_app, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from trainer.importer import Limits, Mode, Refused, import_files
from trainer.store import db
from trainer.store import spots as store
from trainer.store.models import SpotUpload
from trainer.store.user_errors import N_
from trainer.translations import DEFAULT, pick
from trainer.web.core import identity, uploads
from trainer.web.core.errors import handle_http, said
from trainer.web.core.render import render

from .views import bp, edit_page, mine, owner_only

SUFFIXES = (".phh", ".phhs", ".txt", ".log")
# The importer's reasons, for the page to say in its language.
REASONS = {
    Refused.OTHER_GAME: N_("another game"),
    Refused.RULES: N_("breaks the rules"),
    Refused.TRUNCATED: N_("truncated"),
    Refused.UNSUPPORTED: N_("not supported"),
    Refused.UNREADABLE: N_("unreadable"),
    Refused.TOO_LARGE: N_("over the limits"),
    Refused.REPEAT: N_("a repeat"),
}


def limits() -> Limits:
    config = current_app.config
    return Limits(files=config["UPLOAD_MAX_FILES"], file_bytes=config["UPLOAD_MAX_FILE_BYTES"],
                  total_bytes=config["UPLOAD_MAX_BYTES"], spots=config["UPLOAD_MAX_SPOTS"])


def form_page(*, notice: str | None = None, status: int = 200, mode: str = Mode.TEACHING.value) -> Response:
    return render("authoring/hands.html", status=status, notice=notice, mode=mode, limits=limits(),
                  suffixes=", ".join(SUFFIXES))


def reason(kind: str) -> str:
    return _(REASONS.get(kind, kind)) if kind in REASONS else kind


@bp.route("/hands", methods=["GET", "POST"])
@uploads.takes("UPLOAD_MAX_BYTES")
@identity.instructor_required
def hands() -> Response:
    if request.method == "GET":
        return form_page()
    mode = request.form.get("mode", Mode.TEACHING.value)
    if mode not in {m.value for m in Mode}:
        mode = Mode.TEACHING.value
    files = [f for f in request.files.getlist("files") if f.filename]
    if not files:
        return form_page(notice=_("Choose one or more hand-history files."), mode=mode)
    bounds = limits()
    if len(files) > bounds.files:
        return form_page(notice=_("At most %(n)s files at once.", n=bounds.files), mode=mode)
    named = []
    for upload in files:
        # Read one byte past the limit: a larger file is refused by the importer without being read further.
        named.append((upload.filename[-200:], upload.stream.read(bounds.file_bytes + 1)))
    made, report = import_files(named, Mode(mode), bounds)
    spots = []
    for spot in made:
        document = spot.document
        spots.append({
            "id": spot.id,
            "title": pick(document.get("title"), DEFAULT) or spot.id,
            "topics": list(document.get("topics") or ()),
            "yaml": yaml.safe_dump(document, allow_unicode=True, sort_keys=False),
        })
    upload = store.add_upload(db(), identity.account().id, mode=mode, report=_report(report), spots=spots)
    db().commit()
    return redirect(url_for("authoring.upload", upload_id=upload.id), code=303)


def _report(report) -> dict[str, Any]:
    return {
        "files": [
            {"file": f.file, "hands": f.hands, "imported": f.imported, "spots": f.spots,
             "refused": {str(kind): n for kind, n in sorted(f.refused.items())},
             "unread": None if f.unread is None else str(f.unread)}
            for f in report.files
        ],
        "refusals": [
            {"file": r.file, "hand": r.hand, "line": r.line, "kind": str(r.kind), "message": r.message}
            for r in report.refusals
        ],
    }


def _mine(upload_id: str) -> SpotUpload:
    user = identity.account()
    found = store.upload_of(db(), upload_id, user.id) if user is not None and user.is_instructor else None
    if found is None:
        abort(404, description=_("There is no upload of yours at this address."))
    return found


def _upload_page(upload: SpotUpload, **extra: Any) -> Response:
    kept = set(upload.kept or [])
    return render("authoring/upload.html", upload=upload, report=upload.report, kept=kept, reason=reason,
                  **{"saved": None, "refused": [], "notice": None, **extra})


@bp.get("/hands/<upload_id>")
@owner_only
def upload(upload_id: str) -> Response:
    return _upload_page(_mine(upload_id))


@bp.post("/hands/<upload_id>/keep")
@uploads.takes("UPLOAD_MAX_BYTES")
@owner_only
def keep(upload_id: str) -> Response:
    found = _mine(upload_id)
    if request.form.get("all") == "1":
        indexes = list(range(len(found.spots)))
    else:
        indexes = [int(i) for i in request.form.getlist("spot") if i.isascii() and i.isdigit() and len(i) < 7]
    if not indexes:
        return _upload_page(found, notice=_("Tick the spots to keep, or keep them all."))
    try:
        saved, refused = store.keep(db(), found, indexes)
    except store.SpotsError as exc:
        db().rollback()
        return _upload_page(found, notice=said(exc))
    db().commit()
    return _upload_page(found, saved=len(saved), refused=refused, notice=None)


@bp.errorhandler(413)
def too_large(exc: HTTPException) -> Response:
    """A body over the limit was not read: the page it was sent from again, the limit named."""
    user = identity.account()
    if user is None or not user.is_instructor:
        return handle_http(exc)
    notice = uploads.too_large_notice()
    try:
        if request.endpoint == "authoring.new":
            return edit_page(spot=None, text="", notice=notice, status=413)
        if request.endpoint == "authoring.edit":
            return edit_page(spot=mine(request.view_args["spot_id"]), text="", notice=notice, status=413)
        if request.endpoint == "authoring.import_yaml":
            return render("authoring/import.html", status=413, notice=notice, results=[])
        if request.endpoint == "authoring.hands":
            return form_page(notice=notice, status=413)
    except HTTPException as other:
        return handle_http(other)
    return handle_http(exc)
