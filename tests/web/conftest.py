"""Fixtures in the flaskr style: ``app`` -> ``client``, built from this folder's scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.web import create_app

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
BROKEN = HERE.parents[1] / "fixtures" / "scenarios-broken"  # kept out of tests/ so `trainer check tests/` stays green

from tests.answers import BTN_RIGHT, HTMX, TOKEN  # noqa: F401  (re-exported to the web tests)


@pytest.fixture
def app(migrated_instance):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SCENARIO_DIRS": [str(SCENARIOS)],
            "INSTANCE_DIR": str(migrated_instance),
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def token_from(html: str) -> str:
    match = TOKEN.search(html)
    assert match, "the page has no CSRF token field"
    return match.group(1)


class Drill:
    """A learner on one drill page: opens it, then submits answers."""

    def __init__(self, client, scenario_id: str):
        self.client = client
        self.url = f"/drill/{scenario_id}"
        page = client.get(self.url)
        assert page.status_code == 200
        self.token = token_from(page.text)

    def submit(self, answer: dict, *, htmx: bool = False, headers: dict | None = None):
        data = {"csrf_token": self.token, **answer}
        sent = {**(HTMX if htmx else {}), **(headers or {})}
        return self.client.post(self.url, data=data, headers=sent)


@pytest.fixture
def drill(client):
    return lambda scenario_id: Drill(client, scenario_id)


