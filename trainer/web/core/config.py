"""Settings: safe local defaults, then environment variables, then the caller's overrides.

This is the one module that reads the environment for settings, once, when
the app is built (``settings``): the server, the store and the rate limits
read ``app.config``. docs/web.md ("Configuration") lists every setting.

The templates, static files and sample scenarios live at the top of the
repository and inside a built wheel (``trainer.resources``); each is a
setting so a deployment that copies them elsewhere can say where.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from werkzeug.security import generate_password_hash

from trainer.resources import folder
from trainer.store.learners import PASSWORD_HASH
from trainer.store.progress import NEW_PER_DAY
from trainer.translations import LOCALES
from trainer.web.core.i18n import locale_for

# environment variable -> setting
ENV = {
    "TRAINER_SECRET_KEY": "SECRET_KEY",
    "TRAINER_SCENARIOS": "SCENARIO_DIRS",
    "TRAINER_TEMPLATES": "TEMPLATES_DIR",
    "TRAINER_STATIC": "STATIC_DIR",
    "TRAINER_INSTANCE": "INSTANCE_DIR",
    "TRAINER_LOCALE": "LOCALE",
    "TRAINER_SECURE_COOKIES": "SESSION_COOKIE_SECURE",
    "TRAINER_PROXIES": "PROXIES",
    "TRAINER_INSTRUCTOR_HOURS": "INSTRUCTOR_SESSION_HOURS",
    "TRAINER_PUBLIC_URL": "PUBLIC_URL",
    "TRAINER_PROCESSES": "PROCESSES",
    "TRAINER_THREADS": "THREADS",
    "TRAINER_SPEED_SECONDS": "SPEED_SECONDS",
    "TRAINER_CLASS_POLL": "CLASS_POLL_SECONDS",
    "TRAINER_LIVE_RENDERS": "LIVE_RENDERS",
    "TRAINER_WORKER": "WORKER",
    "TRAINER_READ_SECONDS": "READ_SECONDS",
    "TRAINER_NEW_REVIEWS_PER_DAY": "NEW_REVIEWS_PER_DAY",
    "TRAINER_ORGANISATION": "ORGANISATION",
    "TRAINER_PASSWORD_HASH": "PASSWORD_HASH",
    "TRAINER_UPLOAD_MAX_BYTES": "UPLOAD_MAX_BYTES",
    "TRAINER_UPLOAD_MAX_FILES": "UPLOAD_MAX_FILES",
    # the conventional names, read by other tools too
    "DATABASE_URL": "DATABASE_URL",
    "TRAINER_DATABASE_SCHEMA": "DATABASE_SCHEMA",
    "REDIS_URL": "REDIS_URL",
}
# settings that are a whole number, with the least value that makes sense and what it is
WHOLE_NUMBERS = {
    "PROXIES": (0, "the number of reverse proxies in front of the app (0 for none, usually 1)"),
    "INSTRUCTOR_SESSION_HOURS": (1, "how many hours an instructor stays signed in"),
    "PROCESSES": (1, "how many server processes share the port"),
    "THREADS": (1, "how many threads each server process has"),
    "SPEED_SECONDS": (5, "how many seconds a speed drill run lasts"),
    "READ_SECONDS": (1, "how many seconds a client has to send a request, its headers then its body"),
    "CLASS_POLL_SECONDS": (1, "how many seconds a classroom page waits between polls when it has no event stream"),
    "LIVE_RENDERS": (1, "how many students' screens of a live session one server process draws at once"),
    "NEW_REVIEWS_PER_DAY": (1, "how many new spots a learner's spaced repetition takes in a day"),
    "UPLOAD_MAX_BYTES": (65_536, "how many bytes one upload of files to My spots may carry"),
    "UPLOAD_MAX_FILES": (1, "how many files one hand-history upload may hold"),
    "UPLOAD_MAX_FILE_BYTES": (1, "how many bytes one uploaded hand-history file may hold"),
    "UPLOAD_MAX_SPOTS": (1, "how many spots one hand-history upload may make"),
}
WORKERS = ("gthread", "gevent")
# what a backend named in a setting needs installed: (setting, module, extra)
EXTRAS = (("DATABASE_URL", "psycopg", "postgres"), ("REDIS_URL", "redis", "redis"))


SECRET_FILE = "secret_key"


class SettingError(RuntimeError):
    """A setting the app cannot start with; the message names the variable and what it takes."""


def defaults() -> dict[str, Any]:
    return {
        "SECRET_KEY": None,
        "SCENARIO_DIRS": [str(folder("scenarios"))],
        "TEMPLATES_DIR": str(folder("templates")),
        "STATIC_DIR": str(folder("static")),
        "INSTANCE_DIR": None,  # None: Flask's default instance folder
        "LOCALE": "en",  # when neither the URL, a cookie nor the browser names a language we have
        # Answers are a few hundred bytes; anything near this is not a learner.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        # The views that take files (core/uploads.py): My spots' YAML and hand-history uploads.
        "UPLOAD_MAX_BYTES": 8_000_000,
        "UPLOAD_MAX_FILES": 20,
        "UPLOAD_MAX_FILE_BYTES": 4_000_000,
        "UPLOAD_MAX_SPOTS": 2000,  # spots one hand-history upload makes, kept until some are saved
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        # Reverse proxies in front of the app whose X-Forwarded-* headers are believed (proxy.py).
        "PROXIES": 0,
        # An instructor's sign-in opens every student's answers: it lasts a school day, not a year.
        "INSTRUCTOR_SESSION_HOURS": 12,
        # How long a graded drill answer waits for its batch to commit before the page says
        # "not saved yet" and sends it again (trainer/store/writer.py).
        "SAVE_WAIT": 2.0,
        "PUBLIC_URL": None,  # the address in join links and QR codes (trainer/web/core/public.py)
        # Who issues this installation's exam results: named on every result, certificate and
        # /verify page. None: they say "an installation of Holdem Rules Trainer that has not named
        # its organisation", so an unnamed copy's certificate cannot pass for a school's.
        "ORGANISATION": None,
        # How passwords are hashed (werkzeug's method string). Keep the default: the test suite
        # alone sets a cheap one (tests/conftest.py), where thousands of sign-ups would each cost
        # 60 ms of CPU.
        "PASSWORD_HASH": PASSWORD_HASH,
        # trainer serve: processes sharing the port (one per core; one where the OS cannot fork),
        # and threads per process.
        "PROCESSES": (os.cpu_count() or 1) if hasattr(os, "fork") else 1,
        "THREADS": 32,
        # A speed drill run (trainer/web/speed/views.py): three minutes, as lichess's Puzzle Storm.
        "SPEED_SECONDS": 180,
        # A classroom page's polls, when it has no event stream (no JavaScript, or the stream dropped).
        "CLASS_POLL_SECONDS": 2,
        # A live session's student screens drawn at once per process: when a class of hundreds fetches
        # the next question together, the fetches take turns and the answers that arrive meanwhile
        # do not queue behind them (docs/classroom.md, "What a thousand students cost").
        "LIVE_RENDERS": 2,
        # Spaced repetition: new spots a learner's review takes in a (UTC) day, as Anki's new cards/day
        # (trainer/store/progress.py); spots answered beyond it join the review on a later day.
        "NEW_REVIEWS_PER_DAY": NEW_PER_DAY,
        # gunicorn's worker class: gevent (requests and event streams are greenlets), or gthread
        "WORKER": "gevent",
        # trainer serve: seconds a connection has to send a request's headers (its wait for the next
        # request included), then as many for its body; slower clients are dropped (docs/serving.md).
        "READ_SECONDS": 30,
        # None: SQLite in the instance folder (trainer/store/engines.py).
        "DATABASE_URL": None,
        "DATABASE_SCHEMA": None,  # PostgreSQL: the schema to use instead of the default one
        "REDIS_URL": None,  # None: rate limits counted in each process's memory (trainer/web/core/limits.py)
    }


def from_env(environ: Mapping[str, str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for var, key in ENV.items():
        value = environ.get(var, "").strip()
        if not value:
            continue
        if key == "SCENARIO_DIRS":
            settings[key] = [part for part in value.split(os.pathsep) if part]
        elif key == "SESSION_COOKIE_SECURE":
            settings[key] = value.lower() in ("1", "true", "yes", "on")
        else:
            settings[key] = value
    return settings


def settings(test_config: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    merged = defaults()
    if environ is None:
        environ = os.environ
    merged.update(from_env(environ))
    merged.update(test_config or {})
    if isinstance(merged["SCENARIO_DIRS"], (str, os.PathLike)):
        merged["SCENARIO_DIRS"] = [merged["SCENARIO_DIRS"]]
    locale = locale_for(str(merged["LOCALE"] or ""))
    if locale is None:
        raise SettingError(
            f"LOCALE {merged['LOCALE']!r} is not a language of the app: set TRAINER_LOCALE to "
            + ", ".join(LOCALES)
        )
    merged["LOCALE"] = locale
    for key, (least, meaning) in WHOLE_NUMBERS.items():
        merged[key] = _whole_number(key, merged[key], least, meaning)
    if not hasattr(os, "fork"):
        merged["PROCESSES"] = 1
    if merged["WORKER"] not in WORKERS:
        raise SettingError(f"TRAINER_WORKER={merged['WORKER']!s} is not one of {', '.join(WORKERS)}: gunicorn's worker class")
    merged["ORGANISATION"] = _organisation(merged["ORGANISATION"])
    merged["PASSWORD_HASH"] = _password_hash(merged["PASSWORD_HASH"])
    _check_extras(merged)
    for key in ("TEMPLATES_DIR", "STATIC_DIR"):
        if not Path(merged[key]).is_dir():
            raise SettingError(
                f"{key} {merged[key]!s} is not a folder. The web app needs its templates/ and "
                f"static/ folders; set {_env_name(key)} to where they are."
            )
    return merged


def _whole_number(key: str, value: Any, least: int, meaning: str) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not (text.isascii() and text.isdigit()) or int(text) < least:
        raise SettingError(f"{_env_name(key)}={value!s} is not a whole number of {least} or more: {meaning}")
    return int(text)


MAX_ORGANISATION = 120


def _password_hash(value: Any) -> str:
    method = str(value).strip()
    if method == PASSWORD_HASH:
        return method
    try:
        generate_password_hash("a password", method=method)
    except (ValueError, TypeError, AttributeError) as exc:
        raise SettingError(
            f"TRAINER_PASSWORD_HASH={method!r} is not a way werkzeug hashes passwords ({exc}): leave it unset"
        ) from None
    return method


def _organisation(value: Any) -> str | None:
    """The issuing organisation as printed: spaces collapsed, one line, of a length a certificate holds."""
    if value is None:
        return None
    name = " ".join(str(value).split())
    if len(name) > MAX_ORGANISATION or any(unicodedata.category(c)[0] == "C" for c in name):
        raise SettingError(
            f"TRAINER_ORGANISATION has {len(name)} characters or a control character: give the issuing "
            f"organisation's name in up to {MAX_ORGANISATION} printable characters"
        )
    return name or None


def _check_extras(merged: Mapping[str, Any]) -> None:
    """A backend named in the settings whose driver is not installed stops the app, naming the extra."""
    for key, module, extra in EXTRAS:
        value = str(merged.get(key) or "")
        if not value or (key == "DATABASE_URL" and not value.startswith("postgres")):
            continue
        if importlib.util.find_spec(module) is None:
            raise SettingError(
                f"{key} names {'PostgreSQL' if extra == 'postgres' else 'Redis'}, whose driver {module!r} "
                f"is not installed: pip install 'holdem-rules-trainer[{extra}]'"
            )


def _env_name(key: str) -> str:
    return next(var for var, k in ENV.items() if k == key)


def instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, made on first use.

    Several server processes may start at once: O_EXCL lets exactly one
    write the key and the others read it.
    """
    folder = Path(instance_path)
    try:
        return _secret_in(folder)
    except OSError as exc:  # a file where the folder should be, no permission, a name too long
        raise SettingError(
            f"TRAINER_INSTANCE: cannot keep the secret key in the instance folder {folder}: {exc.strerror or exc}"
        ) from None


def _secret_in(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        raise SettingError(f"{path} is empty: delete it to have a new secret key made") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key + "\n")
    return key
