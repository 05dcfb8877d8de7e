"""What the classroom's two screens serve: the student's phone (a form in steps that also works as one
plain form) and the projector (no site navigation, the QR code while students join, the class's answers
without their values until the reveal, buttons that come back to it). The browser test measures them."""

from __future__ import annotations

import re

from sqlalchemy import select

from trainer.store.models import LiveAnswer

from tests.store.helpers import BTN_RIGHT, BTN_TWO_WRONG
from tests.store.test_classroom import _act, _answer, _create, _join, instructor  # noqa: F401 (a fixture)

SITE_NAV = 'aria-label="Site"'


def test_the_projector_has_no_site_navigation_and_shows_the_qr_code_while_students_join(app, instructor):
    session_id, code, _ = _create(instructor)
    _join(app, code, "Ana")
    lobby = instructor.get(f"/classroom/{session_id}/projector").text
    assert SITE_NAV not in lobby and 'class="site-footer"' not in lobby
    joining = lobby.split('class="projector-lobby"')[1]
    assert 'class="segno"' in joining and code in joining and "Ana" in joining
    # its buttons (and the keys N, R) post with the instructor's token and come back here
    assert lobby.count('name="back" value="projector"') == 1 and lobby.count('name="csrf_token"') == 1  # Start

    _act(instructor, session_id, "next")
    asked = instructor.get(f"/classroom/{session_id}/projector").text
    assert 'class="projector-lobby"' not in asked
    assert asked.count('name="back" value="projector"') == 2  # Next and Reveal
    assert 'class="segno"' in asked.split('class="projector-corner"')[1]  # the QR code, now in the corner
    assert "svg" in asked.split('class="projector-table"')[1]


def test_the_projector_shows_how_the_class_is_split_and_the_values_only_after_the_reveal(app, instructor):
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    _answer(ana, code, BTN_TWO_WRONG)
    open_question = instructor.get(f"/classroom/{session_id}/projector").text
    assert "1 of 1 answered" in open_question and "answer 1" in open_question
    assert "1,800" not in open_question and "2,400" not in open_question and "R-REOPEN" not in open_question

    _act(instructor, session_id, "reveal")
    revealed = instructor.get(f"/classroom/{session_id}/projector").text
    assert "1,800" in revealed and "2,400" in revealed and "R-REOPEN" in revealed
    assert "svg" in revealed.split('class="projector-table"')[1]  # the table stays beside the derivation


def test_the_projectors_buttons_come_back_to_the_projector_and_the_control_pages_to_the_control_page(app, instructor):
    session_id, code, _ = _create(instructor)
    from_projector = _act(instructor, session_id, "next", back="projector")
    assert from_projector.status_code == 303
    assert from_projector.headers["Location"] == f"/classroom/{session_id}/projector"
    from_control = _act(instructor, session_id, "reveal")
    assert from_control.headers["Location"] == f"/classroom/{session_id}/"


def test_the_students_form_comes_in_steps_and_still_works_as_one_plain_form(app, instructor):
    session_id, code, _ = _create(instructor)
    ana = _join(app, code, "Ana")
    _act(instructor, session_id, "next")
    page = ana.get(f"/c/{code}").text
    assert SITE_NAV not in page
    form = page.split('<form method="post" action="/c/')[1].split("</form>")[0]
    # the BTN spot: the card, the legal actions, their amounts, the pot
    assert form.count("data-step>") == 4 and "Step 1 of 4" in form and "Step 4 of 4" in form
    boxes = re.findall(r"<input [^>]*>", form)
    typed = [b for b in boxes if 'type="text"' in b]
    assert typed and all('inputmode="numeric"' in b for b in typed)
    assert sum('name="legal"' in b and 'type="checkbox"' in b for b in boxes) == 5
    assert not any("checked" in b for b in boxes)  # nothing chosen for the student
    assert 'class="step-nav" hidden' in form  # shown by the script; without it, one long form

    sent = _answer(ana, code, BTN_RIGHT)  # a plain POST, as a browser without JavaScript sends it
    assert sent.status_code == 303
    after = ana.get(f"/c/{code}").text
    assert 'class="sent-badge"' in after and "Answer received" in after


def _distribution(html: str) -> list[tuple[bool, str, int]]:
    """The class's answers as a screen shows them: (marked right, value, count), every column in turn."""
    part = html.split('class="distribution"', 1)[1]
    rows = re.findall(
        r'<li class="([^"]*)">\s*<span class="dist-value">(.*?)</span>\s*<progress[^>]*>\d+</progress>'
        r'\s*<span class="dist-count">(\d+)</span>',
        part,
        re.S,
    )
    return [(cls == "dist--right", value, int(n)) for cls, value, n in rows]


def test_the_class_is_counted_by_what_it_answered_whatever_the_language_of_each_phone(app, instructor):
    session_id, code, _ = _create(instructor)
    ana, bo = _join(app, code, "Ana"), _join(app, code, "Bo")
    _act(instructor, session_id, "next")
    _answer(ana, code, BTN_RIGHT, headers={"Accept-Language": "en"})
    _answer(bo, code, BTN_RIGHT, headers={"Accept-Language": "zh-TW"})
    with app.extensions["trainer.store"].session() as s:
        stored = {a.student_id: a.answers["legal"] for a in s.scalars(select(LiveAnswer))}
    assert len(set(stored.values())) == 2  # the same ticks, read back in two languages
    _act(instructor, session_id, "reveal")
    for lang in ("zh-Hant", "en"):
        for path in ("live", "projector"):
            shown = _distribution(instructor.get(f"/classroom/{session_id}/{path}?lang={lang}").text)
            assert len(shown) == 10, (lang, path, shown)  # one row per field of the card
            assert all(right and n == 2 for right, _value, n in shown), (lang, path, shown)
    legal_en = [v for _r, v, _n in _distribution(instructor.get(f"/classroom/{session_id}/live?lang=en").text)]
    assert any(v.startswith("fold, call, raise") for v in legal_en)


def test_the_projector_shows_the_three_most_given_answers_of_a_column_and_counts_the_rest(app, instructor):
    """A class gives many different answers; the projector has room for twenty columns of the card only if
    each shows a few rows: the three most given, the right one once revealed, and how many others."""
    session_id, code, _ = _create(instructor)
    students = [_join(app, code, name) for name in ("Ana", "Bo", "Chen", "Di", "Eli", "Fay", "Gus")]
    _act(instructor, session_id, "next")
    for student, min_to in zip(students, ("1800", "1800", "2000", "2000", "2200", "2600", "2400")):
        _answer(student, code, {**BTN_RIGHT, "min_to": min_to})

    def minimum_column() -> str:
        page = instructor.get(f"/classroom/{session_id}/projector").text
        projected = page.split('class="projector-distribution"')[1]
        return next(c for c in projected.split('class="dist-column"') if "Minimum bet or raise-to" in c)

    shown = minimum_column()
    assert "answer 3" in shown and "answer 4" not in shown and "and 2 other answers" in shown
    _act(instructor, session_id, "reveal")
    shown = minimum_column()
    assert "1,800" in shown and "2,000" in shown and "2,400" in shown  # the right one, though given once
    assert "2,600" not in shown  # given once, and not right: counted among the others
    assert "and 1 other answer" in shown
