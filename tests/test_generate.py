"""`trainer generate`: spots that load, are about their topic, and repeat from the seed."""

import dataclasses
import re

import pytest
import yaml
from click.testing import CliRunner

from trainer.cli import main
from trainer.generate import RECIPES, _Ids, generate, topics
from trainer.quiz import build_quiz
from trainer.scenarios import load_document, load_paths, load_text
from trainer.topics import TOPICS

# libyaml's dumper where PyYAML has it: the pure-Python one was half of the ten-thousand-spot test.
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def test_every_library_topic_has_a_generator():
    assert sorted(topics()) == sorted(t.name for t in TOPICS)


# Volume: the default run generates a tenth of the spots; `-m slow` all ten thousand (docs/testing.md).
@pytest.mark.parametrize("spots", [1000, pytest.param(10000, marks=pytest.mark.slow)])
def test_ten_thousand_spots_load_and_satisfy_their_topic(spots):
    total = 0
    for topic in topics():
        recipe = RECIPES[topic]
        for spot in generate(topic, level=1 + total % 5, seed=7, count=spots // len(RECIPES) + 1):
            text = yaml.dump(spot.document, Dumper=DUMPER, sort_keys=False, allow_unicode=True)
            scenario = load_text(text, f"{spot.id}.yaml")  # the file is valid per the contract
            assert scenario.check_expect() == []
            hand = scenario.hand()  # replayed from the file, not the generator's state
            assert (hand.betting_over) == (recipe.when == "over"), spot.id
            assert recipe.predicate(hand, _Ids(hand), spot.variant), spot.id
            assert set(scenario.title) == set(scenario.explain) == {"en", "zh-Hant", "zh-Hans"}
            assert scenario.topics == (topic,)
            total += 1
    assert total >= spots


def test_same_seed_same_files_other_seed_other_files():
    first = [s.document for s in generate("short-all-in", level=3, seed=42, count=5)]
    again = [s.document for s in generate("short-all-in", level=3, seed=42, count=5)]
    other = [s.document for s in generate("short-all-in", level=3, seed=43, count=5)]
    assert first == again
    assert first != other
    # spot i does not depend on how many were asked for
    assert generate("short-all-in", level=3, seed=42, count=1, start=3)[0].document == first[3]


def test_cli_writes_files_that_check_cleanly(tmp_path):
    result = CliRunner().invoke(main, ["generate", "--topic", "side-pots", "--seed", "5", "-n", "4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    loaded = load_paths([tmp_path])
    assert len(loaded.scenarios) == 4 and not loaded.errors
    printed = CliRunner().invoke(main, ["generate", "--topic", "side-pots", "--seed", "5", "-n", "4"])
    docs = list(yaml.safe_load_all(printed.stdout))
    assert [d["id"] for d in docs] == sorted(s.id for s in loaded.scenarios)


def test_cli_rejects_unknown_topic_with_the_list():
    result = CliRunner().invoke(main, ["generate", "--topic", "side-pot"])
    assert result.exit_code == 2
    assert 'unknown topic "side-pot"; topics are action-order' in result.output


def _without_lines(scenario):
    """A scenario as a spot: where each key and action sat in a file is not part of it."""
    actions = tuple(dataclasses.replace(a, line=None) for a in scenario.actions)
    return dataclasses.replace(scenario, lines={}, actions=actions)


# Volume: every topic, level and seed with one spot each by default; six each with `-m slow`.
@pytest.mark.parametrize("per_seed", [1, pytest.param(6, marks=pytest.mark.slow)])
def test_a_generated_spot_is_the_same_scenario_built_directly_as_through_a_yaml_file(per_seed):
    """The drill builds generated spots with ``load_document``; they must be what the file would load as."""
    checked = 0
    for topic in topics():
        for level in range(1, 6):
            for seed in (0, 1, 7, 123, 2**31 - 1):
                for spot in generate(topic, level=level, seed=seed, count=per_seed):
                    file = f"{spot.id}.yaml"
                    text = yaml.dump(spot.document, Dumper=DUMPER, sort_keys=False, allow_unicode=True)
                    through_yaml = load_text(text, file)
                    built = load_document(spot.document, file)
                    assert _without_lines(built) == _without_lines(through_yaml), spot.id
                    assert built.check_expect() == []
                    if checked % 25 == 0:  # the questions and answers the learner sees, in each language
                        for locale in ("en", "zh-Hant"):
                            assert build_quiz(built, locale=locale) == build_quiz(through_yaml, locale=locale), spot.id
                    checked += 1
    assert checked >= 500 * per_seed


def _amounts(document: dict) -> list[int]:
    """Every chip amount a spot's file writes: stacks, blinds and antes, bets and raises, ruling chips."""
    game = document["game"]
    amounts = list(document["stacks"].values()) + list(game["blinds"]) + list(game.get("straddles", ()))
    amounts += [game[k] for k in ("ante", "bb_ante") if game.get(k)]
    for actions in document.get("actions", {}).values():
        amounts += [int(a.split()[-1]) for a in actions if a.split()[-1].isdigit()]
    ruling = document.get("ruling", {})
    amounts += list(ruling.get("chips", ())) + list(ruling.get("later", ()))
    if str(ruling.get("said", "")).isdigit():
        amounts.append(int(ruling["said"]))
    return amounts


def test_real_stakes_are_dealt_in_whole_chips_and_answered_by_the_engine():
    from trainer.playout import STAKES

    raises = []
    for name, stakes in STAKES.items():
        for topic in topics():
            for spot in generate(topic, level=3, seed=11, count=4, stakes=name):
                document = spot.document
                assert document["game"]["blinds"] == [stakes.small, stakes.big], spot.id
                odd = [a for a in _amounts(document) if a % stakes.chip]
                assert odd == [], (spot.id, odd)
                scenario = load_document(document, f"{spot.id}.yaml")
                assert scenario.check_expect() == [], spot.id  # the answer key is the engine's
                assert spot.id.endswith(f"-{name}")
                raises += [int(a.split()[-1]) / stakes.big for acts in document.get("actions", {}).values()
                           for a in acts if " raise " in a]
    # sized as players size them: most raises are 2 to 4 big blinds or more, not one chip over the minimum
    assert raises and sum(r >= 2 for r in raises) / len(raises) > 0.9


def test_spots_without_stakes_are_the_ones_their_addresses_always_gave():
    # The drill's gen: addresses replay the same spots whether or not real stakes exist.
    assert generate("min-raise", level=2, seed=5)[0].document == generate("min-raise", level=2, seed=5, stakes=None)[0].document
    assert generate("min-raise", level=2, seed=5)[0].document != generate("min-raise", level=2, seed=5, stakes="100-200")[0].document


def test_cli_generates_at_real_stakes_and_names_the_stakes_it_knows():
    printed = CliRunner().invoke(main, ["generate", "--topic", "side-pots", "--seed", "5", "-n", "2", "--stakes", "1000-2000"])
    assert printed.exit_code == 0, printed.output
    assert all(d["game"]["blinds"] == [1000, 2000] for d in yaml.safe_load_all(printed.stdout))
    wrong = CliRunner().invoke(main, ["generate", "--topic", "side-pots", "--stakes", "1-2"])
    assert wrong.exit_code == 2 and 'unknown stakes "1-2"; stakes are 100-200, 1000-2000' in wrong.output


def test_pots_are_split_in_a_chip_they_are_made_of():
    """The spot's smallest chip divides every pot and every share: a 125 pot is not split in 100s
    (the small blind once drew a chip of 100 over a 25 short blind at 100/200)."""
    from trainer.playout import STAKES

    checked = 0
    for stakes in (None, *STAKES):
        for seed in range(60):
            for spot in generate("odd-chip", level=3, seed=seed, count=2, stakes=stakes):
                document = spot.document
                chip = document.get("chip", 1)
                expect = document["expect"]
                amounts = [p["amount"] for p in expect["pots"]] + [a for s in expect["split"] for a in s.values()]
                assert [a for a in amounts if a % chip] == [], (spot.id, chip, amounts)
                if stakes is not None:
                    assert chip % STAKES[stakes].chip == 0, spot.id
                checked += 1
    assert checked == 3 * 60 * 2


def test_a_generated_hand_reading_spot_with_a_split_asks_what_each_winner_collects():
    """Hand reading asked only who wins: where a pot is split the dealer must also push each share,
    odd chip included, in the room's chips at real stakes."""
    split = plain = 0
    for stakes in (None, "100-200"):
        for spot in generate("hand-reading", level=3, seed=11, count=12, stakes=stakes):
            doc = spot.document
            shared = any(len(w) > 1 for w in doc["expect"]["winners"])
            assert ("split" in doc["ask"]) == shared, spot.id
            quiz = build_quiz(load_document(doc, f"{spot.id}.yaml"))
            names = {f.name for f in quiz.fields()}
            if shared:
                split += 1
                assert any(n.startswith("split") for n in names) and doc["expect"]["split"]
                assert doc.get("chip") == (25 if stakes else None)
            else:
                plain += 1
                assert not any(n.startswith("split") for n in names)
    assert split and plain


SEEDS = range(10)
DISTINCT = 7  # of 10 seeds, at least this many distinct situations per topic and level


def situation(spot) -> tuple:
    """What a spot is about, not its amounts: the game, how many are dealt in, the street, who acts,
    who did what before (not how much), what is asked, what the ruling is about, how many pots."""
    doc = spot.document
    hand = load_document(doc, f"{spot.id}.yaml").hand()
    before = tuple(" ".join(a.split()[:2]) for acts in (doc.get("actions") or {}).values() for a in acts)
    ruling = doc.get("ruling") or {}
    said = ruling.get("said")
    return (
        doc["game"]["type"], len(doc["stacks"]), hand.street, doc["expect"]["to_act"], before, tuple(doc["ask"]),
        tuple(sorted(ruling)), said if said is None or not said.isdigit() else "amount",
        len(doc["expect"].get("pots") or ()), bool((doc["expect"].get("showdown") or {}).get("all_tabled")),
    )


def test_endless_practice_varies_the_situation_at_every_topic_and_level():
    """Endless practice asks spot 0 of a new seed: ten seeds must not be one spot with other stacks
    (heads-up gave the same unopened preflop spot for 10 seeds of 10 at levels 1, 3 and 5)."""
    counts = {
        (topic, level): len({situation(generate(topic, level=level, seed=seed)[0]) for seed in SEEDS})
        for topic in topics() for level in range(1, 6)
    }
    report = "\n".join(f"{topic:16} " + " ".join(f"L{level}:{counts[(topic, level)]:>2}" for level in range(1, 6))
                       for topic in topics())
    print(f"distinct situations in {len(SEEDS)} seeds\n{report}")
    assert all(n >= DISTINCT for n in counts.values()), report


def test_a_higher_level_asks_about_busier_spots():
    """The level says what is harder: more players dealt in and more action before the spot."""
    def busy(level):
        spots = [generate(topic, level=level, seed=seed)[0].document for topic in topics() for seed in SEEDS]
        players = sum(len(d["stacks"]) for d in spots) / len(spots)
        actions = sum(len(a) for d in spots for a in (d.get("actions") or {}).values()) / len(spots)
        return players, actions

    easy, hard = busy(1), busy(5)
    assert hard[0] > easy[0] + 3 and hard[1] > easy[1] * 1.5, (easy, hard)


def test_the_title_of_a_spot_after_the_betting_says_who_is_left_and_when():
    titles = {generate("side-pots", level=4, seed=seed)[0].document["title"]["en"] for seed in SEEDS}
    assert len(titles) >= 5, titles  # 10 of 10 were "Main and side pots: after the betting"
    assert all(re.fullmatch(r"Main and side pots: \d+ of \d+ players left after the betting \(\w+\)", t) for t in titles)
