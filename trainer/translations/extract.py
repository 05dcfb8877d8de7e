"""Babel extraction for the ``engine`` domain: the English source texts, read as literals.

The engine's texts are not ``gettext`` calls: they are tables of English
templates keyed by a message ID, which the engine renders with whatever
templates it is handed. This extractor reads those tables from the source
(parsed, not run; only ``rules.group_amounts`` is borrowed, so the rule texts
are extracted exactly as the rules page shows them) and gives each text to Babel with its ID as
the message context, so a translator sees the ID next to the English:

- ``EN = {"cur.none": "Nobody has bet …", …}`` (``trainer/engine/messages.py``):
  context ``cur.none``;
- ``Rule(id="R-MINRAISE", title=…, statement=…, examples=(…))``
  (``trainer/engine/rules.py``): contexts ``R-MINRAISE.title``,
  ``R-MINRAISE.statement`` and ``R-MINRAISE.example``, as learners read them
  (``LEARNER_EDITS`` applied: no notes meant for developers; amounts grouped);
- the spot generator (``trainer/generate.py``): ``explain="…"`` of each
  ``RECIPES`` entry (context ``explain.<topic>``), ``TITLE = {"decision": …}``
  (``title.decision``), ``CARD_EXPLAIN = "…"`` (``explain.card``) and
  ``CARD_CHECK_EXPLAIN`` (``explain.card_check``).

A comment on the line above an entry that starts with ``Translators:`` goes
into the catalog. ``babel-engine.cfg`` names the files; docs/i18n.md has the
commands.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

Extracted = tuple[int, str, tuple[str, str], list[str]]
# the generator's single notes: constant name -> message context
NOTES = {"CARD_EXPLAIN": "explain.card", "CARD_CHECK_EXPLAIN": "explain.card_check"}


def extract_engine(fileobj, keywords, comment_tags, options) -> Iterator[Extracted]:
    """Babel's extraction-method interface: ``(lineno, funcname, messages, comments)``."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    lines = source.splitlines()
    for context, text, lineno in texts(ast.parse(source)):
        yield lineno, "pgettext", (context, text), _comments(lines, lineno, comment_tags)


def texts(tree: ast.Module) -> Iterator[tuple[str, str, int]]:
    """``(context, English text, line)`` for every text in one source file."""
    for statement in tree.body:
        name, value = _assignment(statement)
        if name == "EN" and isinstance(value, ast.Dict):
            yield from _table(value, "")
        elif name == "TITLE" and isinstance(value, ast.Dict):
            yield from _table(value, "title.")
        elif name in NOTES and _is_text(value):
            yield NOTES[name], value.value, value.lineno
        elif name == "RECIPES" and isinstance(value, ast.Dict):
            for key, recipe in zip(value.keys, value.values):
                explain = _keyword(recipe, "explain")
                if _is_text(key) and _is_text(explain):
                    yield f"explain.{key.value}", explain.value, explain.lineno
    edits = _learner_edits(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Rule":
            for context, text, lineno in _rule(node):
                yield context, _edited(text, edits), lineno


def _assignment(statement: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign):
        target, value = statement.target, statement.value
    else:
        return None, None
    return (target.id, value) if isinstance(target, ast.Name) else (None, None)


def _is_text(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _keyword(call: ast.AST, name: str) -> ast.expr | None:
    if isinstance(call, ast.Call):
        for keyword in call.keywords:
            if keyword.arg == name:
                return keyword.value
    return None


def _table(table: ast.Dict, prefix: str) -> Iterator[tuple[str, str, int]]:
    for key, value in zip(table.keys, table.values):
        if _is_text(key) and _is_text(value):
            yield prefix + key.value, value.value, value.lineno


def _learner_edits(tree: ast.Module) -> tuple[tuple[str, str], ...]:
    """``rules.LEARNER_EDITS``: the rules page shows (and translators translate) the edited texts."""
    for statement in tree.body:
        name, value = _assignment(statement)
        if name == "LEARNER_EDITS" and value is not None:
            return tuple(ast.literal_eval(value))
    return ()


def _edited(text: str, edits: tuple[tuple[str, str], ...]) -> str:
    from trainer.engine.rules import group_amounts

    for piece, becomes in edits:
        text = text.replace(piece, becomes)
    return group_amounts(text)


def _rule(call: ast.Call) -> Iterator[tuple[str, str, int]]:
    rule_id = _keyword(call, "id")
    if not _is_text(rule_id):
        return
    for field in ("title", "statement"):
        value = _keyword(call, field)
        if _is_text(value):
            yield f"{rule_id.value}.{field}", value.value, value.lineno
    examples = _keyword(call, "examples")
    if isinstance(examples, ast.Tuple):
        for example in examples.elts:
            if _is_text(example):
                yield f"{rule_id.value}.example", example.value, example.lineno


def _comments(lines: list[str], lineno: int, tags) -> list[str]:
    above = lines[lineno - 2].strip() if lineno >= 2 else ""
    if above.startswith("#"):
        comment = above.lstrip("#").strip()
        if any(comment.startswith(tag) for tag in tags or ()):
            return [comment]
    return []


def extract_exams(fileobj, keywords, comment_tags, options) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction-method interface for an exam template (exams/*.yaml): its ``title`` and
    ``description``, in the messages domain (the pages show them through ``gettext``)."""
    import yaml

    document = yaml.safe_load(fileobj.read().decode(options.get("encoding", "utf-8"))) or {}
    for key in ("title", "description"):
        value = document.get(key)
        if isinstance(value, str):
            yield 1, "gettext", " ".join(value.split()), []
