"""`trainer generate`: spots that load, are about their topic, and repeat from the seed."""

import yaml
from click.testing import CliRunner

from trainer.cli import main
from trainer.generate import RECIPES, _Ids, generate, topics
from trainer.scenarios import load_paths, load_text
from trainer.topics import TOPICS

PER_TOPIC = 10000 // len(RECIPES) + 1


def test_every_library_topic_has_a_generator():
    assert sorted(topics()) == sorted(t.name for t in TOPICS)


def test_ten_thousand_spots_load_and_satisfy_their_topic():
    total = 0
    for topic in topics():
        recipe = RECIPES[topic]
        for spot in generate(topic, level=1 + total % 5, seed=7, count=PER_TOPIC):
            text = yaml.safe_dump(spot.document, sort_keys=False, allow_unicode=True)
            scenario = load_text(text, f"{spot.id}.yaml")  # the file is valid per the contract
            assert scenario.check_expect() == []
            hand = scenario.hand()  # replayed from the file, not the generator's state
            assert (hand.betting_over) == (recipe.when == "over"), spot.id
            assert recipe.predicate(hand, _Ids(hand), spot.index), spot.id
            assert set(scenario.title) == set(scenario.explain) == {"en", "zh-Hant", "zh-Hans"}
            assert scenario.topics == (topic,)
            total += 1
    assert total >= 10000


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
