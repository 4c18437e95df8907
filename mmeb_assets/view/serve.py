"""`mmeb view --serve`: the site over HTTP on 127.0.0.1 only, with the standard library."""
from __future__ import annotations

import functools
import http.server
from pathlib import Path

from mmeb_resources.serving import serve_until_interrupted


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of the site folder; no directory listings outside it, one log line per error only."""

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the standard library's name)
        if args and str(args[1] if len(args) > 1 else "").startswith(("4", "5")):
            super().log_message(format, *args)


def make_server(root: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(root))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(root: Path, port: int) -> None:
    server = make_server(root, port)
    print(f"view: serving      http://127.0.0.1:{server.server_address[1]}/index.html (Ctrl-C stops)", flush=True)
    serve_until_interrupted(server)
