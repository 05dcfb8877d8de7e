"""Drill pages by value: each visitor sees their own spot and their own amounts, no request input
reaches another visitor's page, and memory stays bounded however many generated spots are shown.

Generated spots come and go (endless practice, exams): a server that keeps every one it has shown
grows without end, and anything kept under the address of an object that has died is served for
whatever object takes its place.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from trainer.store.exams import ExamTemplate
from trainer.web import create_app
from trainer.web.core import spot_refs

from tests.web.conftest import SCENARIOS, token_from
from tests.answers import BTN, BTN_RIGHT, HTMX, OPENED

ROOT = Path(__file__).resolve().parents[3]
# Two generated spots that ask different things, so no field name is shared.
CARD_SPOT = "gen:min-raise:2:7:0"
POTS_SPOT = "gen:side-pots:2:7:0"
NAMES = re.compile(r'<input[^>]* name="([^"]+)"')


def _own_fields(app, ref: str, stage: int = 0) -> set[str]:
    """A spot's fields: all of them, or those of one step (the page opens at step 1)."""
    with app.test_request_context("/"):
        quiz = spot_refs.resolve(ref).quiz
        return {f.name for f in (quiz.stage(stage) if stage else quiz).fields()}


def _shown_fields(html: str) -> set[str]:
    return set(NAMES.findall(html)) - {"csrf_token", "opened", "answer_id", "name", "missed", "stage", "clean"}


# ------------------------------------------------------------------ request input


def test_a_long_query_parameter_never_reaches_another_visitors_page(app):
    junk = "x" * 100_000
    first = app.test_client()
    assert first.get(f"/drill/{BTN}?topic={junk}").status_code == 200
    assert first.get(f"/drill/{BTN}?topic=reopen&level={junk}").status_code == 200
    assert first.get(f"/drill/{BTN}?topic={junk}", headers=HTMX).status_code == 200

    later = app.test_client()
    for url, headers in ((f"/drill/{BTN}", {}), (f"/drill/{BTN}?topic=reopen", {}), (f"/drill/{BTN}", HTMX)):
        page = later.get(url, headers=headers)
        assert page.status_code == 200
        assert "xxxxxxxxxx" not in page.text, url
        assert len(page.data) < 40_000, (url, len(page.data))
    # A level the drill page does not read is not kept in its links either.
    assert "level=" not in later.get(f"/drill/{BTN}?topic=reopen").text


def test_the_visitor_who_sent_it_does_not_get_it_back_either(client):
    page = client.get(f"/drill/{BTN}?topic=" + "y" * 100_000)
    assert "yyyyyyyyyy" not in page.text and len(page.data) < 40_000


def test_the_deck_links_of_a_kept_page_name_only_its_own_validated_topic(app):
    first = app.test_client()
    # a topic that looks like one but is no topic: the page is the one without a topic
    assert first.get(f"/drill/{BTN}?topic=no-such-topic").status_code == 200
    assert first.get(f"/drill/{BTN}?topic=reopening&level=3&deck=two").status_code == 200

    later = app.test_client()
    plain = later.get(f"/drill/{BTN}").text
    assert "no-such-topic" not in plain
    assert re.findall(r'<a href="([^"]*deck=\w+)"', plain) == ["?deck=two", "?deck=four"]
    topical = later.get(f"/drill/{BTN}?topic=reopening").text
    assert re.findall(r'<a href="([^"]*deck=\w+)"', topical) == ["?topic=reopening&amp;deck=two", "?topic=reopening&amp;deck=four"]


def test_another_spelling_of_a_generated_spot_never_reaches_another_visitors_page(app):
    odd = "gen:min-raise:2:0007:0"  # the same spot as CARD_SPOT, written differently
    assert app.test_client().get(f"/drill/{odd}").status_code == 200
    page = app.test_client().get(f"/drill/{CARD_SPOT}").text
    # The odd spelling as a link or form would carry it (a bare "0007" also turns up, now and then,
    # inside the page's random answer id).
    assert "2:0007:0" not in page and "2%3A0007%3A0" not in page
    assert f'action="/drill/{CARD_SPOT}"' in page


# ------------------------------------------------------------------ keyed by value


def test_two_drill_spots_shown_alternately_after_eviction_each_show_their_own_fields(app):
    own = {ref: _own_fields(app, ref) for ref in (CARD_SPOT, POTS_SPOT)}
    first = {ref: _own_fields(app, ref, 1) for ref in (CARD_SPOT, POTS_SPOT)}
    assert not own[CARD_SPOT] & own[POTS_SPOT]
    client = app.test_client()
    for _ in range(20):
        for ref in (CARD_SPOT, POTS_SPOT):
            spot_refs._generated.cache_clear()  # the spot leaves the table of generated spots
            page = client.get(f"/drill/{ref}")
            assert page.status_code == 200
            assert _shown_fields(page.text) == first[ref], ref
            token = token_from(page.text)
            opened = OPENED.search(page.text).group(1)
            spot_refs._generated.cache_clear()
            graded = client.post(f"/drill/{ref}", data={"csrf_token": token, "opened": opened}, headers=HTMX)
            assert _shown_fields(graded.text) == own[ref], ref


def test_each_answer_shows_what_it_typed(app):
    client = app.test_client()
    token = token_from(client.get(f"/drill/{BTN}").text)
    for typed, shown in (("1400", "1,400"), ("1,500", "1,500"), ("１６００", "1,600"), ("1400", "1,400")):
        graded = client.post(
            f"/drill/{BTN}", data={**BTN_RIGHT, "current_total": typed, "csrf_token": token}, headers=HTMX
        ).text
        assert 'name="current_total" type="text"' in graded
        value = re.search(r'name="current_total"[^>]*value="([^"]*)"', graded).group(1)
        assert value == typed
        said = re.search(r'you said <span class="given">([^<]*)</span>', graded).group(1)
        assert said == shown
        assert ("field--right" in graded.split('for="f-current_total"')[0].rsplit("<div", 1)[-1]) == (typed == "1400")


@pytest.fixture
def exam_app(tmp_path):
    two = ExamTemplate(
        slug="two", title="Two spots", description="Two generated spots.", count=2, minutes=30, pass_mark=50,
        weights={"min-raise": 1, "side-pots": 1},
    )
    made = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SCENARIO_DIRS": [str(SCENARIOS)],
            "INSTANCE_DIR": str(tmp_path / "instance"),
            "EXAM_TEMPLATES": [two],
        }
    )
    yield made
    made.extensions["trainer.store"].dispose()


def test_two_exam_questions_shown_alternately_after_eviction_each_show_their_own_fields(exam_app):
    from sqlalchemy import select

    from trainer.store.models import ExamAttempt
    from trainer.web.exams import refs as exam_refs

    from tests.store.helpers import sign_up

    client = exam_app.test_client()
    sign_up(client, "ana@example.com", name="Ana")
    token = token_from(client.get("/exams/").text)
    started = client.post("/exams/two/start", data={"csrf_token": token, "candidate_name": "Ana Lee"})
    assert started.status_code == 303, started.text
    first = started.headers["Location"]
    with exam_app.extensions["trainer.store"].session() as s:
        refs = s.scalars(select(ExamAttempt.questions)).one()
    urls = {refs[0]: first, refs[1]: first[: -len("/1")] + "/2"}
    with exam_app.test_request_context("/"):
        own = {ref: {f.name for f in exam_refs.resolve(ref).quiz.fields()} for ref in refs}
    assert own[refs[0]] != own[refs[1]]
    wrong = []
    for _ in range(30):
        for ref, url in urls.items():
            spot_refs._generated.cache_clear()
            page = client.get(url)
            assert page.status_code == 200
            if _shown_fields(page.text) != own[ref]:
                wrong.append(ref)
    assert not wrong, f"{len(wrong)} of 60 question pages showed another spot's fields"


# ------------------------------------------------------------------ bounded

PROBE = r"""
import json, re, sys
from trainer.generate import topics
from trainer.web import create_app

def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

app = create_app({"TESTING": True, "SECRET_KEY": "probe", "INSTANCE_DIR": sys.argv[1], "SCENARIO_DIRS": [sys.argv[2]]})
client = app.test_client()
names = sorted(topics())
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
AMOUNT = re.compile(r'name="([^"]+)" type="text"')
CHOICE = re.compile(r'name="([^"]+)" value="([^"]+)"\s+type="(?:radio|checkbox)"')
count, warm = int(sys.argv[3]), int(sys.argv[4])
figures = {}
for i in range(count):
    ref = f"gen:{names[i % len(names)]}:{1 + i % 5}:{i}:0"
    page = client.get(f"/drill/{ref}", headers={"HX-Request": "true"} if i % 3 == 0 else {})
    assert page.status_code in (200, 404), (ref, page.status_code)
    if i % 10 == 0 and page.status_code == 200:  # and an answer: "1" in every box, the first of every choice
        form = {"csrf_token": TOKEN.search(page.text).group(1)}
        for name, value in CHOICE.findall(page.text):
            form.setdefault(name, value)
        form.update((name, "1") for name in AMOUNT.findall(page.text))
        assert client.post(f"/drill/{ref}", data=form, headers={"HX-Request": "true"}).status_code == 200
    if i + 1 == warm:
        figures["warm_mb"] = rss_mb()
figures["end_mb"] = rss_mb()
print(json.dumps(figures))
"""


def _grows(tmp_path, count: int, warm: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "instance"), str(SCENARIOS), str(count), str(warm)],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,
    )
    lines = done.stdout.splitlines()
    assert lines and done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(lines[0])
    return figures["end_mb"] - figures["warm_mb"]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the resident size from /proc")
def test_generated_spots_keep_the_process_within_its_bound(tmp_path):
    """1,100 distinct generated spots, opened one after another, every tenth answered: once the
    table of generated spots is full (512, here after 600) the process grows by less than 8 MB over
    the remaining 500 (a table without a bound grows it by about 37 KB a spot, 18 MB; the 20,000-spot
    run is under ``-m slow``)."""
    growth = _grows(tmp_path, 1_100, 600)
    assert growth < 8, f"grew {growth:.0f} MB over 500 spots after the table was full"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the resident size from /proc")
def test_twenty_thousand_generated_spots_keep_the_process_within_its_bound(tmp_path):
    growth = _grows(tmp_path, 20_000, 3_000)
    assert growth < 12, f"grew {growth:.0f} MB over 17,000 spots after the table was full"


def test_answers_with_the_same_verdicts_each_show_their_own_amounts(app):
    client = app.test_client()
    token = token_from(client.get(f"/drill/{BTN}").text)
    for headers in (HTMX, {}):  # the fragment, and the whole page a browser without JavaScript gets
        for typed in ("1500", "1,600", "１７００"):
            graded = client.post(
                f"/drill/{BTN}", data={**BTN_RIGHT, "current_total": typed, "csrf_token": token}, headers=headers
            ).text
            assert re.search(r'name="current_total"[^>]*value="([^"]*)"', graded).group(1) == typed
            assert "9 of 10 right" in graded


def test_answers_with_the_same_input_error_each_show_their_own_amounts(app):
    client = app.test_client()
    token = token_from(client.get(f"/drill/{BTN}").text)
    for typed in ("99999999", "88,888,888", "７７７７７７７７"):  # each more than the table holds
        answered = client.post(
            f"/drill/{BTN}", data={**BTN_RIGHT, "pot": typed, "csrf_token": token}, headers=HTMX
        ).text
        assert re.search(r'name="pot"[^>]*value="([^"]*)"', answered).group(1) == typed
        assert "more chips than anyone at this table has" in answered and "Nothing was graded" in answered


def test_every_answer_shows_its_own_amounts_in_the_form_and_the_answer_list_escaped(app):
    """A class types many amounts with the same verdicts: each answer shows its own, in the form
    and in the answer list, and unreadable amounts come back escaped."""
    client = app.test_client()
    token = token_from(client.get(f"/drill/{BTN}").text)

    def send(**typed: str) -> str:
        return client.post(f"/drill/{BTN}", data={**BTN_RIGHT, **typed, "csrf_token": token}, headers=HTMX).text

    # Wrong ① and ②, a first miss (hints, not the right values): the same verdicts every time.
    for total, full in (("1500", "900"), ("1,600", "800"), ("１７００", "700"), ("2100", "600")):
        graded = send(current_total=total, last_full_increment=full)
        assert re.search(r'name="current_total"[^>]*value="([^"]*)"', graded).group(1) == total
        assert re.search(r'name="last_full_increment"[^>]*value="([^"]*)"', graded).group(1) == full
        shown = int(total.translate(str.maketrans("１７０", "170")).replace(",", ""))
        assert f"you said <span class=\"given\">{shown:,}</span>; not right yet" in graded
        assert f"you said <span class=\"given\">{int(full.replace(',', '')):,}</span>; not right yet" in graded
        assert "8 of 10 right" in graded and "you said <span class=\"given\">1,000</span>" not in graded
    # Unreadable amounts (an input error, nothing graded), escaped.
    for typed in ("<b>1</b>", "1<i>", "&amp;<script>", "\"><p>"):
        answered = send(pot=typed)
        assert re.search(r'name="pot"[^>]*value="([^"]*)"', answered).group(1) == str(escape(typed))
        assert typed not in answered and "Nothing was graded" in answered
