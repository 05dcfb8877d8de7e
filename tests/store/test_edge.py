"""Input refused at the edge, on SQLite and PostgreSQL: control characters, `next=` addresses, forged
Host headers, huge numbers in addresses; pages about one person kept by no cache; a removed student
stays out until the instructor lets them back."""

from __future__ import annotations

import re

import pytest
import segno
from sqlalchemy import func, select
from werkzeug.middleware.proxy_fix import ProxyFix

from trainer.store.models import Account, LiveSession, LiveStudent, ExamAttempt

from tests.store.helpers import BTN, post_form, sign_up, token
from tests.store.test_classroom import _act, _create, _join
from tests.store.test_exams import MINI

CONTROL_MESSAGE = "cannot hold control characters"


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(database, tmp_path, EXAM_TEMPLATES=[MINI])


@pytest.fixture
def instructor(app, client):
    sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
    return client


def _count(app, model) -> int:
    with app.extensions["trainer.store"].session() as s:
        return s.scalar(select(func.count()).select_from(model))


# ------------------------------------------------------------------ control characters


@pytest.mark.parametrize("path", ["/exams/%00/q/1", "/exams/a%00b/result", "/verify/%00", "/c/%00", "/drill/a%0d%0ab"])
def test_a_control_character_in_the_path_is_no_such_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "control character" in response.text


def test_a_nul_in_a_classroom_session_id_is_no_such_page(instructor):
    for path in ("/classroom/%00/", "/classroom/a%00/report", "/classroom/%00/answers.csv"):
        response = instructor.get(path)
        assert response.status_code == 404, path


def test_a_control_character_in_the_query_string_is_a_400_that_names_the_parameter(client):
    response = client.get("/scenarios?level=%00")
    assert response.status_code == 400
    assert "“level”" in response.text and "control character" in response.text


@pytest.mark.parametrize("field", ["email", "name", "password"])
def test_sign_up_with_a_nul_comes_back_filled_in_and_makes_no_account(app, client, field):
    form = {"email": "ana@example.com", "name": "Ana Lee", "password": "password1"}
    form[field] = form[field][:3] + "\x00" + form[field][3:]
    response = post_form(client, "/account/signup", form)
    assert response.status_code == 200
    assert CONTROL_MESSAGE in response.text
    assert 'id="f-' + field + '-error"' in response.text
    if field != "email":
        assert 'value="ana@example.com"' in response.text
    assert "\x00" not in response.text and "password1" not in response.text
    assert _count(app, Account) == 0


def test_sign_in_with_a_nul_in_the_email_comes_back_with_the_message(client):
    response = post_form(client, "/account/login", {"email": "ana\x00@example.com", "password": "password1"})
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text
    assert 'value="ana@example.com"' in response.text


def test_an_exam_name_with_a_nul_is_refused_and_keeps_the_old_name(app, client):
    sign_up(client, "lee@example.com", name="Lee")
    response = post_form(client, "/exams/", {"name": "Lee\x00"}, to="/exams/name")
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text
    assert 'value="Lee"' in response.text
    assert _count(app, ExamAttempt) == 0


def test_a_class_title_with_a_nul_makes_no_session_and_keeps_the_form(app, instructor):
    data = {"title": "Tues\x00day", "mode": "paced", "ids": f"{BTN}\nseed001-min-raise"}
    response = post_form(instructor, "/classroom/", data, to="/classroom/new")
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text
    assert 'value="Tuesday"' in response.text and "seed001-min-raise" in response.text
    assert _count(app, LiveSession) == 0


def test_the_list_of_spots_may_have_line_breaks_but_the_title_may_not(app, instructor):
    data = {"title": "Tues\r\nday", "mode": "paced", "ids": f"{BTN}\r\nseed001-min-raise"}
    assert post_form(instructor, "/classroom/", data, to="/classroom/new").status_code == 200
    data["title"] = "Tuesday\r\n"  # pasted with a line break after it: trimmed like a space
    assert post_form(instructor, "/classroom/", data, to="/classroom/new").status_code == 303


def test_a_display_name_with_a_nul_joins_nobody(app, instructor):
    _session_id, code, _page = _create(instructor)
    student = app.test_client()
    response = post_form(student, "/join", {"code": code, "name": "A\x00na"})
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text and 'value="Ana"' in response.text
    assert _count(app, LiveStudent) == 0


def test_removing_a_student_with_a_nul_in_the_form_is_a_400(app, instructor):
    session_id, code, _page = _create(instructor)
    _join(app, code, "Ana")
    response = _act(instructor, session_id, "remove", student="\x00")
    assert response.status_code == 400 and "“student”" in response.text


def test_a_drill_answer_with_a_control_character_is_shown_again_and_not_graded(client):
    page = client.get(f"/drill/{BTN}")
    response = client.post(f"/drill/{BTN}", data={"csrf_token": token(page.text), "pot": "40\x0000"})
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text
    assert 'value="4000"' in response.text and " right" not in response.text.split('id="answer-form"')[0]


# ------------------------------------------------------------------ next=


def test_a_line_break_in_next_is_refused_before_the_sign_up_is_stored(app, client):
    form = {"email": "ana@example.com", "name": "Ana", "password": "password1", "next": "/progress/\r\nSet-Cookie: x=1"}
    response = post_form(client, "/account/signup", form)
    assert response.status_code == 200 and CONTROL_MESSAGE in response.text
    assert "Set-Cookie" not in response.text and 'name="next"' not in response.text
    assert _count(app, Account) == 0
    form["next"] = "/progress/\t"
    response = post_form(client, "/account/signup", form)  # a tab passes the edge; the address is not followed
    assert response.status_code == 303 and response.headers["Location"] == "/progress/"


def test_a_line_break_in_the_next_of_the_address_is_refused_before_anything_is_stored(app, client):
    page = client.get("/account/signup")
    data = {"csrf_token": token(page.text), "email": "ana@example.com", "name": "Ana", "password": "password1"}
    response = client.post("/account/signup?next=/progress/%0d%0aSet-Cookie:%20x=1", data=data)
    assert response.status_code == 400
    assert _count(app, Account) == 0


@pytest.mark.parametrize("target", ["/\\evil.example/", "//evil.example/", "http://evil.example/", "/a b", "x"])
def test_next_leads_only_to_a_plain_path_of_this_site(client, target):
    form = {"email": "ana@example.com", "name": "Ana", "password": "password1", "next": target}
    response = post_form(client, "/account/signup", form)
    assert response.status_code == 303 and response.headers["Location"] == "/progress/"


def test_a_path_of_this_site_in_next_is_followed_with_its_letters_encoded(client):
    form = {"email": "ana@example.com", "name": "Ana", "password": "password1", "next": "/topics/é?level=2"}
    response = post_form(client, "/account/signup", form)
    assert response.headers["Location"] == "/topics/%C3%A9?level=2"


# ------------------------------------------------------------------ caches


def test_pages_about_one_person_are_kept_by_no_cache(app, instructor):
    session_id, code, _page = _create(instructor)
    student = _join(app, code, "Ana")
    pages = [
        (instructor, "/account/"),
        (instructor, "/progress/"),
        (instructor, "/classroom/"),
        (instructor, f"/classroom/{session_id}/"),
        (instructor, f"/classroom/{session_id}/report"),
        (instructor, "/exams/"),
        (student, f"/c/{code}"),
        (student, "/join"),
    ]
    for client, path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers.get("Cache-Control") == "no-store", path
    assert "no-store" not in instructor.get("/rules").headers.get("Cache-Control", "")


# ------------------------------------------------------------------ the join link's address


def _join_link(page_text: str) -> str:
    return re.search(r'which opens: <a href="([^"]+)"', page_text).group(1)


def _opened_at(client, path: str, host: str, **headers):
    """``path`` opened at ``host`` (the test client keeps cookies per host: the session goes along by hand)."""
    client.set_cookie("session", client.get_cookie("session").value, domain=host.split(":")[0])
    return client.get(path, base_url=f"http://{host}", headers=headers)


def _qr_of(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", omitsize=True)


def test_a_forged_host_header_never_reaches_the_join_link_or_the_qr_code(app, instructor):
    session_id, code, _page = _create(instructor)
    page = _opened_at(instructor, f"/classroom/{session_id}/", "evil.example")
    assert page.status_code == 200
    assert "evil.example/" not in page.text and "evil.example:" not in page.text
    link = _join_link(page.text)
    assert link.endswith(f"/join/{code}")
    assert _qr_of(link) in page.text
    assert "not an address of this server" in page.text
    projector = _opened_at(instructor, f"/classroom/{session_id}/projector", "evil.example")
    assert "evil.example/" not in projector.text
    assert _qr_of(link) in projector.text  # the projector shows the same QR code while students join


def test_the_join_link_uses_the_host_when_it_is_this_machine(app, instructor):
    session_id, code, _page = _create(instructor)
    page = _opened_at(instructor, f"/classroom/{session_id}/", "127.0.0.1")
    assert _join_link(page.text) == f"http://127.0.0.1/join/{code}"
    assert _qr_of(f"http://127.0.0.1/join/{code}") in page.text
    # the right machine, another port: not where this server answers
    page = instructor.get(f"/classroom/{session_id}/", base_url="http://127.0.0.1", headers={"Host": "127.0.0.1:6666"})
    assert ":6666" not in _join_link(page.text)


def test_the_public_url_setting_wins(database, tmp_path):
    from tests.store.conftest import running_app

    for app in running_app(database, tmp_path, PUBLIC_URL="https://class.example.org/"):
        client = app.test_client()
        sign_up(client, "teacher@example.com", name="Ms T", instructor=True)
        session_id, code, _page = _create(client)
        page = _opened_at(client, f"/classroom/{session_id}/", "evil.example")
        assert _join_link(page.text) == f"https://class.example.org/join/{code}"
        assert "not an address of this server" not in page.text


def test_behind_a_trusted_proxy_the_forwarded_host_is_used(app, instructor):
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    session_id, code, _page = _create(instructor)
    page = instructor.get(
        f"/classroom/{session_id}/", headers={"X-Forwarded-Host": "class.example.org", "X-Forwarded-Proto": "https"}
    )
    assert _join_link(page.text) == f"https://class.example.org/join/{code}"


# ------------------------------------------------------------------ removed students


def _rejoin(student, code, name):
    return post_form(student, "/join", {"code": code, "name": name})


def test_a_removed_student_cannot_rejoin_under_a_new_name_until_allowed_back(app, instructor):
    session_id, code, _page = _create(instructor)
    student = _join(app, code, "Ana")
    with app.extensions["trainer.store"].session() as s:
        ana = s.scalar(select(LiveStudent).where(LiveStudent.name == "Ana"))
    assert _act(instructor, session_id, "remove", student=ana.id).status_code == 303

    refused = _rejoin(student, code, "Anna")
    assert refused.status_code == 200 and "ask your instructor to let you back in" in refused.text
    assert "Anna" not in instructor.get(f"/classroom/{session_id}/live").text
    live = instructor.get(f"/classroom/{session_id}/live").text
    assert "Allow back" in live and "Ana" in live

    assert _act(instructor, session_id, "readmit", student=ana.id).status_code == 303
    play = student.get(f"/c/{code}")
    assert play.status_code == 200 and "You were removed" not in play.text and "Ana" in play.text
    assert "Allow back" not in instructor.get(f"/classroom/{session_id}/live").text


def test_another_browser_may_still_join_after_a_removal(app, instructor):
    session_id, code, _page = _create(instructor)
    _join(app, code, "Ana")
    with app.extensions["trainer.store"].session() as s:
        ana = s.scalar(select(LiveStudent).where(LiveStudent.name == "Ana"))
    _act(instructor, session_id, "remove", student=ana.id)
    _join(app, code, "Bo")  # asserts the 303


# ------------------------------------------------------------------ numbers in addresses


@pytest.mark.parametrize(
    "ref",
    [
        "gen:min-raise:2:2147483648:0",  # the seed would not fit the store's integer column
        "gen:min-raise:2:9007199254740993:0",  # above 2^53 − 1
        "gen:min-raise:2:1:99999999999999999999",
        "gen:min-raise:2:١:0",  # not ASCII digits: another address of the same spot
        "gen:min-raise:2:-5:0",
    ],
)
def test_a_generated_spot_with_a_seed_or_index_out_of_range_is_no_spot(client, ref):
    assert client.get(f"/drill/{ref}").status_code == 404


def test_the_largest_seed_is_a_spot(client):
    assert client.get("/drill/gen:min-raise:2:2147483647:0").status_code == 200
