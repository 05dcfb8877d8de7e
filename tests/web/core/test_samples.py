"""Every sample scenario can be practised: its page opens and the engine's answer is graded all right."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trainer.scenarios import load_paths
from trainer.web import create_app

from tests.web.conftest import token_from

REPO = Path(__file__).resolve().parents[3]
FOLDERS = [REPO / "scenarios", REPO / "tests" / "scenarios"]


def right_answer(solved: dict, ask: tuple[str, ...], positions: list[str]) -> dict:
    """What a learner who knows the rules types, read off the engine's solution."""
    answer: dict = {}
    if "card" in ask:
        card = solved["card"]
        answer |= {k: f"{card[k]:,}" for k in ("current_total", "last_full_increment", "committed", "to_add")}
        answer["acted"] = "yes" if card["acted"] else "no"
    if "options" in ask:
        opts = solved["options"]
        answer["legal"] = [a for a in ("fold", "check") if opts[a]] + [
            a for a in ("call", "bet", "raise") if opts[a] is not None
        ]
        answer["call"] = "" if opts["call"] is None else str(opts["call"])
        low_high = (opts["bet"] and (opts["bet"]["min"], opts["bet"]["max"])) or (
            opts["raise"] and (opts["raise"]["min_to"], opts["raise"]["max_to"])
        )
        answer["min_to"], answer["max_to"] = (str(low_high[0]), str(low_high[1])) if low_high else ("", "")
    if "pot" in ask:
        answer["pot"] = str(solved["pot"])
    if "pots" in ask:
        for i, pot in enumerate(solved["pots"], start=1):
            answer[f"pot{i}_amount"] = str(pot["amount"])
            answer[f"pot{i}_eligible"] = pot["eligible"]
        for pos, chips in solved["returned"].items():
            answer[f"returned_{pos}"] = str(chips)
    if "ruling" in ask:
        ruling = solved["ruling"]
        answer["ruling_action"] = ruling["action"]
        answer["ruling_to"] = "" if ruling["to"] is None else str(ruling["to"])
        answer["ruling_returned"] = str(ruling["returned"])
    if "split" in ask:
        for i, pot in enumerate(solved["split"], start=1):
            answer |= {f"split{i}_{pos}": str(chips) for pos, chips in pot.items()}
    if "winners" in ask:
        answer |= {f"hand_{pos}": best["category"] for pos, best in solved["best_hands"].items()}
        answer |= {f"five_{pos}": best["cards"] for pos, best in solved["best_hands"].items()}
        answer |= {f"winners{i}": won for i, won in enumerate(solved["winners"], start=1)}
    if "showdown" in ask:
        showdown = solved.get("showdown")
        answer["showdown"] = "none" if showdown is None else "all" if showdown["all_tabled"] else showdown["first"]
    return answer


@pytest.fixture(scope="module", params=FOLDERS, ids=lambda p: p.relative_to(REPO).as_posix())
def library(request):
    folder = request.param
    scenarios = load_paths([folder]).scenarios
    if not scenarios:
        pytest.skip(f"no scenarios in {folder.name}/ yet")
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SCENARIO_DIRS": [str(folder)]})
    return app, scenarios


def test_every_scenario_loads_and_can_be_drilled(library):
    app, scenarios = library
    client = app.test_client()
    assert "No problems" in client.get("/problems").text
    for scenario in scenarios:
        url = f"/drill/{scenario.id}"
        page = client.get(url)
        if "exam-pool" in Path(scenario.file).parts:  # exam questions are never served as drills
            assert page.status_code == 404, url
            continue
        assert page.status_code == 200, url
        positions = list(scenario.stacks)
        answer = right_answer(scenario.solve(), scenario.ask, positions)
        graded = client.post(url, data={"csrf_token": token_from(page.text), **answer}).text
        assert re.search(r"✓</span> All \d+ right", graded), f"{scenario.id}: the engine's own answer is not all right"
        assert "mark--wrong" not in graded
