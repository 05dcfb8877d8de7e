"""Accounts: sign up keeps this browser's history, sign in merges it, passwords are hashed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from trainer.store import progress
from trainer.store.learners import AccountError, new_id, sign_in, sign_up
from trainer.store.models import Account, Attempt, Learner, ReviewCard


def _attempt(s, learner_id: str, scenario_id: str = "spot-a", right: bool = True):
    return progress.record(
        s,
        learner_id=learner_id,
        scenario_id=scenario_id,
        topics=["min-raise"],
        rules=["R-MINRAISE"],
        answers={"to_add": ["1400"]},
        marks={"to_add": right, "pot": True},
        duration_ms=1200,
    )


def test_sign_up_takes_the_anonymous_history_along(s):
    anon = new_id()
    _attempt(s, anon)
    _attempt(s, anon, "spot-b", right=False)
    account, learner = sign_up(
        s, email=" Ana@Example.com ", password="correct horse", name="Ana", instructor=False, learner_id=anon
    )
    s.commit()
    # a learner of its own (a copy of the old cookie opens nothing of it), the history merged in
    assert learner.id != anon and learner.account_id == account.id and s.get(Learner, anon) is None
    assert account.email == "ana@example.com"
    assert account.password_hash != "correct horse" and "correct horse" not in account.password_hash
    assert s.scalar(select(func.count()).select_from(Attempt).where(Attempt.learner_id == learner.id)) == 2


def test_sign_in_on_another_device_merges_that_devices_history(s):
    first = new_id()
    _attempt(s, first)
    account, mine = sign_up(s, email="bo@example.com", password="password1", name="Bo", instructor=False, learner_id=first)
    s.commit()
    first = mine.id
    other = new_id()
    _attempt(s, other, "spot-c", right=False)
    progress.set_spaced_repetition(s, other, True)
    s.commit()
    signed, learner = sign_in(s, email="BO@example.com", password="password1", learner_id=other)
    s.commit()
    assert signed.id == account.id and learner.id == first
    assert s.get(Learner, other) is None
    owners = set(s.scalars(select(Attempt.learner_id)))
    assert owners == {first}
    assert s.scalar(select(ReviewCard.learner_id)) == first
    assert s.get(Learner, first).srs_enabled


def test_wrong_password_and_unknown_email_give_the_same_message(s):
    sign_up(s, email="cy@example.com", password="password1", name="Cy", instructor=True, learner_id=None)
    s.commit()
    with pytest.raises(AccountError) as wrong:
        sign_in(s, email="cy@example.com", password="password2", learner_id=None)
    with pytest.raises(AccountError) as unknown:
        sign_in(s, email="nobody@example.com", password="password1", learner_id=None)
    assert str(wrong.value) == str(unknown.value)


@pytest.mark.parametrize(
    ("email", "password", "name", "field"),
    [
        ("not-an-email", "password1", "Di", "email"),
        ("di@example.com", "short", "Di", "password"),
        ("di@example.com", "password1", "   ", "name"),
    ],
)
def test_sign_up_refuses_bad_input(s, email, password, name, field):
    with pytest.raises(AccountError) as exc:
        sign_up(s, email=email, password=password, name=name, instructor=False, learner_id=None)
    assert exc.value.field == field


def test_one_account_per_email(s):
    sign_up(s, email="ed@example.com", password="password1", name="Ed", instructor=False, learner_id=None)
    s.commit()
    with pytest.raises(AccountError) as exc:
        sign_up(s, email="ED@example.com", password="password2", name="Ed 2", instructor=False, learner_id=None)
    assert exc.value.field == "email"
    s.rollback()
    assert s.scalar(select(func.count()).select_from(Account)) == 1


@pytest.mark.parametrize("typed", ["ＥＤ＠ｅｘａｍｐｌｅ．ｃｏｍ", "ed\u200b@example.com", "\ufeffed@example.com",
                                   "ed@exam\u2060ple.com", " Ed@Example.COM "])
def test_an_email_typed_full_width_or_with_an_invisible_character_is_the_same_account(s, typed):
    sign_up(s, email="ed@example.com", password="password1", name="Ed", instructor=False, learner_id=None)
    s.commit()
    with pytest.raises(AccountError) as exc:
        sign_up(s, email=typed, password="password2", name="Ed 2", instructor=False, learner_id=None)
    assert exc.value.field == "email"
    s.rollback()
    assert sign_in(s, email=typed, password="password1", learner_id=None)[0].name == "Ed"


def test_an_account_stored_before_emails_were_normalized_still_signs_in(s):
    sign_up(s, email="old@example.com", password="password1", name="Old", instructor=False, learner_id=None)
    s.execute(update(Account).values(email="old\u200b@example.com"))  # as an older version stored it
    s.commit()
    assert sign_in(s, email="old\u200b@example.com", password="password1", learner_id=None)[0].name == "Old"


def test_an_email_with_a_space_inside_is_refused(s):
    with pytest.raises(AccountError) as exc:
        sign_up(s, email="ed @example.com", password="password1", name="Ed", instructor=False, learner_id=None)
    assert exc.value.field == "email"


def test_an_account_keeps_its_newest_sessions_and_the_oldest_end_past_the_bound(s):
    """Browsers thrown away never sign out: signing in once more past the bound ends the oldest."""
    from trainer.store.learners import MAX_SESSIONS, session_is_live, start_session
    from trainer.store.models import AccountSession

    account, _ = sign_up(s, email="many@example.com", password="password1", name="Many", instructor=False,
                         learner_id=None)
    first = start_session(s, account)
    s.commit()
    later = []
    for _ in range(MAX_SESSIONS):
        later.append(start_session(s, account))
        s.commit()
    assert s.scalar(select(func.count()).select_from(AccountSession)) == MAX_SESSIONS
    assert not session_is_live(s, account, first)
    assert all(session_is_live(s, account, sid) for sid in later)


def test_an_accounts_name_keeps_no_bidi_override_or_invisible_character(s):
    """The name on a certificate is what it looks like: "\\u202eeeL anA" would read "Ana Lee"."""
    account, _ = sign_up(s, email="bidi@example.com", password="password1", name="\u202eeeL\u200b anA\u202c",
                         instructor=False, learner_id=None)
    assert account.name == "eeL anA"


def test_review_stays_off_for_an_account_that_turned_it_off_and_signs_in_from_a_new_browser(s):
    account, mine = sign_up(s, email="di@example.com", password="password1", name="Di", instructor=False,
                            learner_id=None)
    progress.set_spaced_repetition(s, mine.id, False)
    s.commit()
    browser = new_id()
    _attempt(s, browser)  # a new learner there: review on, as for everyone new
    s.commit()
    _signed, learner = sign_in(s, email="di@example.com", password="password1", learner_id=browser)
    s.commit()
    assert learner.id == mine.id and not s.get(Learner, mine.id).srs_enabled


def test_signing_up_keeps_the_browsers_review_setting(s):
    browser = new_id()
    _attempt(s, browser)
    progress.set_spaced_repetition(s, browser, False)
    s.commit()
    _account, learner = sign_up(s, email="ed@example.com", password="password1", name="Ed", instructor=False,
                                learner_id=browser)
    s.commit()
    assert not s.get(Learner, learner.id).srs_enabled
