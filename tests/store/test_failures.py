"""What a request that goes wrong still shows: the app's own error page, on both databases,
also when the failure left the transaction unusable or the cookie names an impossible account."""

from __future__ import annotations

import pytest

from trainer.store import db
from trainer.store.models import Account

from tests.store.helpers import sign_up

CRASH = "/test-only/crash-after-a-failed-flush"


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    for made in running_app(database, tmp_path, PROPAGATE_EXCEPTIONS=False):
        def crash():
            db().add(Account(email=None, password_hash="x", name="x"))  # NOT NULL: the flush fails
            db().flush()

        made.add_url_rule(CRASH, "test_only_crash", crash)
        yield made


def test_a_crash_after_a_failed_statement_still_gets_the_apps_own_error_page(app):
    client = app.test_client()
    sign_up(client, "teacher@example.com", instructor=True)  # the page's navigation reads the account
    response = client.get(CRASH)
    assert response.status_code == 500
    assert response.mimetype == "text/html"
    assert "Something went wrong on our side" in response.text and "Classroom" in response.text


@pytest.mark.parametrize("account_id", [10**30, -(10**30), 2**63, 2**31, True, 1.5, "1", [1]])
def test_a_signed_cookie_with_an_impossible_account_id_is_no_account(app, account_id):
    client = app.test_client()
    cookie = app.session_interface.get_signing_serializer(app).dumps({"account": account_id})
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    response = client.get("/classroom/")  # for accounts only: the visitor is sent to sign in
    assert response.status_code == 302 and "/account/login" in response.headers["Location"]
    assert client.get("/").status_code == 200
