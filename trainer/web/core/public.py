"""The address students are sent to (join links, QR codes), never taken from an arbitrary Host header.

In this order:

1. ``TRAINER_PUBLIC_URL`` (the ``PUBLIC_URL`` setting), when set;
2. behind a trusted proxy (werkzeug's ``ProxyFix``, which ``TRAINER_PROXIES``
   installs), the host and scheme the proxy forwarded;
3. the Host header the page was opened with, but only when it names this
   machine: ``localhost``, the machine's own name, or an IP address of one of
   its network interfaces (the address can be bound here), with the port the
   server listens on;
4. otherwise this machine's own network address and that port.

A forged ``Host: evil.example`` (a cache, a rebinding page, a script) so never
reaches a join link or a QR code.
"""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache
from urllib.parse import urlsplit

from flask import current_app, request

PROXY_FIX = "werkzeug.proxy_fix.orig"  # what ProxyFix leaves in the environ


def base_url() -> str:
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    if PROXY_FIX in request.environ:
        return request.host_url.rstrip("/")
    if host_is_this_server():
        return request.host_url.rstrip("/")
    return f"{request.scheme}://{_bracketed(own_address())}{_port_suffix()}"


def trusted() -> bool:
    """Whether the address the page was opened at is the one join links use."""
    return bool(current_app.config.get("PUBLIC_URL")) or PROXY_FIX in request.environ or host_is_this_server()


def loopback(url: str) -> bool:
    """Whether ``url`` names a loopback address (``localhost``, 127.0.0.0/8, ``::1``): only the machine
    that opens it is reached, never the one that served it, so nobody else can follow such a link.

    >>> loopback("http://127.0.0.1:8000/verify/X"), loopback("http://[::1]/"), loopback("https://trainer.example/")
    (True, True, False)
    """
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1
    return address.is_loopback or (mapped is not None and mapped.is_loopback)

def host_is_this_server() -> bool:
    host, port = _split(request.host)
    if host is None or port != _served_port():
        return False
    if host.lower() in ("localhost", socket.gethostname().lower(), socket.gethostname().lower() + ".local"):
        return True
    return _local_ip(host)


def _split(value: str) -> tuple[str | None, int | None]:
    """(host, port) of a Host header; the port defaults to the scheme's."""
    default = 443 if request.scheme == "https" else 80
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None, None
        host, rest = value[1:end], value[end + 1 :]
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = value.partition(":")
    if port and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None, None
    return host, int(port) if port else default


def _served_port() -> int | None:
    port = request.environ.get("SERVER_PORT", "")
    return int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else None


def _port_suffix() -> str:
    port = _served_port()
    default = 443 if request.scheme == "https" else 80
    return "" if port in (None, default) else f":{port}"


@lru_cache(maxsize=256)
def _local_ip(text: str) -> bool:
    """Whether ``text`` is an IP address of this machine: only those can be bound here."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    if address.is_unspecified or address.is_multicast:  # 0.0.0.0 binds, but names no machine
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def own_address() -> str:
    """This machine's address on the network it would reach others by (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routes like any outside address
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address
