"""A learner or an instructor driving the test client: forms with their CSRF token."""

from __future__ import annotations


from tests.answers import ANSWER_ID, BTN, BTN_RIGHT, HTMX, OPENED, TOKEN  # noqa: F401

BTN_TWO_WRONG = {**BTN_RIGHT, "last_full_increment": "400", "min_to": "1800"}


def migrated(store):
    """``at(revision, step)``: alembic's ``step`` (command.upgrade or command.downgrade) to
    ``revision`` on the test store, in its schema."""
    from trainer.store import migrate

    def at(revision, step):
        with store.engine.begin() as connection:
            step(migrate.config(connection, store.schema), revision)

    return at


def token(html: str) -> str:
    match = TOKEN.search(html)
    assert match, "the page has no CSRF token field"
    return match.group(1)


def post_form(client, page_url: str, data: dict, *, to: str | None = None, headers: dict | None = None):
    """Open ``page_url`` for a token, then post ``data`` to ``to`` (default: the same URL)."""
    page = client.get(page_url)
    assert page.status_code == 200, page.text
    hidden = {"csrf_token": token(page.text)}
    opened = OPENED.search(page.text)
    if opened:  # a drill form also says when it was opened, as a browser would send it
        hidden["opened"] = opened.group(1)
    return client.post(to or page_url, data={**hidden, **data}, headers=headers or {})


def answer_drill(client, scenario_id: str, answer: dict):
    return post_form(client, f"/drill/{scenario_id}", answer)


def sign_up(client, email: str, *, name: str = "Learner", instructor: bool = False, password: str = "password1"):
    data = {"email": email, "name": name, "password": password}
    if instructor:
        data["instructor"] = "yes"
    response = post_form(client, "/account/signup", data)
    assert response.status_code == 303, response.text
    return response


def sign_in(client, email: str, password: str = "password1"):
    return post_form(client, "/account/login", {"email": email, "password": password})
