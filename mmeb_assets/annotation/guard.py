"""Only the app's own pages can write a judgment.

Why: a judgment is saved in an annotator's name by a plain form POST, and a browser sends such a form
from any page: another site on the same machine, a sandboxed frame or a `file://` page (both send
`Origin: null`), or a page whose name an attacker rebinds to 127.0.0.1 (its requests carry the
attacker's name in `Host`). Three checks, each enough for one of these:

- every item form carries a form token, an HMAC of the annotator and item under a key kept in the
  annotation folder; only a page the app served holds it, and no other origin can read that page;
- a form is refused when the browser says it came from elsewhere: `Sec-Fetch-Site` other than
  same-origin, or an `Origin` that is `null` or not this app's;
- on loopback, every request must name the app's own address in `Host`, so a rebound name reaches
  nothing (beyond loopback every request needs the access token anyway).
"""
from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from hashlib import sha256
from pathlib import Path
from urllib.parse import urlsplit

FORM_TOKEN_FIELD = "form_token"
KEY_FILE = "form.key"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def form_key(folder: Path) -> bytes:
    """The key of this home's form tokens (made once, kept so a form loaded before a restart saves)."""
    path = folder / KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(secrets.token_bytes(32))
        tmp.chmod(0o600)
        os.replace(tmp, path)
    return path.read_bytes()


def form_token(key: bytes, annotator: str, item_id: str) -> str:
    return hmac.new(key, f"{annotator}\x00{item_id}".encode(), sha256).hexdigest()[:40]


def token_matches(key: bytes, annotator: str, item_id: str, given: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), form_token(key, annotator, item_id).encode())


def own_hosts(host: str, port: int) -> frozenset[str]:
    """The `Host` values of a loopback app ('127.0.0.1:8765', 'localhost:8765', '[::1]:8765');
    empty beyond loopback, where the access token guards every request."""
    if not is_loopback(host):
        return frozenset()
    names = {host, "127.0.0.1", "localhost", "[::1]"}
    return frozenset(f"{name}:{port}".lower() for name in names)


def host_refusal(host_header: str, hosts: frozenset[str]) -> str:
    """'' when the request names the app; else why it is refused."""
    if not hosts or host_header.strip().lower() in hosts:
        return ""
    shown = sorted(hosts)[0]
    return (f"this app answers at http://{shown}/ only; a request for {host_header[:80]!r} was refused "
            "(a page whose name points at this machine cannot use it)")


def origin_refusal(origin: str | None, fetch_site: str | None, host_header: str) -> str:
    """'' when nothing says the form came from another page; else why it is refused."""
    if fetch_site and fetch_site not in ("same-origin", "none"):
        return f"a form sent from another site (Sec-Fetch-Site: {fetch_site[:40]}) was refused"
    if origin is None:
        return ""
    if origin == "null":
        return "a form from a sandboxed frame or a local file (Origin: null) was refused"
    if urlsplit(origin).netloc.lower() != host_header.strip().lower():
        return f"a form from another site ({origin[:80]}) was refused"
    return ""
