"""Settings: safe local defaults, then environment variables, then the caller's overrides.

The templates, static files and sample scenarios live at the top of the
repository, not inside the package. The package is installed editable in
development and CI, so the defaults are found from the repository root;
each is a setting so a deployment that copies them elsewhere can say where.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from trainer.translations import LOCALES

from .i18n import locale_for

REPO_ROOT = Path(__file__).resolve().parents[2]

# environment variable -> setting
ENV = {
    "TRAINER_SECRET_KEY": "SECRET_KEY",
    "TRAINER_SCENARIOS": "SCENARIO_DIRS",
    "TRAINER_TEMPLATES": "TEMPLATES_DIR",
    "TRAINER_STATIC": "STATIC_DIR",
    "TRAINER_INSTANCE": "INSTANCE_DIR",
    "TRAINER_LOCALE": "LOCALE",
    "TRAINER_SECURE_COOKIES": "SESSION_COOKIE_SECURE",
    "TRAINER_PUBLIC_URL": "PUBLIC_URL",
}

SECRET_FILE = "secret_key"


def defaults() -> dict[str, Any]:
    return {
        "SECRET_KEY": None,
        "SCENARIO_DIRS": [str(REPO_ROOT / "scenarios")],
        "TEMPLATES_DIR": str(REPO_ROOT / "templates"),
        "STATIC_DIR": str(REPO_ROOT / "static"),
        "INSTANCE_DIR": None,  # None: Flask's default instance folder
        "LOCALE": "en",  # when neither the URL, a cookie nor the browser names a language we have
        # Answers are a few hundred bytes; anything near this is not a learner.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        "PUBLIC_URL": None,  # the address in join links and QR codes (trainer/web/public.py)
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


def settings(test_config: Mapping[str, Any] | None, environ: Mapping[str, str]) -> dict[str, Any]:
    merged = defaults()
    merged.update(from_env(environ))
    merged.update(test_config or {})
    if isinstance(merged["SCENARIO_DIRS"], (str, os.PathLike)):
        merged["SCENARIO_DIRS"] = [merged["SCENARIO_DIRS"]]
    locale = locale_for(str(merged["LOCALE"] or ""))
    if locale is None:
        raise RuntimeError(
            f"LOCALE {merged['LOCALE']!r} is not a language of the app: set TRAINER_LOCALE to "
            + ", ".join(LOCALES)
        )
    merged["LOCALE"] = locale
    for key in ("TEMPLATES_DIR", "STATIC_DIR"):
        if not Path(merged[key]).is_dir():
            raise RuntimeError(
                f"{key} {merged[key]!s} is not a folder. The web app needs the repository's "
                f"templates/ and static/; set {_env_name(key)} to where they are."
            )
    return merged


def _env_name(key: str) -> str:
    return next(var for var, k in ENV.items() if k == key)


def instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, made on first use.

    Several server processes may start at once: O_EXCL lets exactly one
    write the key and the others read it.
    """
    folder = Path(instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        raise RuntimeError(f"{path} is empty: delete it to have a new secret key made") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key + "\n")
    return key
