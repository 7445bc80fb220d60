"""The HTTP plumbing of the loopback GitHub (github_server.py): the request handler that turns
each HTTP exchange into a call of `GitHubServer.handle`, with GitHub's headers, and the faults
(5xx, rate limits) a test can queue."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from tests.support.github_routes import Response

if TYPE_CHECKING:
    from tests.support.github_server import GitHubServer

FAULTS = ("500", "502", "primary_rate_limit", "secondary_rate_limit", "429")


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    kind: str
    times: int = 1


def _fault_response(fault: Fault) -> Response:
    now = int(time.time())
    if fault.kind in ("500", "502"):
        message = "Server Error" if fault.kind == "500" else "Bad Gateway"
        return int(fault.kind), {}, {"message": message}
    if fault.kind == "primary_rate_limit":
        headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(now)}
        return (
            403,
            headers,
            {
                "message": "API rate limit exceeded for installation ID 1.",
                "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            },
        )
    if fault.kind == "secondary_rate_limit":
        return (
            403,
            {"Retry-After": "1"},
            {
                "message": "You have exceeded a secondary rate limit. Please wait a few minutes "
                "before you try again.",
            },
        )
    return 429, {"Retry-After": "1"}, {"message": "Too Many Requests"}


def _handler_for(api: GitHubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in separate writes

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            status, extra, data = api.handle(self.command, self.path, self.headers, body)
            payload = b"" if data is None else json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-GitHub-Request-Id", f"LOOP:{api.new_id()}")
            if "X-RateLimit-Remaining" not in extra:
                reset = str(int(time.time()) + 3600)
                extra = {
                    "X-RateLimit-Limit": "5000",
                    "X-RateLimit-Remaining": "4999",
                    "X-RateLimit-Reset": reset,
                    **extra,
                }
            for key, value in extra.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler
