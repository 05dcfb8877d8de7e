"""My spots in the browser's place: the pages an instructor uses, and 404 for everyone else at every address.

On SQLite and PostgreSQL (the ``app`` fixture of tests/store/conftest.py)."""

from __future__ import annotations

import csv
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



# ------------------------------------------------------------------ used in a live session, shared with a class


def test_the_new_spot_example_has_its_texts_in_the_three_languages(app):
    """Saved as it stands, the example reads in Chinese for a Chinese page (it was English only, and
    showed an instructor no way to write the other languages)."""
    import html

    teacher = _teacher(app)
    form = teacher.get("/my-spots/new?lang=zh-Hant").text
    example = html.unescape(re.search(r'<textarea id="f-yaml"[^>]*>(.*?)</textarea>', form, re.S).group(1))
    saved = _save(teacher, example)
    assert saved.status_code == 303, saved.text
    spot = SPOT_ID.search(saved.headers["Location"]).group(1)
    assert "UTG 加注，HJ 可以做什麼？" in teacher.get(f"/my-spots/{spot}?lang=zh-Hant").text
    assert "UTG 加注，HJ 可以做什么？" in teacher.get(f"/my-spots/{spot}?lang=zh-Hans").text
    assert "UTG raises; what may HJ do?" in teacher.get(f"/my-spots/{spot}?lang=en").text


def test_starting_a_live_session_with_no_spot_ticked_goes_back_to_my_spots_saying_so(app):
    """The list's form posts to the classroom's; with nothing ticked the instructor was left on the
    classroom page, told to choose topics, a field My spots does not have."""
    teacher = _teacher(app)
    _spot_id(teacher)
    listing = teacher.get("/my-spots/")
    assert 'name="from" value="my-spots"' in listing.text
    refused = teacher.post("/classroom/new", data={"csrf_token": token(listing.text), "title": "Tuesday", "mode": "paced",
                                                   "style": "card", "from": "my-spots"})
    assert refused.status_code == 303 and refused.headers["Location"].startswith("/my-spots/?")
    back = teacher.get(refused.headers["Location"])
    assert "Tick at least one spot to ask in the live session." in back.text
    assert 'name="title" type="text" maxlength="120" value="Tuesday"' in back.text
    assert re.search(r'value="card" checked', back.text) and not re.search(r'value="quick" checked', back.text)
    # The classroom's own form, with nothing chosen, still says so on its page.
    own = teacher.post("/classroom/new", data={"csrf_token": token(listing.text), "title": "x", "mode": "paced"})
    assert own.status_code == 200 and "Choose topics, or list the spots to ask." in own.text


def test_my_spots_ticked_make_a_quick_live_session_and_an_edit_keeps_the_answers_on_their_version(app):
    from tests.store.test_classroom_quick import _choices, _join, _tap

    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    listing = teacher.get("/my-spots/")
    created = teacher.post("/classroom/new", data={"csrf_token": token(listing.text), "title": '=HYPERLINK("x") <b>x</b>',
                                                   "mode": "paced", "style": "quick", "ids": [f"my:{spot_id}"]})
    assert created.status_code == 303, created.text
    session_id = created.headers["Location"].split("/")[2]
    page = teacher.get(f"/classroom/{session_id}/")
    code = re.search(r'id="join-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', page.text).group(1)
    ana = _join(app, code, "Ana")
    teacher.post(f"/classroom/{session_id}/next", data={"csrf_token": token(listing.text)})
    stage = ana.get(f"/c/{code}").text
    assert "500" in _choices(stage)
    # the spot is edited while the session runs: the session keeps asking version 1
    post_form(teacher, f"/my-spots/{spot_id}/edit", {"yaml": SPOT.replace("raise 300", "raise 400")})
    assert "500" in _choices(ana.get(f"/c/{code}").text)
    assert _tap(ana, code, "500").status_code in (200, 303)
    teacher.post(f"/classroom/{session_id}/reveal", data={"csrf_token": token(listing.text)})
    assert "Right!" in ana.get(f"/c/{code}").text
    for url in (f"/classroom/{session_id}/", f"/classroom/{session_id}/live", f"/classroom/{session_id}/projector",
                f"/classroom/{session_id}/report"):
        text = teacher.get(url).text
        assert "<b>x</b>" not in text, url
    exported = teacher.get(f"/classroom/{session_id}/answers.csv").data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(exported)))
    cells = [cell for row in rows[1:] for cell in row]
    assert "'=HYPERLINK(\"x\") <b>x</b>" in cells  # the session's title, made inert for a spreadsheet
    assert not any(cell.startswith("=") for cell in cells)


def test_a_full_card_session_of_my_spot_and_another_instructors_spot_is_refused(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    other = _teacher(app, "o@example.com")
    page = other.get("/classroom/")
    refused = other.post("/classroom/new", data={"csrf_token": token(page.text), "title": "x", "mode": "paced",
                                                 "style": "card", "ids": f"my:{spot_id}:1"})
    assert refused.status_code == 200 and "Not in the library" in refused.text
    mine = teacher.post("/classroom/new", data={"csrf_token": token(teacher.get("/classroom/").text), "title": "x",
                                                "mode": "paced", "style": "card", "ids": f"my:{spot_id}:1"})
    assert mine.status_code == 303


def test_a_spot_shared_with_a_class_is_in_its_members_drill_and_private_before(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    made = post_form(teacher, "/classroom/", {"class_title": "Evening"}, to="/classroom/classes/new")
    assert made.status_code == 303, made.text
    class_page = teacher.get(made.headers["Location"]).text
    code = re.search(r'id="invite-code">([^<]+)<', class_page).group(1)
    class_id = made.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    student = app.test_client()
    sign_up(student, "s@example.com")
    joined = post_form(student, f"/classes/join/{code}", {})
    assert joined.status_code == 303, joined.text
    assert "/drill/my:" not in student.get("/my-spots/from-your-instructor").text
    assert student.get(f"/drill/my:{spot_id}:1").status_code == 404
    assert "Sharing saved" not in teacher.get(f"/my-spots/{spot_id}").text
    shared = post_form(teacher, f"/my-spots/{spot_id}", {"classes": class_id}, to=f"/my-spots/{spot_id}/share")
    # Back at the sharing section (far down a phone's page), saying it was saved.
    assert shared.status_code == 303 and shared.headers["Location"].endswith("#share-h")
    assert "Sharing saved" in teacher.get(shared.headers["Location"]).text
    listing = student.get("/my-spots/from-your-instructor").text
    assert f"/drill/my:{spot_id}:1" in listing and "Evening" in listing and "<b>x</b>" not in listing
    drill = student.get(f"/drill/my:{spot_id}:1")
    assert drill.status_code == 200 and "<b>x</b>" not in drill.text
    graded = post_form(student, f"/drill/my:{spot_id}:1", {
        "current_total": "300", "last_full_increment": "200", "committed": "0", "acted": "no", "to_add": "300",
        "legal": ["fold", "call", "raise"], "call": "300", "min_to": "500", "max_to": "5000"})
    assert graded.status_code == 200 and "right" in graded.text
    # archived: no longer the class's
    post_form(teacher, f"/my-spots/{spot_id}", {}, to=f"/my-spots/{spot_id}/archive")
    assert student.get(f"/drill/my:{spot_id}:1").status_code == 404


# ------------------------------------------------------------------ files in


def test_yaml_files_are_imported_each_or_refused_with_its_line(app):
    teacher = _teacher(app)
    response = post_form(teacher, "/my-spots/import", {"files": [
        (io.BytesIO(SPOT.encode()), "good.yaml"),
        (io.BytesIO(SPOT.replace("stacks:", "stack:").encode()), "bad.yaml"),
        (io.BytesIO(b"\xff\xfe\x00bin"), "binary.yaml"),
    ]})
    assert response.status_code == 200
    assert "good.yaml" in response.text and "✓" in response.text
    assert "bad.yaml" in response.text and "Line 6" in response.text
    assert "binary.yaml" in response.text and "not saved" in response.text
    assert teacher.get("/my-spots/").text.count('href="/my-spots/') >= 4  # the one spot saved, and the links


def test_a_hand_history_upload_reports_each_file_and_the_spots_are_kept_all_or_ticked(app):
    teacher = _teacher(app)
    upload = post_form(teacher, "/my-spots/hands", {"mode": "every-decision", "files": [
        (io.BytesIO(STARS.encode()), "stars.txt"),
        (io.BytesIO(PHH.encode()), "hand.phh"),
        (io.BytesIO(STARS.split("*** FLOP")[0].encode()), "cut.txt"),
    ]})
    assert upload.status_code == 303, upload.text
    report = teacher.get(upload.headers["Location"]).text
    assert "stars.txt" in report and "hand.phh" in report and "cut.txt" in report
    assert "truncated" in report and "hand 149652017195" in report
    ticks = re.findall(r'name="spot" value="(\d+)"', report)
    assert len(ticks) > 3
    keep_url = upload.headers["Location"] + "/keep"
    kept = post_form(teacher, upload.headers["Location"], {"spot": ticks[:2]}, to=keep_url)
    assert kept.status_code == 200 and "2 spots kept in My spots." in kept.text
    everything = post_form(teacher, upload.headers["Location"], {"all": "1"}, to=keep_url)
    assert f"{len(ticks) - 2} spots kept" in everything.text
    listed = teacher.get("/my-spots/").text
    assert f"Your spots ({len(ticks)})" in listed


def test_a_huge_upload_gets_a_clear_page_and_nothing_is_made(app):
    app.config["UPLOAD_MAX_BYTES"] = 200_000
    teacher = _teacher(app)
    page = teacher.get("/my-spots/hands")
    big = io.BytesIO(b"x" * 300_000)
    response = teacher.post("/my-spots/hands", data={"csrf_token": token(page.text), "mode": "teaching",
                                                     "files": (big, "big.txt")})
    assert response.status_code == 413
    assert "nothing was read or saved" in response.text and "Traceback" not in response.text
    assert 'type="file"' in response.text  # the form again
    yaml_too_big = teacher.post("/my-spots/new", data={"csrf_token": token(page.text), "yaml": "x" * 300_000})
    assert yaml_too_big.status_code == 413 and "nothing was read or saved" in yaml_too_big.text
    # elsewhere the app keeps its small limit
    assert teacher.post("/classroom/new", data={"csrf_token": token(page.text), "title": "x" * 100_000}).status_code == 413


def test_a_file_over_the_per_file_bound_is_refused_unread_and_the_rest_go_on(app):
    app.config["UPLOAD_MAX_FILE_BYTES"] = 5_000
    teacher = _teacher(app)
    upload = post_form(teacher, "/my-spots/hands", {"mode": "every-decision", "files": [
        (io.BytesIO(b"x" * 6_000), "big.txt"), (io.BytesIO(STARS.encode()), "stars.txt")]})
    report = teacher.get(upload.headers["Location"]).text
    assert "not read: over the limits" in report and "stars.txt" in report


def test_the_home_page_points_a_member_to_the_spots_shared_with_their_class(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    made = post_form(teacher, "/classroom/", {"class_title": "Evening"}, to="/classroom/classes/new")
    class_id = made.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    code = re.search(r'id="invite-code">([^<]+)<', teacher.get(made.headers["Location"]).text).group(1)
    student = app.test_client()
    sign_up(student, "s@example.com")
    post_form(student, f"/classes/join/{code}", {})
    assert 'id="from-instructor"' not in student.get("/").text
    post_form(teacher, f"/my-spots/{spot_id}", {"classes": class_id}, to=f"/my-spots/{spot_id}/share")
    home = student.get("/").text
    assert "From your instructor: 1 spot" in home
    assert 'href="/my-spots/"' in teacher.get("/").text and 'href="/my-spots/"' not in home


def test_a_learners_answers_to_a_shared_spot_keep_their_version_and_their_progress_page_opens(app):
    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    made = post_form(teacher, "/classroom/", {"class_title": "Evening"}, to="/classroom/classes/new")
    class_id = made.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    code = re.search(r'id="invite-code">([^<]+)<', teacher.get(made.headers["Location"]).text).group(1)
    student = app.test_client()
    sign_up(student, "s@example.com")
    post_form(student, f"/classes/join/{code}", {})
    post_form(teacher, f"/my-spots/{spot_id}", {"classes": class_id}, to=f"/my-spots/{spot_id}/share")
    wrong = post_form(student, f"/drill/my:{spot_id}:1", {
        "current_total": "300", "last_full_increment": "300", "committed": "0", "acted": "no", "to_add": "300",
        "legal": ["fold", "call", "raise"], "call": "300", "min_to": "600", "max_to": "5000"})
    assert wrong.status_code == 200
    post_form(teacher, f"/my-spots/{spot_id}/edit", {"yaml": SPOT.replace("raise 300", "raise 400")})
    for url in ("/progress/", "/progress/?days=30", "/progress/replay", "/", "/my-spots/from-your-instructor"):
        response = student.get(url)
        assert response.status_code in (200, 302, 303), (url, response.status_code)
    assert f"/drill/my:{spot_id}:2" in student.get("/my-spots/from-your-instructor").text  # new answers: version 2
    old = student.get(f"/drill/my:{spot_id}:1")
    assert old.status_code == 200 and "300" in old.text  # the version answered is still there


def test_a_downloaded_spot_passes_trainer_check(app, tmp_path):
    from click.testing import CliRunner

    from trainer.cli import main

    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    path = tmp_path / "spot.yaml"
    path.write_bytes(teacher.get(f"/my-spots/{spot_id}/download").data)
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output


# ------------------------------------------------------------------ a class exam of the spots shared with the class

MIN_RAISE_RIGHT = {"current_total": "300", "last_full_increment": "200", "committed": "0", "acted": "no",
                   "to_add": "300", "legal": ["fold", "call", "raise"], "call": "300", "min_to": "500",
                   "max_to": "5000"}


def test_a_class_exam_of_the_shared_spots_is_sat_and_graded_on_the_version_drawn(app):
    from datetime import timedelta

    from trainer.store.models import ClassExam, now

    teacher = _teacher(app)
    spot_id = _spot_id(teacher)
    made = post_form(teacher, "/classroom/", {"class_title": "Evening"}, to="/classroom/classes/new")
    class_url = made.headers["Location"]
    class_id = class_url.rstrip("/").rsplit("/", 1)[1]
    code = re.search(r'id="invite-code">([^<]+)<', teacher.get(class_url).text).group(1)
    assert f"my-spots:{class_id}" not in teacher.get(class_url).text  # nothing shared yet: no such exam offered
    post_form(teacher, f"/my-spots/{spot_id}", {"classes": class_id}, to=f"/my-spots/{spot_id}/share")
    page = teacher.get(class_url).text
    assert f'value="my-spots:{class_id}"' in page and "Spots from your instructor" in page
    window = {"opens": (now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
              "closes": (now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"), "tz": "UTC"}
    assigned = post_form(teacher, class_url, {"template": f"my-spots:{class_id}", **window}, to=class_url + "assign")
    assert assigned.status_code == 303, assigned.text
    # another instructor cannot assign this class's spots to a class of theirs
    other = _teacher(app, "o@example.com")
    theirs = post_form(other, "/classroom/", {"class_title": "Theirs"}, to="/classroom/classes/new").headers["Location"]
    refused = post_form(other, theirs, {"template": f"my-spots:{class_id}", **window}, to=theirs + "assign")
    assert refused.status_code == 200 and "Choose an exam." in refused.text

    student = app.test_client()
    sign_up(student, "s@example.com")
    post_form(student, f"/classes/join/{code}", {})
    with app.extensions["trainer.store"].session() as s:
        from sqlalchemy import select

        assignment_id = s.scalar(select(ClassExam.id).where(ClassExam.class_id == class_id))
    started = post_form(student, "/exams/", {"candidate_name": "Sam"}, to=f"/exams/assigned/{assignment_id}/start")
    assert started.status_code == 303 and "/q/1" in started.headers["Location"], started.text
    question = student.get(started.headers["Location"])
    assert question.status_code == 200 and "<b>x</b>" not in question.text
    # edited while the attempt runs: the attempt keeps version 1
    post_form(teacher, f"/my-spots/{spot_id}/edit", {"yaml": SPOT.replace("raise 300", "raise 400")})
    exam_id = started.headers["Location"].split("/")[2]
    post_form(student, started.headers["Location"], {"go": "stay", **MIN_RAISE_RIGHT})
    post_form(student, f"/exams/{exam_id}/submit", {})
    results = teacher.get(f"/classroom/exams/{assignment_id}/").text
    row = results[results.find('id="results"'):]
    assert "1 of 1 (100.0%)" in row and "passed" in row  # min-raise to 500: version 1's answer, not version 2's 600
    for page in ("result", "review", "certificate"):
        shown = student.get(f"/exams/{exam_id}/{page}")
        assert shown.status_code in (200, 303) and "<b>x</b>" not in shown.text, page
    assert "Spots from your instructor" in student.get("/exams/").text
