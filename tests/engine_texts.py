"""Every text the engine and the spot generator produce, in every language, one per line.

``collect()`` renders, in en, zh-Hant and zh-Hans:

- every engine template as the renderer receives it;
- the derivation of every scenario in ``scenarios/`` and ``tests/scenarios/``
  (with its ruling, hand reading and split steps), the reason of every file
  that fails on an illegal action, and the errors of a fixed set of illegal
  actions tried at each spot;
- the rules page's titles, statements and worked examples;
- a few hundred generated spots (every topic, every level): their titles,
  explanations, derivations and the same illegal actions.

``python -m tests.engine_texts`` prints them all (4.5 MB, one ``key<TAB>"text"``
line each). ``tests/golden/engine-texts.sha256`` keeps, per spot, rule or
template table, the number of lines and a SHA-256 of them;
``test_engine_catalog.py`` fails on any difference and shows the lines of the
groups that changed, so moving where the texts live cannot change a character
of what learners read. After an intentional change of wording:

    python -m tests.engine_texts --digest > tests/golden/engine-texts.sha256
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

from trainer.engine import Action, ActionKind, EngineError, IllegalActionError
from trainer.engine.rules import RULES
from trainer.generate import generate, topics
from trainer.scenarios import load_paths, load_text

LOCALES = ("en", "zh-Hant", "zh-Hans")
ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "scenarios", ROOT / "tests" / "scenarios")
GENERATED_SEED = 3
GENERATED_PER_LEVEL = 3


# The two lookups below are the only lines that know where translations live.
def templates(locale: str):
    from trainer.translations.engine import engine_templates

    return engine_templates(locale)


def rule_texts(rule, locale: str) -> tuple[str, str, tuple[str, ...]]:
    from trainer.translations.engine import rule_text

    text = rule_text(rule.id, locale)
    return text.title, text.statement, text.examples


def _illegal_tries(hand) -> list[Action]:
    """Actions that are illegal at most spots, each for a different reason (and the seat out of turn)."""
    if hand.betting_over or hand.to_act is None:
        return [Action(position="SB", kind=ActionKind.CHECK)]
    pos = hand.to_act
    seat = next(s for s in hand.seats if s.position == pos)
    others = [s.position for s in hand.seats if s.position != pos and not s.folded]
    card = hand.card()
    tries = [
        Action(position=pos, kind=ActionKind.CHECK),
        Action(position=pos, kind=ActionKind.CALL),
        Action(position=pos, kind=ActionKind.BET, amount=1),
        Action(position=pos, kind=ActionKind.RAISE, amount=max(card.current_total, 1)),
        Action(position=pos, kind=ActionKind.RAISE, amount=card.current_total + 1),
        Action(position=pos, kind=ActionKind.RAISE, amount=seat.committed + seat.stack + 1000),
        Action(position=pos, kind=ActionKind.BET, amount=seat.committed + seat.stack + 1000),
        Action(position="ZZ", kind=ActionKind.FOLD),
    ]
    if others:
        tries.append(Action(position=others[0], kind=ActionKind.FOLD))
    return tries


def _errors(key: str, scenario) -> Iterator[tuple[str, str]]:
    for n, action in enumerate(_illegal_tries(scenario.hand())):
        try:
            scenario.hand().apply(action)
        except IllegalActionError as error:
            for locale in LOCALES:
                yield f"{key}/illegal{n}/{locale}", error.sentence(templates(locale))
        except EngineError:
            pass


def _derivation(key: str, scenario) -> Iterator[tuple[str, str]]:
    steps = scenario.derivation()
    for locale in LOCALES:
        t = templates(locale)
        for n, step in enumerate(steps):
            yield f"{key}/{locale}/step{n}/{step.topic}/{step.rule or '-'}", step.render(t)


def collect() -> Iterator[tuple[str, str]]:
    english = templates("en")
    for locale in LOCALES:
        t = templates(locale)
        for mid in sorted(english):
            yield f"template/{locale}/{mid}", t[mid]

    loaded = load_paths([str(f) for f in FOLDERS])
    for scenario in sorted(loaded.scenarios, key=lambda s: (s.id, str(s.file))):
        key = f"scenario/{scenario.id}"
        yield from _derivation(key, scenario)
        yield from _errors(key, scenario)
    for error in sorted(loaded.errors, key=str):
        cause = error.__context__
        if isinstance(cause, IllegalActionError):
            name = Path(error.file).name
            for locale in LOCALES:
                yield f"load-error/{name}/{error.line}/{locale}", cause.clause(templates(locale))

    for rule in RULES.values():
        for locale in LOCALES:
            title, statement, examples = rule_texts(rule, locale)
            yield f"rule/{rule.id}/{locale}/title", title
            yield f"rule/{rule.id}/{locale}/statement", statement
            for n, example in enumerate(examples):
                yield f"rule/{rule.id}/{locale}/example{n}", example

    for topic in topics():
        for level in range(1, 6):
            for spot in generate(topic, level=level, seed=GENERATED_SEED, count=GENERATED_PER_LEVEL):
                key = f"generated/{spot.id}"
                for locale in LOCALES:
                    yield f"{key}/title/{locale}", spot.document["title"][locale]
                    yield f"{key}/explain/{locale}", spot.document["explain"][locale]
                text = yaml.safe_dump(spot.document, sort_keys=False, allow_unicode=True)
                scenario = load_text(text, f"{spot.id}.yaml")
                yield from _derivation(key, scenario)
                yield from _errors(key, scenario)


def lines() -> list[str]:
    return [f"{key}\t{json.dumps(text, ensure_ascii=False)}\n" for key, text in collect()]


def group_of(line: str) -> str:
    """``scenario/<id>``, ``generated/<id>``, ``rule/<id>``, ``template/<locale>``: what a digest covers."""
    return "/".join(line.split("\t", 1)[0].split("/", 2)[:2])


def digests(all_lines: list[str]) -> dict[str, tuple[int, str]]:
    grouped: dict[str, list[str]] = {}
    for line in all_lines:
        grouped.setdefault(group_of(line), []).append(line)
    return {
        group: (len(members), hashlib.sha256("".join(members).encode()).hexdigest())
        for group, members in grouped.items()
    }


def digest_lines(all_lines: list[str]) -> list[str]:
    return [f"{group}\t{count}\t{sha}\n" for group, (count, sha) in digests(all_lines).items()]


def read_digests(path: Path) -> dict[str, tuple[int, str]]:
    out = {}
    for row in path.read_text(encoding="utf-8").splitlines():
        group, count, sha = row.split("\t")
        out[group] = (int(count), sha)
    return out


if __name__ == "__main__":
    found = lines()
    sys.stdout.writelines(digest_lines(found) if "--digest" in sys.argv[1:] else found)
