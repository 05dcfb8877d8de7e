"""The scenario editor's pages: one address, every step a form that posts the draft back.

The draft travels in the form as the scenario's YAML text (a hidden field, and the YAML box the
instructor can edit), so the editor keeps nothing on the server and works without JavaScript;
with htmx each step swaps the editor in place. Every step goes through
``trainer.scenarios.builder``: the engine offers and checks the actions, the loader checks the rest,
and the preview is built from the draft loaded as a file is.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from flask import Blueprint, Response, abort, g, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from trainer.engine.types import POSITIONS
from trainer.library import entry_of
from trainer.quiz import InputError, QuizError, message_templates, parse_amount
from trainer.scenarios import LOCALES, MAX_FILE_BYTES, QUESTION_KINDS, VERBS, ScenarioError
from trainer.scenarios import builder
from trainer.scenarios.load import load_document
from trainer.library.spot import build_spot
from trainer.store import db
from trainer.store import spots as my_spots
from trainer.web.core import identity, uploads
from trainer.web.core.errors import handle_http, said
from trainer.web.core.i18n import current
from trainer.web.core.inputs import ControlInField, cleaned_form
from trainer.web.core.render import render

bp = Blueprint("editor", __name__, url_prefix="/editor")

BLANK = builder.setup(game_type="no-limit", blinds=(50, 100),
                      stacks={p: 10000 for p in builder.TABLES[6]})  # a 6-max table; copied, never changed


def _blank() -> dict:
    return copy.deepcopy(BLANK)
CARD_SPLIT = re.compile(r"[\s,，、]+")


@bp.errorhandler(ControlInField)
def unreadable(exc: ControlInField) -> Response:
    """A control character in a field: the editor again with what was sent, the field named."""
    user = identity.account()
    if user is None or not user.is_instructor:
        return handle_http(exc)
    form = cleaned_form()
    doc, problem = _draft(form.get("yaml", ""))
    section = "details" if form.get("step") == "details" else "table" if form.get("step") == "setup" else None
    return _page(doc, form=form, errors={exc.field: ControlInField.message()}, problem=problem, open_section=section)


SPOT_ID = re.compile(r"[0-9a-f]{32}")


@bp.errorhandler(413)
def too_large(exc: HTTPException) -> Response:
    """A body over the limit was not read: a blank editor, the limit named (the draft was in the body)."""
    user = identity.account()
    if user is None or not user.is_instructor:
        return handle_http(exc)
    return _page(_blank(), problem=uploads.too_large_notice())


@bp.get("/")
@identity.instructor_required
def show() -> Response:
    """A blank table, or with ``?spot=ID`` the latest version of one of the instructor's spots."""
    spot_id = request.args.get("spot")
    if spot_id is None:
        return _page(_blank())
    spot = _own_spot(spot_id)
    text = my_spots.text_of(db(), spot.id, spot.version) or ""
    try:
        doc = builder.from_yaml(text, my_spots.FILE)
    except ScenarioError as exc:  # saved before a loader change: shown as it is, with why it no longer loads
        return _page(_blank(), typed=text, refusal=str(exc), refused="yaml", spot_id=spot.id)
    return _page(doc, spot_id=spot.id)


def _own_spot(spot_id: str | None) -> Any:
    """The signed-in instructor's spot ``spot_id``; anyone else's, or none, is 404."""
    spot = None
    if spot_id and SPOT_ID.fullmatch(spot_id):
        spot = my_spots.of_owner(db(), spot_id, identity.account().id)
    if spot is None:
        abort(404)
    return spot


@bp.post("/")
@uploads.takes("UPLOAD_MAX_BYTES")  # a scenario (up to the loader's 1 MiB) in the YAML box, the draft, a file
@identity.instructor_required
def step() -> Response:
    form = request.form
    spot_id = form.get("spot_id") or None
    if spot_id is not None:
        _own_spot(spot_id)
    doc, problem = _draft(form.get("yaml", ""))
    if problem is not None:
        return _page(_blank(), form=form, problem=problem, typed=form.get("yaml", ""))
    g.editor_spot = spot_id
    name = form.get("step", "")
    if name == "setup":
        return _setup(doc, form)
    if name == "action":
        return _action(doc, form)
    if name == "undo":
        return _page(builder.undo(doc))
    if name == "details":
        return _details(doc, form)
    if name == "open":
        return _open(doc, form)
    if name == "download":
        return _download(doc)
    if name == "save":
        return _save(doc, spot_id)
    return _page(doc, problem=_("This form asked for a step the editor does not have. Nothing was changed."))


# ------------------------------------------------------------------ steps


def _setup(doc: dict, form: MultiDict) -> Response:
    errors: dict[str, str] = {}
    locale = current()

    def amount(name: str, *, required: bool = False) -> int | None:
        try:
            value = parse_amount(form.get(name, ""), locale=locale)
        except InputError as exc:
            errors[name] = str(exc)
            return None
        if value is None and required:
            errors[name] = _("Enter an amount.")
        return value

    game_type = form.get("game", "")
    if game_type not in builder.GAME_TYPES:
        errors["game"] = _("Pick no limit, pot limit or fixed limit.")
    sb, bb = amount("sb", required=True), amount("bb", required=True)
    ante, bb_ante, pot = amount("ante") or 0, amount("bb_ante") or 0, amount("pot") or 0
    small, big = amount("bet_small"), amount("bet_big")
    straddles = []
    for i, piece in enumerate(p for p in CARD_SPLIT.split(form.get("straddles", "").strip()) if p):
        try:
            straddles.append(parse_amount(piece, locale=locale))
        except InputError as exc:
            errors["straddles"] = str(exc)
        if i >= 7:
            errors["straddles"] = _("At most eight straddles.")
            break
    start = form.get("start", "preflop")
    if start not in builder.STREETS:
        errors["start"] = _("Pick the street the spot starts on.")
    stacks = {p: amount(f"stack-{p}") for p in POSITIONS}
    stacks = {p: v for p, v in stacks.items() if v}
    if len(stacks) < 2 and not any(k.startswith("stack-") for k in errors):
        errors["stack-BB"] = _("Seat at least two players: give each a stack.")
    rules: dict[str, Any] = {}
    if form.get("reopen") == "exceed":
        rules["reopen"] = "exceed"
    if form.get("bba") == "ante-first":
        rules["bba"] = "ante-first"
    cap = amount("limit_cap")
    if cap is not None:
        rules["limit_cap"] = cap
    if form.get("limit_cap_heads_up") == "no":
        rules["limit_cap_heads_up"] = False
    if errors:
        return _page(doc, form=form, errors=errors, open_section="table")
    try:
        new = builder.setup(game_type=game_type, blinds=(sb, bb), stacks=stacks, ante=ante, bb_ante=bb_ante,
                            straddles=tuple(straddles), bets=(small, big) if small and big else None,
                            start=start, pot=pot, rules=rules, keep=doc)
    except builder.Refused as exc:
        return _page(doc, form=form, refusal=str(exc), refused="table")
    return _page(new)


def _action(doc: dict, form: MultiDict) -> Response:
    verb = form.get("verb", "")
    errors: dict[str, str] = {}
    amount = None
    if verb in ("bet", "raise"):
        try:
            amount = parse_amount(form.get("amount", ""), locale=current())
        except InputError as exc:
            errors["amount"] = str(exc)
        else:
            if amount is None:
                errors["amount"] = _("Enter the total the player bets or raises to.")
    elif verb not in VERBS:
        errors["verb"] = _("Pick an action.")
    if errors:
        return _page(doc, form=form, errors=errors)
    if builder.turn(doc).betting_over:
        return _page(doc, form=form, refusal=_("Betting is over: nobody is left to act."), refused="action")
    try:
        new = builder.add_action(doc, position=form.get("position", ""), verb=verb, amount=amount)
    except builder.Refused as exc:
        # The engine's sentence, rule ID and what was legal, in the page's language.
        return _page(doc, form=form, refusal=_rule_links(exc.sentence(message_templates(current()))), refused="action")
    return _page(new)


RULE_ID = re.compile(r"\bR-[A-Z]+\b")


def _rule_links(sentence: str) -> Markup:
    """The engine's sentence with each rule ID a link to the rules page, kept on one line (a phone broke
    "(R-" from "MINRAISE)")."""
    rules = url_for("home.rules")
    return Markup(RULE_ID.sub(lambda m: f'<a class="rule-link" href="{rules}#{m.group(0)}">{m.group(0)}</a>',
                              str(escape(sentence))))


def _cards(text: str) -> list[str]:
    return [c for c in CARD_SPLIT.split(text.strip()) if c]


def _details(doc: dict, form: MultiDict) -> Response:
    """Cards, questions and texts, as typed: the loader then says what is wrong, where."""
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    values["board"] = _cards(form.get("board", ""))
    values["hands"] = {p: _cards(form.get(f"hand-{p}", "")) for p in POSITIONS if form.get(f"hand-{p}", "").strip()}
    values["ask"] = [k for k in QUESTION_KINDS if k in form.getlist("ask")]
    ruling: dict[str, Any] = {}
    if form.get("said", "").strip():
        ruling["said"] = form.get("said", "").strip()
    for key in ("chips", "later"):
        chips = []
        for piece in _cards(form.get(key, "")):
            try:
                chips.append(parse_amount(piece, locale=current()))
            except InputError as exc:
                errors[key] = str(exc)
        if chips:
            ruling[key] = chips
    if form.get("by", "").strip():
        ruling["by"] = form.get("by", "").strip()
    then = [line.strip() for line in re.split(r"[;\n]", form.get("then", "")) if line.strip()]
    if then:
        ruling["then"] = then
    values["ruling"] = ruling if "ruling" in values["ask"] else None
    winners = [_cards(pot) for pot in form.get("winners", "").split(";") if pot.strip()]
    values["winners"] = winners if "split" in values["ask"] and "winners" not in values["ask"] else None
    try:
        values["chip"] = parse_amount(form.get("chip", ""), locale=current()) if "split" in values["ask"] else None
    except InputError as exc:
        errors["chip"] = str(exc)
    values["id"] = form.get("id", "").strip() or None
    values["title"] = {loc: form.get(f"title-{loc}", "").strip() for loc in LOCALES if form.get(f"title-{loc}", "").strip()}
    values["explain"] = {loc: form.get(f"explain-{loc}", "").strip() for loc in LOCALES
                         if form.get(f"explain-{loc}", "").strip()}
    values["topics"] = _cards(form.get("topics", "").lower())
    level = form.get("level", "")
    values["level"] = int(level) if level in ("1", "2", "3", "4", "5") else None
    if errors:
        return _page(doc, form=form, errors=errors, open_section="details")
    return _page(builder.with_values(doc, **values), open_section="details")


def _open(doc: dict, form: MultiDict) -> Response:
    upload = request.files.get("file")
    name = builder.DRAFT
    if upload is not None and upload.filename:
        data = upload.stream.read(MAX_FILE_BYTES + 1)
        name = _safe_name(upload.filename)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return _page(doc, typed="", refusal=_("%(file)s is not UTF-8 text: save it as UTF-8 and open it again.",
                                                  file=name), refused="yaml")
    else:
        text = form.get("yaml_text", "")
    try:
        opened = builder.from_yaml(text, name)
    except ScenarioError as exc:
        return _page(doc, typed=text[:MAX_FILE_BYTES], refusal=str(exc), refused="yaml")
    return _page(opened, notice=_("Opened %(file)s: it loads as a scenario file. Go on editing it below.", file=name))


def _safe_name(filename: str) -> str:
    """The uploaded file's own name, for messages: its last path part, letters of any script kept
    (werkzeug's ``secure_filename`` turns 李娜.yaml into "yaml")."""
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return re.sub(r"[^\w.+-]", "_", base)[:80] or builder.DRAFT


def _download(doc: dict) -> Response:
    try:
        sc = builder.check(doc)
    except ScenarioError as exc:
        return _page(doc, refusal=str(exc), refused="yaml")
    response = Response(builder.to_yaml(doc), mimetype="application/yaml")
    response.headers["Content-Disposition"] = f'attachment; filename="{sc.id}.yaml"'
    return response


def _save(doc: dict, spot_id: str | None) -> Response:
    """Into My spots, through the store's one saving path (the scenario loader): a new spot, or the
    next version of the spot being edited."""
    text = builder.to_yaml(doc)
    try:
        made = my_spots.save_spot(db(), identity.account().id, text, spot_id)
    except my_spots.SpotsError as exc:
        db().rollback()
        return _page(doc, refusal=said(exc), refused="yaml")
    if isinstance(made, list):
        db().rollback()
        return _page(doc, refusal="; ".join(str(p) for p in made), refused="yaml")
    db().commit()
    g.editor_spot = made.id
    return _page(doc, notice=_("Saved in My spots: “%(title)s”, version %(version)s.", title=made.title,
                               version=made.version), saved=made)


# ------------------------------------------------------------------ the page


def _draft(text: str) -> tuple[dict, str | None]:
    """The draft the form carried, or the blank one and why not (a form of another page, a tampered field)."""
    if not text.strip():
        return _blank(), None
    try:
        doc = builder.from_draft(text)
        builder.turn(doc)
    except (ScenarioError, builder.Refused) as exc:
        return _blank(), _("The draft sent back could not be read (%(why)s); the editor starts again from a blank table.",
                        why=str(exc))
    return doc, None


def _page(doc: dict, *, form: MultiDict | None = None, errors: dict[str, str] | None = None,
          refusal: str | None = None, refused: str | None = None, problem: str | None = None,
          notice: str | None = None, typed: str | None = None, open_section: str | None = None,
          spot_id: str | None = None, saved: Any = None) -> Response:
    locale = current()
    t = builder.turn(doc)
    yaml_text = builder.to_yaml(doc)
    return render(
        "authoring/editor.html",
        "authoring/partials/_editor.html",
        yaml_text=yaml_text,
        typed=yaml_text if typed is None else typed,
        turn=t,
        table=_table_values(doc),
        details=_detail_values(doc),
        seated=[p for p in POSITIONS if p in doc.get("stacks", {})],
        live=_spot_so_far(doc, locale),
        by_street=_by_street(t),
        preview=_preview(doc, locale),
        form=form,
        errors=errors or {},
        refusal=refusal,
        refused=refused,
        problem=problem,
        notice=notice,
        open_section=open_section,
        spot_id=spot_id or g.get("editor_spot"),
        saved=saved,
        positions=POSITIONS,
        question_kinds=QUESTION_KINDS,
        locales=LOCALES,
        streets=builder.STREETS,
        game_types=builder.GAME_TYPES,
    )


def _by_street(t: builder.Turn) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for street, text in t.actions:
        if not out or out[-1][0] != street:
            out.append((street, []))
        out[-1][1].append(text)
    return out


def _table_values(doc: dict) -> dict[str, str]:
    game = doc.get("game", {})
    blinds = game.get("blinds", [0, 0])
    bets = game.get("bets") or ["", ""]
    values = {
        "game": game.get("type", "no-limit"), "sb": str(blinds[0]), "bb": str(blinds[1]),
        "ante": str(game.get("ante", "") or ""), "bb_ante": str(game.get("bb_ante", "") or ""),
        "straddles": " ".join(str(s) for s in game.get("straddles", [])),
        "bet_small": str(bets[0]), "bet_big": str(bets[1]),
        "start": doc.get("start", "preflop"), "pot": str(doc.get("pot", "") or ""),
    }
    rules = game.get("rules") or {}
    values.update({"reopen": str(rules.get("reopen", "at-least")), "bba": str(rules.get("bba", "blind-first")),
                   "limit_cap": str(rules.get("limit_cap", "")),
                   "limit_cap_heads_up": "no" if rules.get("limit_cap_heads_up") is False else "yes"})
    values.update({f"stack-{p}": str(doc.get("stacks", {}).get(p, "")) for p in POSITIONS})
    return values


def _detail_values(doc: dict) -> dict[str, Any]:
    ruling = doc.get("ruling") or {}
    values: dict[str, Any] = {
        "board": " ".join(doc.get("board") or []),
        "ask": list(doc.get("ask") or []),
        "said": str(ruling.get("said", "")),
        "chips": " ".join(str(c) for c in ruling.get("chips", [])),
        "later": " ".join(str(c) for c in ruling.get("later", [])),
        "by": str(ruling.get("by", "")),
        "then": "; ".join(ruling.get("then", [])),
        "winners": "; ".join(" ".join(pot) for pot in doc.get("winners") or []),
        "chip": str(doc.get("chip", "") or ""),
        "id": str(doc.get("id", "") or ""),
        "topics": " ".join(doc.get("topics") or []),
        "level": str(doc.get("level", "") or ""),
    }
    for p in POSITIONS:
        values[f"hand-{p}"] = " ".join((doc.get("hands") or {}).get(p, []))
    for key in ("title", "explain"):
        texts = doc.get(key) or {}
        if isinstance(texts, str):
            texts = {"en": texts}
        for loc in LOCALES:
            values[f"{key}-{loc}"] = str(texts.get(loc, ""))
    return values


def _spot_so_far(doc: dict, locale: str) -> Any:
    """The table as it stands, drawn as the drill draws it: the hand's betting only."""
    sc = load_document({k: v for k, v in doc.items() if k in builder.BETTING}, builder.DRAFT)
    return build_spot(sc, locale)


def _preview(doc: dict, locale: str) -> dict[str, Any]:
    """The spot as a learner will see it, with the engine's answers; or the loader's message."""
    try:
        sc = builder.check(doc)
        entry = entry_of(sc, locale)
    except ScenarioError as exc:
        return {"error": str(exc), "entry": None}
    except (QuizError, ValueError) as exc:
        return {"error": str(exc), "entry": None}
    return {"error": None, "entry": entry, "spot": entry.spot, "quiz": entry.quiz}
