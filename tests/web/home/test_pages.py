"""Home, topics, the scenario list, problems, rules, errors: what a visitor sees."""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from trainer.web import create_app

from tests.web.conftest import BROKEN, HTMX


def test_home_lists_topics_with_counts_and_levels_and_a_start_path(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.text
    assert 'href="/topics/reopening"' in html
    # reopening walks one spot of its own at level 3 (the level-2 one tagged with it too is a short all-in's)
    topic = re.search(r'href="/topics/reopening">([^<]*)</a>\s*<span class="meta">([^<]*)</span>', html)
    assert topic and topic.groups() == ("Reopening the betting", "1 spot · level 3")
    assert 'href="/start"' in html and "Start practising" in html


def test_start_goes_to_the_easiest_spot(client):
    response = client.get("/start")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/drill/seed001-min-raise?topic=min-raise")  # walked in its topic


def test_start_with_no_scenarios_goes_home(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(empty)]})
    client = app.test_client()
    assert client.get("/start").headers["Location"].endswith("/")
    assert "No scenarios are loaded" in client.get("/").text


def test_topic_page_lists_its_spots_and_filters_by_level(client):
    html = client.get("/topics/reopening").text
    assert "<h1>Reopening the betting</h1>" in html
    assert 'href="/rules#R-REOPEN">Short all-ins do not reopen betting for players who acted</a>' in html  # the rule's name, not its ID
    assert "BTN faces a short all-in on the turn" in html
    assert "SB faces 400 more after a short all-in" in html
    level3 = client.get("/topics/reopening?level=3").text
    assert "SB faces 400 more" in level3
    assert "BTN faces a short all-in" not in level3
    assert re.search(r'aria-current="page"[^>]*>Level 3<|Level 3</a>', level3)


def test_level_filter_is_a_fragment_for_htmx_and_a_page_otherwise(client):
    full = client.get("/topics/reopening?level=2")
    part = client.get("/topics/reopening?level=2", headers=HTMX)
    assert full.text.lstrip().startswith("<!doctype html>")
    assert not part.text.lstrip().startswith("<!doctype")
    assert part.text.lstrip().startswith('<section id="scenario-list"')
    assert "BTN faces a short all-in" in part.text
    assert 'hx-swap-oob="innerHTML">Showing 1 spot at level 2.' in part.text
    for response in (full, part):
        assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("header", ["HX-Boosted", "HX-History-Restore-Request"])
def test_boosted_and_history_restore_requests_get_the_full_page(client, header):
    response = client.get("/topics/reopening?level=2", headers={**HTMX, header: "true"})
    assert response.text.lstrip().startswith("<!doctype html>")


@pytest.mark.parametrize("level", ["9", "abc", "-1", "２", "1" * 50])
def test_a_bad_level_shows_every_level_with_a_note(client, level):
    response = client.get("/topics/reopening", query_string={"level": level})
    assert response.status_code == 200
    assert "There is no such level" in response.text
    assert "SB faces 400 more" in response.text and "BTN faces a short all-in" in response.text


def test_all_spots_page_lists_every_scenario(client):
    html = client.get("/scenarios").text
    for title in ("Main pot 300, side pot 400", "An uncalled 300 comes back", "The river raiser shows first"):
        assert title in html


def test_unknown_topic_and_scenario_are_friendly_404s_with_a_way_back(client):
    for url in ("/topics/no-such-topic", "/drill/no-such-spot", "/no/such/page"):
        response = client.get(url)
        assert response.status_code == 404
        assert "<!doctype html>" in response.text
        assert 'href="/">Back to the home page</a>' in response.text


def test_htmx_404_is_shown_in_place_of_the_page_body(client):
    response = client.get("/drill/no-such-spot", headers=HTMX)
    assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#main"
    assert "<!doctype" not in response.text
    assert "There is no scenario with that name." in response.text


def test_wrong_method_is_a_friendly_405(client):
    for response in (client.delete("/drill/seed004-side-pot"), client.put("/rules")):
        assert response.status_code == 405
        assert "<!doctype html>" in response.text
        assert "GET" in response.headers["Allow"]


def test_problems_page_names_broken_files_and_the_rest_still_serve(tmp_path, caplog):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(BROKEN)]})
    client = app.test_client()
    html = client.get("/problems").text
    assert "scenarios-broken/illegal-raise.yaml:8" in html
    assert "the minimum raise is to 500" in html
    assert "scenarios-broken/asks-pots-too-early.yaml" in html
    assert "is answered once betting is over" in html
    assert str(BROKEN.parent) not in html  # no server paths on a public page
    assert client.get("/drill/still-served").status_code == 200
    assert client.get("/drill/illegal-raise").status_code == 404
    assert "Scenario file problems: 2" in client.get("/").text
    assert "illegal-raise.yaml" in caplog.text


def test_problems_page_when_all_is_well(client):
    assert "No problems: every scenario file loaded." in client.get("/problems").text
    assert "Scenario file problems" not in client.get("/").text  # a learner's footer says nothing of files


def test_a_missing_scenario_folder_is_a_problem_not_a_crash(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(tmp_path / "nowhere")]})
    html = app.test_client().get("/problems").text
    assert "scenario folder not found" in html


def test_rules_page_shows_every_rule_of_the_engine_with_an_anchor(client):
    rules = pytest.importorskip("trainer.engine.rules").RULES
    html = client.get("/rules").text
    assert rules, "the engine's rule table is empty"
    for rule_id, rule in rules.items():
        assert f'id="{rule_id}"' in html
        assert str(escape(rule.title)) in html


def test_healthz_is_plain_text(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok\n"


def test_problems_page_lists_files_the_yaml_reader_refuses_and_serves_the_rest(tmp_path):
    """Alias bombs, tags, huge numbers, binary and other encodings: listed with their line, the server keeps going."""
    bad = BROKEN.parent / "scenarios-bad"
    folder = tmp_path / "library"
    folder.mkdir()
    for f in bad.glob("*.yaml"):
        (folder / f.name).write_bytes(f.read_bytes())
    (folder / "still-served.yaml").write_bytes((BROKEN / "good.yaml").read_bytes())
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(folder)]})
    client = app.test_client()
    response = client.get("/problems")
    assert response.status_code == 200
    for where in ("recursive-alias.yaml:2", "billion-laughs.yaml:12", "huge-integer.yaml:3", "timestamp-tag.yaml:3",
                  "binary.yaml:1", "nul-byte.yaml:2", "utf16.yaml:1", "bom-inside.yaml:3"):
        assert where in response.text
    assert f"Scenario file problems: {len(list(bad.glob('*.yaml')))}" in client.get("/").text
    assert client.get("/drill/still-served").status_code == 200


def test_the_shipped_path_walks_each_spot_once_in_its_first_topic():
    """"Who acts first" walked the rulings on acting out of turn (chips-and-words spots) and
    showdown spots, since a spot was walked in its earliest topic on the path: the first lesson
    asked what a dealer rules. Each spot is walked in its first topic (its folder), once."""
    from pathlib import Path

    from trainer.library import load_library

    lib = load_library([str(Path(__file__).resolve().parents[3] / "scenarios")])
    walked = {e.id for e in lib.topic("action-order").entries}
    assert "out-of-turn-fold-binds" not in walked and "river-checked-big-blind-first" not in walked
    assert all(e.topics[0] == "action-order" for e in lib.topic("action-order").entries)
    assert "out-of-turn-fold-binds" in {e.id for e in lib.topic("action-order").also}
    seen: list[str] = []
    step = lib.step_after(lib.first(), lib.topic(lib.home_topic(lib.first())))
    seen.append(lib.first().id)
    while step.change != "end":
        seen.append(step.entry.id)
        assert step.topic == step.entry.topics[0], step
        step = lib.step_after(step.entry, lib.topic(step.topic))
    assert len(seen) == len(set(seen)) == len(lib.entries)  # every spot, each once
