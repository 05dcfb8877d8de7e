"""No input gets a server error: every route and every form field, on SQLite here and on PostgreSQL
in test_input_fuzz_postgresql.py.

The routes come from the app's own URL map and the forms from the pages it
serves (every ``<form>`` with its fields and their values), so a route or a
field added later is fuzzed without touching this file; a POST route that no
page links to fails the test until it is listed in ``UNLINKED_POSTS``. Each
request changes one thing: one part of the path, one query parameter, one
form field (the others keep what the page gave them, CSRF token included),
or one header. The instructor, a student of two sessions and a learner in an
exam are signed in or joined as they would be; forms that end something
(sign out, end the session, submit the exam) go last.

The default run sends each path part, query parameter and form field a
quarter of the values, the next one the next quarter, so that every value
still reaches every kind of input; ``-m slow`` sends every value everywhere.
``TRAINER_FUZZ_ROUNDS=N`` repeats the form fuzz N times with fresh random
strings (the fixed values always run); the test prints how many requests it
sent and how many answered 5xx.
"""

from __future__ import annotations

import io
import itertools
import os
import random
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from urllib.parse import quote, urlencode, urlsplit

import pytest

from tests.importer.test_bad_input import STARS
from tests.store.helpers import BTN, BTN_RIGHT, post_form, sign_up, token
from tests.store.test_my_spots import SPOT as MY_SPOT

def _mini():
    from trainer.store import exams

    return exams.ExamTemplate(
        slug="mini",
        title="Mini exam",
        description="Two spots.",
        count=2,
        minutes=30,
        pass_mark=50,
        pool={"reopening": 2},
    )


# What people (and scripts) type: control characters, line breaks, huge and odd numbers, odd Unicode.
VALUES = [
    "\x00",
    "a\x00b",
    "\r\n",
    "x\r\nSet-Cookie: hijack=1",
    "/progress/\r\nSet-Cookie: hijack=1",
    "\n",
    "\x01\x07\x08\x0b\x0c\x1b\x7f",
    "\x85\u2028\u2029",
    "\t",
    "",
    " ",
    "abc",
    "-1",
    "0",
    "1.5",
    "1e309",
    "0x10",
    "9" * 40,
    str(2**53),
    str(2**63),
    "１，４００",
    "\u202eevil",
    "\ufeff\u200b",
    "🂡" * 50,
    "x" * 5000,
    "<script>alert(1)</script>",
    "'; DROP TABLE accounts; --",
    "%00",
    "../../etc/passwd",
    "//evil.example/",
    "/\\evil.example",
    "http://evil.example/",
    "javascript:alert(1)",
]
# Every query parameter a page reads gets these (the full list with TRAINER_FUZZ_ROUNDS > 1).
QUERY_VALUES = ["\x00", "/\r\nSet-Cookie: hijack=1", "\x1b[2J", "9" * 40, "abc", "x" * 5000, "//evil.example/"]
HEADERS = {
    "Host": ["evil.example", "\x00", "a" * 300, "[::1", "127.0.0.1:99999"],
    "Accept-Language": ["\x00", "zh-Hant;q=abc", "x" * 5000, ",,,;;;"],
    "HX-Request": ["\x00", "true"],
    "HX-Current-URL": ["\x00", "javascript:1"],
    "Cookie": ["session=\x00", "session=abc.def.ghi", "lang=\x00"],
}
# What a person would type into a field the page leaves empty, so that the one fuzzed field is not
# refused for another reason first (an email is made anew for each request: each sign-up goes through).
FILL = {"name": "Ana", "password": "password1", "title": "Tuesday", "ids": BTN, "count": "2", "minutes": "30"}
FRESH = {"email"}
# POST routes no page offers a form for (the form fuzz cannot find them).
UNLINKED_POSTS: dict[str, dict[str, str]] = {
    # The invite page shows its form only to someone not in the class yet; the learner here has joined.
    "classes.join": {},
    # The revoke page shows its form only for a graded attempt at the instructor's class exam; the
    # learner's attempt here is a running self-study one (revoking: tests/store/test_exam_identity.py).
    "classes.revoke": {},
    # A streak's answer form is on its own run's page; the fuzz's run id is a speed drill's (a streak
    # answer's bad input: tests/store/test_streak_web.py).
    "streak.answer": {},
}


def _random_text(rng: random.Random) -> str:
    alphabet = [chr(c) for c in range(0x20)] + ["\x7f", "\x85", "\u2028", "é", "中", "𝟘", "1", "0", ",", " "]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))


class _Forms(HTMLParser):
    """Every form of a page: its action, method and fields with the values the page gave them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"action": a.get("action", ""), "method": (a.get("method") or "get").lower(), "fields": {}}
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        fields = self._form["fields"]
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                fields.setdefault(name, [])
                if "checked" in a or not fields[name]:
                    fields[name] = [a.get("value", "on")] if kind == "radio" else fields[name] + [a.get("value", "on")]
            else:
                fields.setdefault(name, []).append(a.get("value") or "")
        elif tag == "button" and name:
            fields.setdefault(name, [a.get("value", "")])
        elif tag == "textarea" and name:
            fields.setdefault(name, [""])
        elif tag == "select" and name:
            self._select = name
            fields.setdefault(name, [])
        elif tag == "option" and self._select:
            if not fields[self._select] or "selected" in a:
                fields[self._select] = [a.get("value", "")]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_of(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


class Fuzz:
    """Sends requests and counts them and the ones answered 5xx (or not answered at all)."""

    def __init__(self):
        self.sent = 0
        self.failures: list[str] = []

    def send(self, client, method: str, url: str, **kwargs):
        self.sent += 1
        # each request from its own address, so the limits on failed sign-ins and joins stay out of the way
        n = self.sent
        kwargs.setdefault("environ_base", {"REMOTE_ADDR": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"})
        try:
            response = client.open(url, method=method, **kwargs)
        except Exception as exc:  # the test client re-raises what the app did not handle
            self.failures.append(f"{method} {url!r} {kwargs.get('data')!r}: raised {exc.__class__.__name__}: {exc}")
            return None
        response.get_data()
        response.close()  # a static file is streamed from an open file
        if response.status_code >= 500:
            self.failures.append(f"{method} {url!r} {kwargs.get('data')!r}: {response.status_code}")
        return response


def _url(rule, values: dict[str, str]) -> str:
    path = rule.rule
    for name in rule.arguments:
        path = re.sub(r"<(?:[^:<>]+:)?" + name + ">", quote(values[name], safe=""), path)
    return path


def _scenario(instructor, student, learner):
    """Sessions, an exam and the people in them; the valid value of every path part."""
    sign_up(instructor, "teacher@example.com", name="Teacher", instructor=True)
    made = {}
    for mode, extra in (("paced", {}), ("self", {"minutes": "60"})):
        r = post_form(
            instructor,
            "/classroom/",
            {"title": f"{mode} class", "mode": mode, "ids": f"{BTN}\nseed001-min-raise", **extra},
            to="/classroom/new",
        )
        assert r.status_code == 303, r.text
        session_id = r.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        code = re.search(r'id="join-code">([A-Z0-9-]+)<', instructor.get(f"/classroom/{session_id}/").text).group(1)
        made[mode] = (session_id, code)
    paced_id, paced_code = made["paced"]
    r = post_form(instructor, f"/classroom/{paced_id}/", {}, to=f"/classroom/{paced_id}/next")
    assert r.status_code == 303
    for _mode, (_sid, code) in made.items():
        r = post_form(student, "/join", {"code": code, "name": "Ana"})
        assert r.status_code == 303, r.text
    sign_up(learner, "lee@example.com", name="Lee Learner")
    r = post_form(learner, "/exams/", {"candidate_name": "Ana Lee"}, to="/exams/mini/start")
    assert r.status_code == 303, r.text
    exam_id = r.headers["Location"].split("/")[2]
    # A class of accounts with the learner in it, and the mini exam assigned to it for a week.
    r = post_form(instructor, "/classroom/", {"class_title": "Dealers 101"}, to="/classroom/classes/new")
    assert r.status_code == 303, r.text
    class_id = r.headers["Location"].split("/")[3]
    invite = re.search(r'id="invite-code">([A-Z2-9]{4}-[A-Z2-9]{4})<', instructor.get(r.headers["Location"]).text).group(1)
    assert post_form(learner, f"/classes/join/{invite}", {}).status_code == 303
    opens = datetime.now(UTC) - timedelta(hours=1)
    r = post_form(instructor, f"/classroom/classes/{class_id}/",
                  {"template": "mini", "opens": opens.strftime("%Y-%m-%dT%H:%M"),
                   "closes": (opens + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"), "tz": "UTC"},
                  to=f"/classroom/classes/{class_id}/assign")
    assert r.status_code == 303, r.text
    class_page = instructor.get(f"/classroom/classes/{class_id}/").text
    assignment_id = re.search(r"/classroom/exams/([0-9a-f]+)/", class_page).group(1)
    member_id = re.search(rf"/classroom/classes/{class_id}/members/(\d+)/remove", class_page).group(1)
    # One of the instructor's own spots, and a hand-history upload of theirs (My spots).
    r = post_form(instructor, "/my-spots/new", {"yaml": MY_SPOT})
    assert r.status_code == 303, r.text
    spot_id = r.headers["Location"].split("/")[2].split("?")[0]
    r = post_form(instructor, "/my-spots/hands", {"mode": "every-decision",
                                                  "files": (io.BytesIO(STARS.encode()), "hands.txt")})
    assert r.status_code == 303, r.text
    upload_id = r.headers["Location"].rsplit("/", 1)[-1]
    return {
        "spot_id": spot_id,
        "upload_id": upload_id,
        "session_id": paced_id,
        "action": "reveal",
        "code": paced_code,
        "exam_id": exam_id,
        "number": "1",
        "slug": "mini",
        "scenario_id": BTN,
        "filename": "trainer.css",
        "fmt": "csv",
        "class_id": class_id,
        "assignment_id": assignment_id,
        "account_id": member_id,
    }, made


STUDENT_PAGES = frozenset(
    {"live.play", "live.stage", "live.answer", "live.self_question", "live.join",
     "live.join_code"}
)


def _actor(endpoint: str, clients: dict):
    """Who opens a route: the classroom's instructor or student, the learner in an exam, else a visitor."""
    blueprint = endpoint.split(".")[0]
    if blueprint == "live":
        return clients["student"] if endpoint in STUDENT_PAGES else clients["instructor"]
    if blueprint == "exams" or endpoint in ("classes.join_page", "classes.join", "classes.start", "classes.start_form"):
        return clients["learner"]
    if blueprint in ("classes", "authoring", "editor"):
        return clients["instructor"]
    return clients["anonymous"]


ENDING = ("/logout", "/end", "/submit", "/remove", "/delete")
# How much of the values each input gets: a quarter in the default run, all of them with -m slow.
SHARES = [pytest.param(4, id="quarter"), pytest.param(1, id="every-value", marks=pytest.mark.slow)]


@pytest.fixture
def app(database, tmp_path):
    from tests.store.conftest import running_app

    yield from running_app(
        database, tmp_path, EXAM_TEMPLATES=[_mini()], PROPAGATE_EXCEPTIONS=False)


# The two databases' runs are the suite's longest tests: PostgreSQL's is in a file of its own
# (test_input_fuzz_postgresql.py), so that with whole files per worker the two run side by side.
@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_no_input_anywhere_gets_a_server_error(app, database, capsys, share):
    fuzz_every_route(app, database, capsys, share)


def fuzz_every_route(app, database, capsys, share: int = 1) -> None:
    clients = {k: app.test_client() for k in ("instructor", "student", "learner", "anonymous")}
    valid, sessions = _scenario(clients["instructor"], clients["student"], clients["learner"])
    started = post_form(clients["anonymous"], "/speed", {}, to="/speed/start")  # a speed drill run of the visitor's
    assert started.status_code == 303, started.text
    valid["run_id"] = started.headers["Location"].rsplit("/", 1)[-1]
    fuzz = Fuzz()
    valid_fill = {"code": valid["code"]}
    rng = random.Random(2026)
    rounds = int(os.environ.get("TRAINER_FUZZ_ROUNDS", "1"))
    rules = list(app.url_map.iter_rules())
    turns = itertools.count()

    def shared(values: list[str]) -> list[str]:
        """Every ``share``-th value, each input starting one further than the input before."""
        return values[next(turns) % share::share]

    # 1. Every GET route: each path part, the query string, and the headers.
    forms: dict[tuple[int, str, str], tuple] = {}
    for rule in rules:
        if "GET" not in rule.methods:
            continue
        client = _actor(rule.endpoint, clients)
        good = _url(rule, valid)
        page = fuzz.send(client, "GET", good)
        if page is not None and page.status_code == 200 and page.mimetype == "text/html":
            for form in forms_of(page.text):
                if form["method"] == "post":
                    forms.setdefault((id(client), form["action"], "post"), (client, form))
        for name in rule.arguments:
            for value in shared(VALUES):
                fuzz.send(client, "GET", _url(rule, {**valid, name: value}))
        for param in ("next", "lang", "level", "seed", "topic", "days", "code", "v", "late", "x\x00"):
            for value in shared(VALUES if rounds > 1 else QUERY_VALUES):
                fuzz.send(client, "GET", good + "?" + urlencode({param: value}))
        fuzz.send(client, "GET", good + "?%ff%fe=%c3%28")
    for header, values in HEADERS.items():
        for value in values:
            for path in ("/", "/classroom/" + valid["session_id"] + "/", "/join", "/exams/"):
                client = clients["instructor"] if path.startswith("/classroom") else clients["anonymous"]
                fuzz.send(client, "GET", path, headers={header: value})

    # Pages reached only after a step: the sign-up and sign-in forms for a signed-out visitor,
    # the progress page with a history, the self-paced question, the exam's confirmation page.
    assert post_form(clients["anonymous"], f"/drill/{BTN}", BTN_RIGHT).status_code == 200
    for client, path in ((clients["anonymous"], "/account/signup"), (clients["anonymous"], "/account/login"),
                         (clients["anonymous"], "/progress/"),
                         (clients["student"], f"/c/{sessions['self'][1]}/q/1"),
                         (clients["learner"], f"/exams/{valid['exam_id']}/submit"),
                         (clients["instructor"], f"/classroom/{sessions['self'][0]}/"),
                         (clients["instructor"], "/account/")):
        page = fuzz.send(client, "GET", path)
        assert page is not None and page.status_code == 200, path
        for form in forms_of(page.text):
            if form["method"] == "post":
                forms.setdefault((id(client), form["action"], "post"), (client, form))

    posted = {urlsplit(action).path for (_c, action, _m) in forms}
    for rule in rules:
        if "POST" in rule.methods and not any(_matches(app, rule, p) for p in posted):
            assert rule.endpoint in UNLINKED_POSTS, f"no page has a form for POST {rule.rule}: list it in UNLINKED_POSTS"

    # 2. Every form field of every form, one at a time; forms that end something go last.
    ordered = sorted(forms.values(), key=lambda cf: cf[1]["action"].endswith(ENDING))
    for client, form in ordered:
        action = form["action"]
        fields = {k: v if any(v) else [valid_fill.get(k, FILL.get(k, ""))] for k, v in form["fields"].items()}
        fresh = _token_of(client)
        base = {**fields, "csrf_token": [fresh]}
        for name in list(fields) + ["next", "unexpected\x00"]:
            if name == "csrf_token":
                continue
            values = shared(VALUES) + [_random_text(rng) for _ in range(8 * (rounds - 1))]
            for value in values:
                unique = {k: [f"fuzz{fuzz.sent}@example.com"] for k in FRESH if k in base and k != name}
                response = fuzz.send(client, "POST", action, data={**base, **unique, name: [value]})
                if response is not None and response.status_code in (302, 303):  # signed up or in: a new token
                    base["csrf_token"] = [_token_of(client)]
            fuzz.send(client, "POST", action, data={**base, name: ["1", "\x00", "x" * 300]})
        # the action's own path parts
        for value in ("\x00", "%0d%0a", "9" * 40):
            fuzz.send(client, "POST", action.rstrip("/") + quote(value, safe="%") , data=base)
        # undecodable bytes in the body
        fuzz.send(client, "POST", action, data=b"csrf_token=" + fresh.encode() + b"&name=%ff%fe%00&email=%c3%28",
                  content_type="application/x-www-form-urlencoded")

    with capsys.disabled():
        print(f"\n[{database['DATABASE_URL'].split(':')[0]}] fuzz: {fuzz.sent} requests, "
              f"{len(fuzz.failures)} answered >= 500")
    assert fuzz.failures == [], f"{len(fuzz.failures)} of {fuzz.sent} requests failed:\n" + "\n".join(fuzz.failures[:40])


def _token_of(client) -> str:
    """The client's CSRF token (the session's: any page with a form shows it)."""
    return token(client.get("/account/signup").text)


def _matches(app, rule, path: str) -> bool:
    adapter = app.url_map.bind("localhost")
    try:
        endpoint, _args = adapter.match(path, method="POST")
    except Exception:
        return False
    return endpoint == rule.endpoint
