"""The built wheel serves the whole app from any folder, not only the checkout.

Builds the wheel, installs it (not editable) into a fresh virtual environment,
starts ``trainer serve`` from an empty folder and reads the pages a learner
opens first: the home page in Traditional Chinese (compiled catalogs), a
drill from the packaged scenario library, the static files.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, **headers: str) -> tuple[int, str, dict]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read().decode("utf-8"), dict(response.headers)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel built and installed, not editable, into a fresh virtual environment. The
    environment borrows the test run's installed dependencies through a ``.pth`` line instead
    of downloading and unpacking them again (what this file checks is what the wheel carries;
    ``pip install -e .`` installs the dependencies pyproject.toml names)."""
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist), str(REPO)],
                   check=True, capture_output=True, text=True)
    wheel = next(dist.glob("*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site_packages = next((venv / "lib").glob("python*/site-packages"))
    # A plain path in a .pth file is added to sys.path after the environment's own packages, and the
    # .pth files inside it are not run: the checkout's editable install stays out of this environment.
    (site_packages / "borrowed.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                    "--no-warn-script-location", str(wheel)], check=True, capture_output=True, text=True)
    return venv, tmp


def test_the_wheel_carries_templates_static_files_scenarios_and_catalogs(installed):
    venv, _ = installed
    out = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "from trainer.resources import folder; from trainer.translations import FOLDER; import trainer;"
         "print(trainer.__file__); print(*(folder(n) for n in ('templates', 'static', 'scenarios')), sep='\\n');"
         "print(FOLDER / 'zh_Hant' / 'LC_MESSAGES' / 'messages.mo')"],
        check=True, capture_output=True, text=True, cwd="/",
    ).stdout.split()
    package = Path(out[0]).parent
    assert package.is_relative_to(venv), "the test must run the installed package, not the checkout"
    for path in map(Path, out[1:]):
        assert path.is_relative_to(package) and path.exists(), path
    assert (package / "_data" / "scenarios" / "short-all-in").is_dir()
    assert any((package / "store" / "migrations" / "versions").glob("0001_*.py"))


def test_the_installed_app_serves_pages_in_chinese_a_drill_and_static_files(installed):
    venv, tmp = installed
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRAINER_", "DATABASE_URL", "REDIS_URL"))}
    env["TRAINER_INSTANCE"] = str(tmp / "instance")
    log = tmp / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(venv / "bin" / "trainer"), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=elsewhere, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, home, headers = _get(base + "/", **{"Accept-Language": "zh-TW,zh;q=0.9"})
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    server.wait()
                    raise AssertionError("trainer serve from the wheel did not start:\n" + log.read_text())
                time.sleep(0.3)
        assert status == 200 and 'lang="zh-Hant"' in home and "開始練習" in home, home[:500]
        assert headers.get("Content-Language") == "zh-Hant"
        status, drill, _ = _get(base + "/drill/flop-allin-14-over-a-10-bet")
        assert status == 200 and "four-column card" in drill.lower()
        for path in ("/static/trainer.css", "/static/htmx.min.js"):
            status, body, _ = _get(base + path)
            assert status == 200 and len(body) > 1000, path
    finally:
        server.terminate()
        server.wait(timeout=30)
