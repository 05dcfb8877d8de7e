"""Glicko-2 ratings: moved by a learner's first try at a spot only, in the attempts' own
transaction, and never losing an update when two processes rate the same spot at once."""

from __future__ import annotations

import multiprocessing
import re
from datetime import UTC, datetime, timedelta

import glicko2
import pytest
from sqlalchemy import func, select, text

from trainer.store import Store, progress, ratings
from trainer.store.learners import new_id
from trainer.store.models import Rating, RatingGame

from tests.store.helpers import BTN, BTN_RIGHT, BTN_TWO_WRONG, answer_drill, migrated

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
SPOT = "btn-faces-short-all-in"


def attempt(s, learner, right: bool, *, spot=SPOT, level=2, at=NOW, answer_id=None, generated=False):
    change = progress.record(
        s, learner_id=learner, scenario_id=spot, topics=["short-all-in"], rules=["R-REOPEN"],
        answers={"a": ["1"], "b": ["2"]}, marks={"a": right, "b": right}, duration_ms=1000, at=at,
        answer_id=answer_id, rating={"level": level, "generated": generated},
    )
    s.commit()
    return change


def figures(s, subject):
    return s.execute(select(Rating.rating, Rating.rd, Rating.vol, Rating.games).where(Rating.subject == subject)).one()


def test_a_first_try_is_a_glicko2_game_between_the_learner_and_the_spot(s):
    learner = new_id()
    change = attempt(s, learner, right=True, level=2)
    # the same game, played by the package itself: a new learner (1500) beats a level-2 spot (1350)
    expected_learner = glicko2.Player(rating=1500, rd=ratings.START_RD)
    expected_spot = glicko2.Player(rating=1350, rd=ratings.SPOT_RD)
    expected_learner.update_player([1350], [ratings.SPOT_RD], [1])
    expected_spot.update_player([1500], [ratings.START_RD], [0])
    assert change.rating == pytest.approx(expected_learner.getRating())
    assert change.delta == round(expected_learner.getRating()) - 1500 > 0
    assert figures(s, ratings.learner_subject(learner))[0] == pytest.approx(expected_learner.getRating())
    spot = figures(s, ratings.spot_subject(SPOT))
    assert spot[0] == pytest.approx(expected_spot.getRating()) and spot[3] == 1


def test_a_library_spot_starts_sure_of_its_level_so_one_learner_moves_it_little(s):
    """At a learner's deviation (350) a new learner missing a level-1 spot moved it up 270 points:
    a spot's rating said who met it first. It starts at SPOT_RD (150): tens of points (82 against
    a new learner's START_RD)."""
    attempt(s, new_id(), right=False, level=1)
    rating, rd, _vol, games = figures(s, ratings.spot_subject(SPOT))
    assert games == 1 and 0 < rating - ratings.level_rating(1) < 100 and rd < ratings.SPOT_RD


def test_a_miss_at_the_first_try_lowers_the_learner_and_raises_the_spot(s):
    learner = new_id()
    change = attempt(s, learner, right=False, level=3)
    assert change.delta < 0
    assert figures(s, ratings.spot_subject(SPOT))[0] > 1500


def test_only_the_first_try_moves_the_ratings_not_the_retries(s):
    learner = new_id()
    first = attempt(s, learner, right=False)
    before = figures(s, ratings.learner_subject(learner)), figures(s, ratings.spot_subject(SPOT))
    for minutes in (1, 2):  # answered right afterwards: a retry, after hints or the worked answer
        assert attempt(s, learner, right=True, at=NOW + timedelta(minutes=minutes)) is None
    assert (figures(s, ratings.learner_subject(learner)), figures(s, ratings.spot_subject(SPOT))) == before
    assert first is not None and s.scalar(select(func.count()).select_from(RatingGame)) == 1


def test_the_same_answer_sent_again_plays_no_second_game(s):
    learner = new_id()
    assert attempt(s, learner, right=True, answer_id="a" * 32) is not None
    assert attempt(s, learner, right=True, answer_id="a" * 32) is None
    assert figures(s, ratings.learner_subject(learner))[3] == 1


def test_one_batch_with_two_first_tries_at_one_spot_plays_one_game(s):
    learner = new_id()
    row = {"learner_id": learner, "scenario_id": SPOT, "topics": [], "rules": [], "answers": {}, "marks": {"a": True},
           "duration_ms": None, "at": NOW, "rating": {"level": 2}}
    changes = progress.record_many(s, [{**row, "answer_id": "b" * 32}, {**row, "answer_id": "c" * 32, "at": NOW + timedelta(seconds=1)}])
    s.commit()
    assert changes[0] is not None and changes[1] is None
    assert figures(s, ratings.learner_subject(learner))[3] == 1


def test_a_generated_spot_moves_the_learner_against_its_level_and_stores_no_spot(s):
    learner = new_id()
    change = attempt(s, learner, right=True, spot="gen-reopening-5-7-0", level=5, generated=True)
    expected = glicko2.Player(rating=1500, rd=ratings.START_RD)
    expected.update_player([ratings.level_rating(5)], [ratings.GENERATED_RD], [1])
    assert change.rating == pytest.approx(expected.getRating())
    assert s.scalar(select(func.count()).select_from(Rating).where(Rating.subject.like("spot:%"))) == 0


def test_spots_answered_before_ratings_count_as_played_and_it_goes_back_down(store):
    """The migration claims the first tries already stored: answering such a spot again moves nothing."""
    from alembic import command

    at = migrated(store)

    learner = new_id()
    at("0005_exam_trust", command.downgrade)
    with store.engine.begin() as connection:  # stored before ratings: no rating game played
        connection.execute(text("INSERT INTO learners (id, srs_enabled, created_at) VALUES (:l, false, '2026-06-15 12:00:00')"),
                           {"l": learner})
        connection.execute(text(
            "INSERT INTO attempts (learner_id, scenario_id, topics, rules, answers, marks, \"right\", total, created_at) "
            "VALUES (:l, :s, '[]', '[]', '{}', '{\"a\": false}', 0, 1, '2026-06-15 12:00:00')"
        ), {"l": learner, "s": SPOT})
    at("head", command.upgrade)
    with store.session() as s:
        assert s.execute(select(RatingGame.learner_id, RatingGame.solved)).all() == [(learner, None)]
        assert attempt(s, learner, right=True, at=NOW + timedelta(minutes=1)) is None


# ---- what a learner feels: a score for what was right


def graded(s, learner, right: int, of: int, *, level=1, spot=SPOT, at=NOW, generated=False):
    """A first try with ``right`` fields of ``of`` right."""
    change = progress.record(
        s, learner_id=learner, scenario_id=spot, topics=["short-all-in"], rules=["R-REOPEN"],
        answers={}, marks={f"f{n}": n < right for n in range(of)}, duration_ms=1000, at=at,
        rating={"level": level, "generated": generated},
    )
    s.commit()
    return change


def test_a_near_miss_costs_a_new_learner_far_less_than_a_blank_answer(s):
    """Four fields of five right on a level-1 spot cost a new learner 387 points, as much as none
    right: the score is now the share of fields right."""
    near = graded(s, new_id(), 4, 5, spot="spot-a")
    blank = graded(s, new_id(), 0, 5, spot="spot-b")
    assert -100 < near.delta < 0
    assert blank.delta < 5 * near.delta
    assert graded(s, new_id(), 5, 5, spot="spot-c").delta > 0


def test_a_new_learners_first_game_moves_a_sensible_amount_both_ways(s):
    """At Glicko-2's default deviation a new learner's first game swung 357 points either way."""
    easiest_blank = graded(s, new_id(), 0, 2, level=1, spot="spot-a").delta
    easiest_solved = graded(s, new_id(), 2, 2, level=1, spot="spot-b").delta
    hardest_blank = graded(s, new_id(), 0, 2, level=5, spot="spot-c").delta
    hardest_solved = graded(s, new_id(), 2, 2, level=5, spot="spot-d").delta
    assert -160 < easiest_blank < -100 and 100 < hardest_solved < 160  # the surprises: tens, not hundreds
    assert 20 < easiest_solved < 50 and -50 < hardest_blank < -20  # the expected: less, but felt
    # a generated spot plays its level the same way
    assert -160 < graded(s, new_id(), 0, 2, level=1, spot="gen-reopening-1-0-0", generated=True).delta < -100


def test_the_rating_history_keeps_the_rating_after_each_game_oldest_first(s):
    learner = new_id()
    changes = [graded(s, learner, right, 4, spot=f"spot-{n}", at=NOW + timedelta(minutes=n))
               for n, right in enumerate((4, 1, 3))]
    points = ratings.history(s.connection(), learner)
    assert [p.rating for p in points] == pytest.approx([c.rating for c in changes])
    assert [p.score for p in points] == [1.0, 0.25, 0.75]
    assert ratings.history(s.connection(), new_id()) == []


# ---- two processes at once


def _rate_many(url: str, schema: str | None, learners: list[str], start, results) -> None:
    made = Store(url, schema=schema)
    start.wait()
    try:
        for learner in learners:
            with made.session() as s:
                for _try in range(20):  # SQLite's writer waits its turn; a PostgreSQL deadlock is retried
                    try:
                        attempt(s, learner, right=False)
                        break
                    except Exception:
                        s.rollback()
        results.put(len(learners))
    finally:
        made.dispose()


def test_two_processes_rating_one_spot_at_once_lose_no_update(store, database):
    """Each game moves the spot's row under a lock: with 2 × 15 first tries at once, the spot has
    played 30 games and its figures are the 30 games' in the order they were committed."""
    n = 15
    groups = [[new_id() for _ in range(n)] for _ in range(2)]
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_rate_many, args=(database["DATABASE_URL"], database["DATABASE_SCHEMA"], g, start, results))
             for g in groups]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert sorted(results.get(timeout=5) for _ in procs) == [n, n]
    with store.session() as s:
        spot = figures(s, ratings.spot_subject(SPOT))
        assert spot[3] == 2 * n
        assert s.scalar(select(func.count()).select_from(RatingGame)) == 2 * n
        # every learner lost once to the spot, each game against the spot's figures of that moment:
        # replaying the games in commit order gives the stored figures (a lost update would not)
        order = [r for (r,) in s.execute(select(RatingGame.learner_id).order_by(RatingGame.id))]
    player = glicko2.Player(rating=ratings.level_rating(2), rd=ratings.SPOT_RD)
    for _learner in order:
        player.update_player([1500], [ratings.START_RD], [1])
    assert spot[0] == pytest.approx(player.getRating())


# ---- through the drill


def test_the_drill_shows_the_rating_and_its_change_after_a_first_try_only(client):
    html = answer_drill(client, BTN, BTN_TWO_WRONG).text
    line = re.search(
        r'<p class="rating-line" id="rating-line">Your rating: ([\d,]+) \(([+−]\d+)\)'
        r'<span class="rating-spot"> · This spot(?:&#39;|\')s rating: ([\d,]+)</span></p>',
        html,
    )
    assert line  # two fields wrong of the spot's: the share right decides the sign (tested above)
    assert line.group(3) == f"{ratings.level_rating(2):,.0f}"  # a level-2 spot met first: where level 2 starts (1,350)
    again = answer_drill(client, BTN, BTN_RIGHT).text
    assert 'id="rating-line"' not in again and "rating-" not in again.split('id="feedback"')[1][:200]
    progress_page = client.get("/progress/").text
    assert f"<strong>{line.group(1)}</strong> · after 1 rated first try" in progress_page


def test_the_progress_page_draws_the_rating_after_each_first_try(client):
    assert 'id="rating-chart"' not in client.get("/progress/").text
    answer_drill(client, BTN, BTN_TWO_WRONG)
    answer_drill(client, BTN, BTN_RIGHT)  # a retry: no game, no point
    chart = client.get("/progress/").text.split('id="rating-chart"')[1].split("</figure>")[0]
    assert "Your rating after each rated first try, the last 1" in chart
    assert chart.count('class="chart-dot"') == 2  # one game, in the wide drawing and the narrow one
    shown = re.search(r"<strong>([\d,]+)</strong>", client.get("/progress/").text).group(1)
    assert re.search(rf": {shown} after a first try with \d+% of its fields right</title>", chart)


def test_endless_practice_draws_near_the_rating_but_at_most_a_level_above_what_was_solved(client):
    assert ":1:" in client.get("/practice/reopening").headers["Location"]  # nothing solved in the topic yet
    answer_drill(client, BTN, BTN_RIGHT)  # a new learner beating a level-2 spot: 1555, nearest level 3's 1500
    assert ":3:" in client.get("/practice/reopening").headers["Location"]  # the rating's, one above the level solved
    topic = client.get("/topics/reopening").text
    assert 'href="/practice/reopening?level=3"' in topic and "Endless practice at level 3" in topic
    assert 'id="endless-why"' not in topic  # the rating's own level: no cap to explain
    assert "1 spot in the library · level 3" in topic  # its own; the level-2 spot is a short all-in's
    assert "spots of level 4" not in client.get("/progress/").text
    assert ":1:" in client.get("/practice/reopening?level=1").headers["Location"]  # a level asked for stays


def test_a_generated_spot_solved_at_the_first_try_raises_the_cap_of_its_topic(app, client):
    from tests.answers import typed_right
    from trainer.web.core import spot_refs

    spot = "gen:reopening:3:5:0"
    with app.test_request_context():
        right = typed_right(spot_refs.resolve(spot).quiz)
    answer_drill(client, spot, right)  # a level-3 spot solved: rating near level 4
    assert ":4:" in client.get("/practice/reopening").headers["Location"]
    assert ":1:" in client.get("/practice/min-raise").headers["Location"]  # another topic: nothing solved there


# ---- a spot in two steps: solved only when every field of every step was right at the first try

CARD = ("current_total", "last_full_increment", "committed", "acted", "to_add")
CARD_RIGHT = {k: v for k, v in BTN_RIGHT.items() if k in CARD}
OPTIONS_RIGHT = {k: v for k, v in BTN_RIGHT.items() if k not in CARD}


def test_a_right_card_alone_decides_nothing_then_a_right_step_two_solves_the_spot(app, client):
    from trainer.store import progress as stats

    from trainer.store import db

    first = answer_drill(client, BTN, {**CARD_RIGHT, "stage": "1"}).text
    assert 'id="rating-line"' not in first  # undecided: no rating game yet
    with app.app_context():
        assert db().scalar(select(func.count()).select_from(RatingGame)) == 0
    html = answer_drill(client, BTN, {**OPTIONS_RIGHT, "stage": "2", "clean": "1"}).text
    assert re.search(r'id="rating-line">Your rating: [\d,]+ \(\+\d+\)', html)
    with app.app_context():
        learner = db().scalar(select(RatingGame.learner_id))
        assert stats.first_tries(db(), learner) == {BTN: True}
    assert "You solved this spot at the first try." in client.get(f"/drill/{BTN}").text


def test_a_miss_at_step_two_leaves_the_spot_missed_though_a_retry_is_right(app, client):
    from trainer.store import db
    from trainer.store import progress as stats

    answer_drill(client, BTN, {**CARD_RIGHT, "stage": "1"})
    missed = answer_drill(client, BTN, {**OPTIONS_RIGHT, "min_to": "1800", "stage": "2", "clean": "1"}).text
    assert re.search(r'id="rating-line">Your rating: [\d,]+ \([+−]\d+\)', missed)  # a game, scored by its share right
    answer_drill(client, BTN, {**OPTIONS_RIGHT, "stage": "2", "clean": "1", "missed": "1"})
    with app.app_context():
        learner = db().scalar(select(RatingGame.learner_id))
        assert stats.first_tries(db(), learner) == {BTN: False}
        columns = {c.key: c.wrong for c in stats.columns(db(), learner, 30)}
        assert columns["options"] == 1 and columns["last_full_increment"] == 0


def test_a_miss_at_step_one_decides_the_spot_at_once(app, client):
    from trainer.store import db
    from trainer.store import progress as stats

    html = answer_drill(client, BTN, {**CARD_RIGHT, "to_add": "1000", "stage": "1"}).text
    assert 'id="rating-line"' in html
    # then both steps right: the first try stays missed, and no second game is played
    answer_drill(client, BTN, {**CARD_RIGHT, "stage": "1", "missed": "1"})
    again = answer_drill(client, BTN, {**OPTIONS_RIGHT, "stage": "2", "clean": "0"}).text
    assert 'id="rating-line"' not in again
    with app.app_context():
        learner = db().scalar(select(RatingGame.learner_id))
        assert stats.first_tries(db(), learner) == {BTN: False}
        assert db().scalar(select(func.count()).select_from(RatingGame)) == 1


def test_review_hears_of_a_spot_in_steps_once_per_pass(app, client):
    from trainer.store import db
    from trainer.store.models import ReviewCard

    from tests.store.helpers import post_form

    from tests.store.test_loop_web import right_answer

    answer_drill(client, "sb-not-reopened", right_answer(app, "sb-not-reopened"))  # a learner with a history
    post_form(client, "/progress/", {"enabled": "yes"}, to="/progress/spaced-repetition")
    with app.app_context():
        before = db().scalar(select(func.count()).select_from(ReviewCard))

    answer_drill(client, BTN, {**CARD_RIGHT, "stage": "1"})
    with app.app_context():  # a right card decides nothing: no review yet
        assert db().scalar(select(func.count()).select_from(ReviewCard).where(ReviewCard.scenario_id == BTN)) == 0
    answer_drill(client, BTN, {**OPTIONS_RIGHT, "stage": "2", "clean": "1"})
    with app.app_context():  # the clean pass is the spot solved: it comes back in days
        card = db().scalars(select(ReviewCard).where(ReviewCard.scenario_id == BTN)).one()
        assert before >= 0 and (card.due - datetime.now(UTC)) > timedelta(days=1)


def test_a_step_two_form_made_by_hand_does_not_skip_the_card(app, client):
    """Posting only step 2 with clean=1 marked a never-answered spot solved and won a rating game
    (+359): a later step counts only after this learner's earlier step is stored."""
    from trainer.store import db
    from trainer.store import progress as stats

    forged = answer_drill(client, BTN, {**OPTIONS_RIGHT, "stage": "2", "clean": "1"}).text
    assert "answer the card first" in forged and 'id="rating-line"' not in forged
    assert 'name="stage" value="1"' in forged  # the spot again, from its card
    with app.app_context():
        assert db().scalar(select(func.count()).select_from(RatingGame)) == 0
        assert db().scalar(select(func.count()).select_from(stats.Attempt)) == 0
