"""Serving a local HTTP server until the user stops it: the one way both `mmeb view --serve` and
`mmeb annotate` end (Ctrl-C stops quietly, the socket is always closed)."""
from __future__ import annotations

import socketserver


def serve_until_interrupted(server: socketserver.BaseServer) -> None:
    """serve_forever until Ctrl-C; the server is closed however serving ends."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
