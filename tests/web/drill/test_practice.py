"""Endless practice: generated spots per topic, the seed in the URL so a spot can be shared and replayed."""

import re

from tests.answers import HTMX, TOKEN, without_opened


def test_practice_redirects_to_a_seeded_spot_of_the_topic(client):
    response = client.get("/practice/short-all-in?level=3&seed=4242")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/drill/gen:short-all-in:3:4242:0?topic=short-all-in")


def test_without_a_seed_one_is_drawn_and_shown_in_the_url(client):
    first = client.get("/practice/side-pots").headers["Location"]
    assert re.search(r"/drill/gen:side-pots:1:\d+:0\?topic=side-pots$", first)  # level 1: nothing solved yet


def test_the_same_url_replays_the_same_spot_and_next_moves_on(client):
    url = "/drill/gen:reopening:3:77:0?topic=reopening"
    page = without_opened(client.get(url).text)
    again = without_opened(client.get(url).text)
    assert again == page.replace(TOKEN.search(page).group(1), TOKEN.search(again).group(1))
    answer = {name: "0" for name in ("current_total", "last_full_increment", "committed", "to_add", "call", "min_to", "max_to")}
    answer.update(csrf_token=TOKEN.search(page).group(1), acted="no", legal=["fold"])
    graded = client.post(url, data=answer, headers=HTMX).text
    assert 'href="/drill/gen:reopening:3:77:1?topic=reopening"' in graded  # "Next spot": same seed, next index
    assert client.get("/drill/gen:reopening:3:77:1?topic=reopening").status_code == 200


def test_a_generated_spot_is_graded(client):
    url = "/drill/gen:min-raise:2:5:0"
    page = client.get(url).text
    token = TOKEN.search(page).group(1)
    graded = client.post(url, data={"csrf_token": token, "current_total": "abc"}, headers=HTMX)
    assert graded.status_code == 200
    assert "csrf_token" in graded.text or "abc" in graded.text


def test_unknown_topic_or_reference_is_a_friendly_404(client):
    assert client.get("/practice/no-such-topic").status_code == 404
    assert client.get("/drill/gen:no-such-topic:2:1:0").status_code == 404
    assert client.get("/drill/gen:min-raise:9:1:0").status_code == 404
    assert client.get("/drill/gen:garbage").status_code == 404


def test_topic_page_offers_endless_practice_for_generator_topics(client):
    assert "/practice/reopen" not in client.get("/topics/reopen").text  # a library tag the generator does not know
    assert client.get("/practice/reopening").status_code == 302
