"""Streaks: one miss ends it, each question counts once, the best is the longest."""

from __future__ import annotations

from trainer.store import streaks
from trainer.store.learners import new_id, sign_in, sign_up


def test_a_streak_goes_on_while_right_and_one_miss_ends_it(s):
    me = new_id()
    run = streaks.start(s, me, seed=7)
    for n in range(3):
        assert streaks.count(s, run, number=n, right=True)
    assert streaks.count(s, run, number=3, right=False)
    s.commit()
    assert (run.asked, run.missed) == (3, 3) and run.finished_at is not None
    assert not streaks.count(s, run, number=3, right=True)  # over: nothing more counts
    assert run.asked == 3 and streaks.best(s, me) == 3
    assert [r.id for r in streaks.recent(s, me)] == [run.id]


def test_an_answer_counts_once_and_only_for_the_question_shown(s):
    me = new_id()
    run = streaks.start(s, me, seed=1)
    assert streaks.count(s, run, number=0, right=True)
    assert not streaks.count(s, run, number=0, right=True)  # the same form sent again
    assert not streaks.count(s, run, number=0, right=False)  # an old tab's wrong answer ends nothing
    assert not streaks.count(s, run, number=5, right=True)  # a question not shown yet
    s.commit()
    assert run.asked == 1 and run.finished_at is None


def test_the_best_is_the_longest_streak_a_streak_going_on_included_and_nobody_elses(s):
    me, other = new_id(), new_id()
    first = streaks.start(s, me, seed=1)
    streaks.count(s, first, number=0, right=True)
    streaks.count(s, first, number=1, right=False)
    going = streaks.start(s, me, seed=2)
    for n in range(4):
        streaks.count(s, going, number=n, right=True)
    theirs = streaks.start(s, other, seed=3)
    for n in range(9):
        streaks.count(s, theirs, number=n, right=True)
    s.commit()
    assert streaks.best(s, me) == 4 and streaks.best(s, me, but=going) == 1
    assert streaks.best(s, new_id()) is None
    missed_first = streaks.start(s, new_id(), seed=4)
    streaks.count(s, missed_first, number=0, right=False)
    assert streaks.best(s, missed_first.learner_id) is None


def test_signing_in_brings_the_browsers_streaks_along(s):
    _account, mine = sign_up(s, email="fa@example.com", password="password1", name="Fa", instructor=False,
                             learner_id=None)
    s.commit()
    browser = new_id()
    run = streaks.start(s, browser, seed=5)
    streaks.count(s, run, number=0, right=True)
    s.commit()
    sign_in(s, email="fa@example.com", password="password1", learner_id=browser)
    s.commit()
    assert streaks.best(s, mine.id) == 1
