"""My spots in the browser's place: the pages an instructor uses, and 404 for everyone else at every address.

On SQLite and PostgreSQL (the ``app`` fixture of tests/store/conftest.py)."""

from __future__ import annotations

import io
import re

from tests.importer.test_bad_input import PHH, STARS
from tests.store.helpers import post_form, sign_up, token
from tests.store.test_my_spots import SPOT

SPOT_ID = re.compile(r"/my-spots/([0-9a-f]{32})")
NASTY = '<b>x</b> =HYPERLINK("x")'


def _teacher(app, email="t@example.com"):
    client = app.test_client()
    sign_up(client, email, name="Ms T", instructor=True)
    return client


def _save(client, text=SPOT):
    return post_form(client, "/my-spots/new", {"yaml": text})


def _spot_id(client) -> str:
    response = _save(client)
    assert response.status_code == 303, response.text
    return SPOT_ID.search(response.headers["Location"]).group(1)


def test_a_spot_saved_from_yaml_is_listed_previewed_with_the_engines_answers_and_downloaded(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    page = teacher.get(f"/my-spots/{spot_id}?saved=1")
    assert page.status_code == 200
    assert "Saved as version 1." in page.text
    assert "&lt;b&gt;x&lt;/b&gt; =HYPERLINK(&#34;x&#34;)" in page.text and "<b>x</b>" not in page.text
    answers = page.text.split('id="engine-answers"')[1].split("</ul>")[0]
    assert "500" in answers  # HJ's minimum raise-to, as the engine works it out
    listing = teacher.get("/my-spots/")
    assert f"/my-spots/{spot_id}" in listing.text and "<b>x</b>" not in listing.text
    download = teacher.get(f"/my-spots/{spot_id}/download")
    assert download.status_code == 200 and download.text == SPOT
    assert "attachment" in download.headers["Content-Disposition"]
    assert download.headers["Content-Disposition"].endswith('.yaml"')


def test_bad_yaml_comes_back_as_typed_with_the_line_and_the_key(app):
    teacher = _teacher(app)
    bad = SPOT.replace("stacks:", "stack:")
    response = _save(teacher, bad)
    assert response.status_code == 200
    assert "Not saved" in response.text and "Line 6" in response.text and "stack" in response.text
    assert "stack: {SB: 5000" in response.text  # the text kept
    assert teacher.get("/my-spots/").text.count("/my-spots/new") == 1  # nothing saved: no spot listed
    amount = _save(teacher, SPOT.replace("raise 300", "raise abc"))
    assert "Line 8" in amount.text and "abc" in amount.text


def test_a_nul_byte_is_refused_with_the_text_kept(app):
    teacher = _teacher(app)
    response = _save(teacher, SPOT.replace("UTG raise 300", "UTG raise\x00 300"))
    assert response.status_code == 200
    assert "control characters" in response.text
    assert "UTG raise 300" in response.text


def test_an_edit_is_a_new_version_and_the_old_one_stays(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    response = post_form(teacher, f"/my-spots/{spot_id}/edit", {"yaml": SPOT.replace("raise 300", "raise 400")})
    assert response.status_code == 303
    assert "Version 2 of 2" in teacher.get(f"/my-spots/{spot_id}").text
    assert "raise 300" in teacher.get(f"/my-spots/{spot_id}/download?version=1").text
    assert "raise 400" in teacher.get(f"/my-spots/{spot_id}/download").text
    assert teacher.get(f"/my-spots/{spot_id}?version=3").status_code == 404


def test_every_spot_and_upload_address_is_404_to_another_instructor_and_a_student(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    upload = post_form(teacher, "/my-spots/hands", {"mode": "teaching",
                                                    "files": (io.BytesIO(STARS.encode()), "hands.txt")})
    assert upload.status_code == 303, upload.text
    upload_id = upload.headers["Location"].rsplit("/", 1)[1]
    other = _teacher(app, "o@example.com")
    student = app.test_client()
    sign_up(student, "s@example.com")
    for who in (other, student):
        form = token(who.get("/exams/").text)
        for url in (f"/my-spots/{spot_id}", f"/my-spots/{spot_id}/edit", f"/my-spots/{spot_id}/download",
                    f"/my-spots/hands/{upload_id}"):
            assert who.get(url).status_code == 404, url
        for url in (f"/my-spots/{spot_id}/edit", f"/my-spots/{spot_id}/share", f"/my-spots/{spot_id}/archive",
                    f"/my-spots/hands/{upload_id}/keep"):
            assert who.post(url, data={"csrf_token": form, "yaml": SPOT, "all": "1"}).status_code == 404, url
        assert who.get(f"/drill/my:{spot_id}:1").status_code == 404
    assert student.get("/my-spots/").status_code == 403
    assert "raise 300" in teacher.get(f"/my-spots/{spot_id}/download").text  # nothing changed

