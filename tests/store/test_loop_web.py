"""The learning loop through the web app: the path, a home page that remembers, review, progress."""

from __future__ import annotations

import re
from datetime import timedelta

from trainer.store import progress
from trainer.store.models import now

from tests.answers import typed_right

from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, answer_drill, post_form

MIN_RAISE = "seed001-min-raise"


def right_answer(app, scenario_id: str) -> dict:
    """What a learner who knows the rules types for a spot of the test library."""
    with app.test_request_context():
        from trainer.web.core.libraries import library

        entry = library().get(scenario_id)
    return typed_right(entry.quiz)


def learner_of(client) -> str:
    with client.session_transaction() as session:
        return session["learner"]


def history(app, learner: str, spots: list[str], *, hours_ago: int, right: bool) -> None:
    """Answers given earlier (the store keeps their time), as if on another day of this learner's."""
    store = app.extensions["trainer.store"]
    with store.session() as s:
        for i, spot in enumerate(spots):
            progress.record(s, learner_id=learner, scenario_id=spot, topics=["reopening"], rules=[],
                            answers={}, marks={"to_add": right, "pot": True}, duration_ms=None,
                            at=now() - timedelta(hours=hours_ago, minutes=len(spots) - i))
        s.commit()


def next_link(html: str) -> str:
    return re.search(r'class="button button--primary" data-key="n"[^>]* href="([^"]+)">', html).group(1).replace("&amp;", "&")


# ---- item 3: the path


def test_topics_are_listed_in_teaching_order_not_by_name(client):
    html = client.get("/").text
    shown = re.findall(r'href="/topics/([\w-]+)"', html)
    assert shown == ["min-raise", "short-all-in", "reopening", "side-pots", "showdown"]


def test_next_stays_in_the_topic_goes_up_a_level_then_on_along_the_path_saying_so(app, client):
    # side-pots walks seed004-side-pot (level 2), then uncalled-river (level 3)
    first = answer_drill(client, "seed004-side-pot?topic=side-pots", right_answer(app, "seed004-side-pot")).text
    assert next_link(first) == "/drill/uncalled-river?topic=side-pots"
    assert "Level 2 of this topic is done; next comes level 3." in first


def test_a_spot_is_walked_in_its_first_topic_and_met_once_on_the_path(client):
    """btn-faces-short-all-in is a short all-in spot tagged with reopening too: the path walks it in
    short-all-in and goes on to reopening's own spot, not to the same spot again; opened from
    reopening's page, where it is listed apart, it goes on from its own topic the same way."""
    walked = answer_drill(client, f"{BTN}?topic=short-all-in", BTN_RIGHT).text
    assert next_link(walked) == "/drill/sb-not-reopened?topic=reopening"
    assert "Next on the path: “Reopening the betting”." in walked
    tagged = answer_drill(client, f"{BTN}?topic=reopening", BTN_RIGHT).text
    assert next_link(tagged) == "/drill/sb-not-reopened?topic=reopening"
    page = client.get("/topics/reopening").text
    own, _, also = page.partition('id="also-h"')
    assert "/drill/sb-not-reopened?topic=reopening" in own and BTN not in own
    assert f"/drill/{BTN}?topic=short-all-in" in also


def test_the_last_spot_of_a_topic_says_where_the_path_goes_next(app, client):
    html = answer_drill(client, "sb-not-reopened?topic=reopening", right_answer(app, "sb-not-reopened")).text
    assert next_link(html) == "/drill/seed004-side-pot?topic=side-pots"
    assert "You have been through every spot of “Reopening the betting”. Next on the path: “Main and side pots”." in html


def test_start_then_next_walks_the_first_topic_of_the_path(client):
    start = client.get("/start").headers["Location"]
    assert start.endswith(f"/drill/{MIN_RAISE}?topic=min-raise")


def test_lists_mark_each_spot_new_solved_or_missed_by_the_first_try(app, client):
    answer_drill(client, BTN, BTN_TWO_WRONG)  # missed at the first try...
    answer_drill(client, BTN, BTN_RIGHT)  # ...and right after seeing the answer: still missed
    answer_drill(client, "sb-not-reopened", right_answer(app, "sb-not-reopened"))
    html = client.get("/topics/reopening").text
    marks = dict(re.findall(r'<li class="spot spot--(\w+)">.*?href="/drill/([\w-]+)', html, re.S))
    assert {v: k for k, v in marks.items()} == {BTN: "missed", "sb-not-reopened": "solved"}
    everything = client.get("/scenarios").text
    assert everything.count("spot--new") == 5 and everything.count("spot--solved") == 1
    assert app.test_client().get("/topics/reopening").text.count("spot--new") == 2  # someone else: all new


def test_endless_practice_follows_the_level_shown(client):
    html = client.get("/topics/reopening?level=3").text
    assert 'href="/practice/reopening?level=3"' in html
    assert "Endless practice at level 3" in html
    shown = client.get("/topics/reopening").text  # nothing solved in the topic yet: level 1
    assert 'href="/practice/reopening?level=1"' in shown
    assert "Level 1 until you solve a spot of this topic at the first try." in shown
    assert ":3:" in client.get("/practice/reopening?level=3").headers["Location"]


# ---- item 4: a home page that remembers


def test_a_first_visit_gets_start_practising_and_a_returning_learner_where_they_were(client):
    first = client.get("/").text
    assert "Start practising" in first and "Continue:" not in first
    answer_drill(client, f"{BTN}?topic=reopening", BTN_TWO_WRONG)
    html = client.get("/").text
    assert "Start practising" not in html
    assert "Continue: Reopening the betting, spot 1 of 1" in html
    assert 'href="/drill/sb-not-reopened?topic=reopening"' in html
    assert "Streak: 1 day in a row" in html
    assert "Review:" not in html  # review is opt-in


def test_the_home_page_continues_in_the_topic_the_learner_walked(client):
    answer_drill(client, f"{BTN}?topic=short-all-in", BTN_RIGHT)
    html = client.get("/").text
    # short-all-in has that one spot: the path goes on to reopening, whose own spot is next
    assert "Continue: Reopening the betting, spot 1 of 1" in html


def test_continue_and_start_go_to_a_spot_not_answered_yet(app, client):
    """After a review Continue offered the spot after the reviewed one, already solved; /start
    reopened the path's first spot for a learner who had solved it, and ignored ?topic=."""
    answered = (MIN_RAISE, BTN, "sb-not-reopened")
    answer_drill(client, f"{MIN_RAISE}?topic=min-raise", right_answer(app, MIN_RAISE))
    answer_drill(client, f"{BTN}?topic=reopening", BTN_RIGHT)
    answer_drill(client, "sb-not-reopened?topic=reopening", right_answer(app, "sb-not-reopened"))
    answer_drill(client, f"{MIN_RAISE}?topic=min-raise&review=1", right_answer(app, MIN_RAISE))  # a review, last
    going = re.search(r'id="continue" href="/drill/([\w-]+)\?', client.get("/").text).group(1)
    assert going not in answered
    start = client.get("/start").headers["Location"]
    assert f"/drill/{going}?" in start
    assert client.get("/start?topic=side-pots").headers["Location"].endswith("?topic=side-pots")
    # a topic whose spots are all answered starts at its first
    assert client.get("/start?topic=reopening").headers["Location"].endswith("/drill/sb-not-reopened?topic=reopening")


def test_turning_review_on_schedules_only_what_was_missed(app, client):
    answer_drill(client, BTN, BTN_TWO_WRONG)
    me = learner_of(client)
    history(app, me, [MIN_RAISE], hours_ago=3, right=True)
    history(app, me, ["sb-not-reopened"], hours_ago=2, right=False)
    page = client.get("/progress/").text
    assert "Review:" not in page and "Turn spaced repetition on" in page
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    # the spot missed hours ago is due; the one solved then comes back in days; the one missed
    # seconds ago comes back within minutes
    assert "Review: 1 due" in client.get("/").text
    assert "Review: 1 due" in client.get("/progress/").text
    assert client.get("/progress/review").headers["Location"].endswith(
        "/drill/sb-not-reopened?topic=reopening&review=1"
    )


def test_home_and_progress_count_the_same_due_spots_and_the_queue_can_be_emptied(app, client):
    """A missed endless-practice spot got a card the review never serves: the progress page said
    "Review: 4 due" beside the home page's 2, and no walk through the queue brought it to 0."""
    answer_drill(client, BTN, BTN_TWO_WRONG)
    me = learner_of(client)
    history(app, me, ["gen-min-raise-3-350163-0", "gen-min-raise-3-350163-1", "sb-not-reopened"], hours_ago=2, right=False)
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    assert "Review: 1 due" in client.get("/").text and "Review: 1 due" in client.get("/progress/").text
    at = client.get("/progress/review").headers["Location"]
    post_form(client, at, right_answer(app, "sb-not-reopened"))
    assert "Review: nothing due now." in client.get("/").text
    assert "Review: nothing due now." in client.get("/progress/").text


def test_a_review_session_walks_the_due_queue_and_the_count_drops(app, client):
    answer_drill(client, "seed004-side-pot", right_answer(app, "seed004-side-pot"))  # solved: not due for days
    me = learner_of(client)
    history(app, me, [BTN, "sb-not-reopened", MIN_RAISE], hours_ago=2, right=False)
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    assert "Review: 3 due" in client.get("/").text
    order = []
    for remaining in (2, 1, 0):
        at = client.get("/progress/review").headers["Location"]
        spot = re.search(r"/drill/([\w-]+)\?", at).group(1)
        order.append(spot)
        html = post_form(client, at, right_answer(app, spot)).text
        assert "All" in html and next_link(html) == "/progress/review"  # Next: the next due spot
        # the last one says where Next goes now, though the same page was kept when others were due
        said = "Next due spot" if remaining else "Nothing else is due: back to the start"
        assert said in html and ("Next due spot" in html) == bool(remaining)
        home = client.get("/").text
        assert (f"Review: {remaining} due" in home) if remaining else "Review: nothing due now." in home
    assert order == [BTN, "sb-not-reopened", MIN_RAISE]  # most overdue first
    assert client.get("/progress/review").headers["Location"].endswith("/?reviewed=1")
    assert "Review done" in client.get("/?reviewed=1").text


def test_a_kept_review_page_says_for_each_learner_whether_anything_else_is_due(app, client):
    other = app.test_client()
    for learner, spots in ((client, [BTN, MIN_RAISE]), (other, [BTN])):
        answer_drill(learner, "seed004-side-pot", right_answer(app, "seed004-side-pot"))  # solved: not due for days
        history(app, learner_of(learner), spots, hours_ago=2, right=False)
        post_form(learner, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    at = client.get("/progress/review").headers["Location"]
    assert f"/drill/{BTN}?" in at and at == other.get("/progress/review").headers["Location"]
    first = post_form(client, at, BTN_RIGHT).text
    second = post_form(other, at, BTN_RIGHT).text  # the same spot, answer and topic: the kept page
    assert "Next due spot" in first and "Nothing else is due" not in first
    assert "Nothing else is due: back to the start" in second and "Next due spot" not in second


# ---- item 7: progress that tells the truth


def test_progress_headlines_spots_solved_at_the_first_try_and_the_column_missed(app, client):
    answer_drill(client, BTN, BTN_TWO_WRONG)  # ② and the minimum raise wrong
    answer_drill(client, BTN, BTN_RIGHT)
    answer_drill(client, "sb-not-reopened", right_answer(app, "sb-not-reopened"))
    html = client.get("/progress/").text
    solved = re.search(r'<table class="stats" id="solved">.*?</table>', html, re.S).group(0)
    rows = dict(re.findall(r'<th scope="row">([^<]+)</th><td class="num">(\d+)%</td>', solved))
    assert rows == {"Short all-ins": "0", "Reopening the betting": "50"}
    columns = re.search(r'<ul class="columns" id="columns">.*?</ul>', html, re.S).group(0)
    assert "② last full increment: </strong>wrong in 1 of 2 first tries (50%)" in columns
    # BTN, missed at its first try and right since, is not "still missed" (the topic list marks it missed)
    assert "Spots still missed" in html and f'href="/drill/{BTN}"' not in html.split('id="misses-h"')[1]
    zh = client.get("/progress/?lang=zh-Hant").text
    zh_columns = re.search(r'<ul class="columns" id="columns">.*?</ul>', zh, re.S).group(0)
    assert re.search(r"<strong>[^<]+：</strong>", zh_columns) and ": " not in zh_columns  # a full-width colon
    assert "You miss it most in: Short all-ins (1 of 1), Reopening the betting (1 of 2)" in columns
    chart = re.search(r'<svg class="chart chart--wide"[^>]*"chart-title .*?</svg>', html, re.S).group(0)
    assert "all right" in chart and "date" in chart and "100%" in chart
    assert len(re.findall(r'class="chart-tick"', chart)) == 5  # five dates along the 30 days
    # the phone's drawing: the same axes, three dates, its own ids
    phone = re.search(r'<svg class="chart chart--narrow"[^>]*"chart-title-narrow .*?</svg>', html, re.S).group(0)
    assert "all right" in phone and "100%" in phone and 'id="chart-title-narrow"' in phone
    assert len(re.findall(r'class="chart-tick"', phone)) == 3


def test_a_returning_learners_pages_speak_chinese(app, client):
    from tests.web.core.test_i18n import leftovers

    answer_drill(client, f"{BTN}?topic=reopening", BTN_TWO_WRONG)
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    for lang, word in (("zh-Hant", "繼續"), ("zh-Hans", "继续")):
        home = client.get(f"/?lang={lang}").text
        assert word in home and "Continue" not in home
        for page in (home, client.get("/progress/").text, client.get("/topics/reopening").text):
            assert leftovers(page) == []
            assert not re.search(r">[^<]*(Review|Streak|Solved|solved|missed|first tr)", page)


def test_the_drill_page_says_how_the_first_try_went(app, client):
    def line(html):
        found = re.search(r'<p class="first-try first-try--(\w+)">.*?</p>', html, re.S)
        return found.group(1) if found else None

    assert line(client.get(f"/drill/{BTN}").text) is None  # new
    graded = answer_drill(client, BTN, BTN_TWO_WRONG).text  # the graded page without JavaScript: no line
    assert line(graded) is None and "first-try-" not in graded
    answer_drill(client, BTN, BTN_RIGHT)
    page = client.get(f"/drill/{BTN}?topic=reopening").text
    assert line(page) == "missed" and "counts as missed in your progress" in page  # the first try decides
    answer_drill(client, "sb-not-reopened", right_answer(app, "sb-not-reopened"))
    assert line(client.get("/drill/sb-not-reopened").text) == "solved"
    assert line(app.test_client().get("/drill/sb-not-reopened").text) is None  # another learner


def test_the_first_try_line_is_in_each_pages_language(app, client):
    """The line is made once per language and kept: a learner switching back and forth reads it in the
    language of each page, and another learner's language does not leak into it."""
    answer_drill(client, "sb-not-reopened", right_answer(app, "sb-not-reopened"))
    answer_drill(client, BTN, BTN_TWO_WRONG)
    lines = {
        "en": ("You solved this spot at the first try.", "counts as missed in your progress"),
        "zh-Hant": ("這個牌局你第一次就答對了。", None),
        "zh-Hans": ("这个牌局你第一次就答对了。", None),
    }
    for lang in ("zh-Hant", "en", "zh-Hans", "en", "zh-Hant"):
        solved, missed = lines[lang]
        page = client.get(f"/drill/sb-not-reopened?lang={lang}").text
        assert f'lang="{lang}"' in page
        line = re.search(r'<p class="first-try first-try--solved">.*?</p>', page, re.S).group(0)
        assert solved in line, (lang, line)
        other = client.get(f"/drill/{BTN}").text  # the language kept from ?lang=
        line = re.sub(r"<[^>]+>", "", re.search(r'<p class="first-try first-try--missed">.*?</p>', other, re.S).group(0))
        assert (missed in line) if missed else not re.search(r"[A-Za-z]", line), (lang, line)
