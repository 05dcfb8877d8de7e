"""Small transfers: compressed responses and static files a browser keeps for a year.

- **Compression** is flask-compress (brotli, then gzip, for what the browser
  accepts). Static files are compressed once per process and kept (bounded,
  by path and version); pages are compressed per response and never kept,
  since each carries its own CSRF token.
- **Fingerprints**: ``url_for('static', filename=...)`` adds ``?v=<hash of the
  file>``, so a changed file has a new address. A request with the current
  hash is answered ``Cache-Control: public, max-age=31536000, immutable``;
  any other (an old hash, none) is revalidated (``no-cache``), so a stale
  address never pins an old file. A query parameter is enough here: the app
  serves its own static files, and no proxy between a classroom and the
  laptop ignores it. (Flask-Static-Digest would need a build step that writes
  digested copies of every file; this needs none.)
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from cachetools import LRUCache
from flask import Flask, Request, Response, request
from flask_compress import Compress

YEAR = 365 * 24 * 3600
STATIC_CACHE_BYTES = 4 * 1024 * 1024  # compressed static files kept per process


class _StaticOnly:
    """flask-compress's cache backend: keeps compressed static files, nothing else."""

    def __init__(self) -> None:
        self._kept: LRUCache = LRUCache(maxsize=STATIC_CACHE_BYTES, getsizeof=len)

    def get(self, key: str) -> bytes | None:
        return self._kept.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";") and len(value) < STATIC_CACHE_BYTES:
            self._kept[key] = value




class Fingerprints:
    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)
        self._hashes: dict[str, str | None] = {}

    def of(self, filename: str) -> str | None:
        """A short hash of the file's content, or None when there is no such file."""
        if filename not in self._hashes:
            path = (self.folder / filename).resolve()
            ok = path.is_file() and path.is_relative_to(self.folder.resolve())
            self._hashes[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:12] if ok else None
        return self._hashes[filename]


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    app.config.setdefault("COMPRESS_CACHE_BACKEND", _StaticOnly)
    prints = Fingerprints(app.static_folder or "")

    def cache_key(req: Request) -> str:
        # only a static file asked for by its current fingerprint is kept, so no request input is;
        # "" (a page, or any other address) is never stored
        name = (req.view_args or {}).get("filename", "")
        if req.endpoint == "static" and req.args.get("v") and req.args["v"] == prints.of(name):
            return f"{req.path}?v={req.args['v']}"
        return ""

    app.config.setdefault("COMPRESS_CACHE_KEY", cache_key)
    # after_request hooks run last-registered first: compression must come after static_cache
    # has read the file, so it is registered first.
    Compress(app)
    app.extensions["trainer.fingerprints"] = prints

    @app.url_defaults
    def fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = prints.of(str(values.get("filename", "")))
            if version:
                values["v"] = version

    @app.after_request
    def static_cache(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code != 200:
            if response.mimetype == "text/html":
                response.headers.setdefault("Cache-Control", "no-cache")  # pages are never kept as they are
            return response
        wanted = request.args.get("v")
        if wanted and wanted == prints.of(request.view_args.get("filename", "") if request.view_args else ""):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"
        # read the file now, so flask-compress compresses it whole (and keeps it) rather than as a stream
        source = response.response
        response.direct_passthrough = False
        response.get_data()
        if hasattr(source, "close"):
            source.close()  # the file the static view opened
        return response
