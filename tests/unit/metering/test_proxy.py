"""The token meter: it holds the API key, forwards only the session's requests, passes answers
through unchanged, and counts them from the API's side, even when the agent stops reading."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from specsnap.metering.apis import APIS
from specsnap.metering.proxy import TokenMeter, Upstream, swap_key
from specsnap.scorecard.model import Tokens
from tests.support.fake_anthropic import FakeAnthropic, Turn, Usage, text

REAL_KEY = "sk-ant-api03-the-real-one"
PLACEHOLDER = "sk-ant-api03-placeholder"


def test_swap_key_rewrites_every_credential_and_drops_foreign_ones() -> None:
    headers = {"X-Api-Key": PLACEHOLDER, "Authorization": "Bearer other", "Accept": "*/*"}
    swapped, query, found = swap_key(headers, "beta=true", PLACEHOLDER, REAL_KEY, "x-api-key")
    assert found and query == [("beta", "true")]
    assert swapped == {"X-Api-Key": REAL_KEY, "Accept": "*/*"}
    swapped, _, found = swap_key(
        {"authorization": f"Bearer {PLACEHOLDER}"}, "", PLACEHOLDER, REAL_KEY, "x-api-key"
    )
    assert found and swapped == {"authorization": f"Bearer {REAL_KEY}"}
    swapped, query, found = swap_key(
        {"x-goog-api-key": "guess"}, "key=guess", PLACEHOLDER, REAL_KEY, "x-goog-api-key"
    )
    assert not found and swapped == {} and query == []
    swapped, _, found = swap_key({"x-api-key": PLACEHOLDER}, "", PLACEHOLDER, None, "x-api-key")
    assert found and swapped == {}  # no real key: the placeholder never goes upstream


def test_a_key_in_the_url_goes_upstream_in_a_header_never_in_the_url() -> None:
    query = f"alt=sse&key={PLACEHOLDER}"
    swapped, pairs, found = swap_key({}, query, PLACEHOLDER, REAL_KEY, "x-goog-api-key")
    assert found and pairs == [("alt", "sse")] and swapped == {"x-goog-api-key": REAL_KEY}
    swapped, pairs, found = swap_key(
        {}, f"key={PLACEHOLDER}", PLACEHOLDER, REAL_KEY, "authorization"
    )
    assert found and pairs == [] and swapped == {"authorization": f"Bearer {REAL_KEY}"}


def anthropic_meter(base_url: str) -> TokenMeter:
    return TokenMeter({"anthropic": Upstream(APIS["anthropic"], base_url, REAL_KEY, PLACEHOLDER)})


def post(url: str, stream: bool, key: str = PLACEHOLDER) -> bytes:
    body = {
        "model": "m",
        "max_tokens": 10,
        "stream": stream,
        "tools": [{"name": "t"}],
        "messages": [{"role": "user", "content": "hi"}],
    }
    request = urllib.request.Request(
        url + "/v1/messages",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": key},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: bytes = answer.read()
        return data


def test_meter_counts_streamed_and_plain_answers_and_holds_the_key() -> None:
    script = [
        Turn((text("one"),), Usage(100, 10, 20, 300)),
        Turn((text("two"),), Usage(50, 5, 0, 400)),
    ]
    with FakeAnthropic(script, api_key=REAL_KEY) as server:
        meter = anthropic_meter(server.base_url).start()
        try:
            streamed = post(meter.url("anthropic"), stream=True)
            plain = json.loads(post(meter.url("anthropic"), stream=False))
            with pytest.raises(urllib.error.HTTPError) as bypass:
                post(server.base_url, stream=False)  # around the meter, with the placeholder
        finally:
            meter.stop()
    assert b"message_stop" in streamed and b"one" in streamed
    assert plain["content"][0]["text"] == "two"
    assert meter.answers == 2
    assert meter.usage == Tokens(150, 15, 20, 700, "metered")
    assert [r.header("x-api-key") for r in server.requests] == [REAL_KEY, REAL_KEY, PLACEHOLDER]
    assert bypass.value.code == 401 and len(server.rejected) == 1


def test_meter_refuses_requests_without_the_sessions_key() -> None:
    with FakeAnthropic([]) as server:
        meter = anthropic_meter(server.base_url).start()
        try:
            with pytest.raises(urllib.error.HTTPError) as refused:
                post(meter.url("anthropic"), stream=False, key="sk-ant-api03-guessed")
            with pytest.raises(urllib.error.HTTPError) as unrouted:
                post(meter.url("openai"), stream=False)
        finally:
            meter.stop()
    assert (refused.value.code, unrouted.value.code) == (401, 404)
    assert server.requests == [] and meter.refused == 1 and meter.usage is None


class Upstream8MB(BaseHTTPRequestHandler):
    """An answer far larger than the socket buffers between meter and agent, usage at its end;
    or, under `/hang`, the start of an answer that never ends."""

    protocol_version = "HTTP/1.1"
    release = threading.Event()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        start = {"type": "message_start", "message": {"usage": {"input_tokens": 7}}}
        self.wfile.write(b"data: " + json.dumps(start).encode() + b"\n\n")
        if self.path.startswith("/hang"):
            self.wfile.flush()
            self.release.wait(30)
            return
        padding = b": " + b"x" * 65000 + b"\n"
        for _ in range(130):
            self.wfile.write(padding)
        delta = {"type": "message_delta", "usage": {"output_tokens": 4321}}
        self.wfile.write(b"data: " + json.dumps(delta).encode() + b"\n\n")


@pytest.fixture
def big_upstream() -> Iterator[str]:
    Upstream8MB.release = threading.Event()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream8MB)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    Upstream8MB.release.set()
    server.shutdown()
    server.server_close()


def frozen_client(port: int, path: str) -> socket.socket:
    """A client that sends its request and then never reads, like a frozen agent."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.connect(("127.0.0.1", port))
    body = b"{}"
    client.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\nx-api-key: {PLACEHOLDER}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return client


def test_an_answer_is_drained_and_counted_while_the_agent_reads_nothing(big_upstream: str) -> None:
    meter = anthropic_meter(big_upstream).start()
    client = frozen_client(meter.port, "/anthropic/v1/messages")
    try:
        deadline = time.monotonic() + 20
        while meter.usage is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert meter.usage == Tokens(7, 4321, 0, 0, "metered")  # before the agent read it
    finally:
        client.close()
        meter.stop(drain_s=5)
    assert meter.partial == 0


def test_an_answer_still_arriving_when_the_meter_stops_counts_what_arrived(
    big_upstream: str,
) -> None:
    meter = anthropic_meter(big_upstream + "/hang").start()
    client = frozen_client(meter.port, "/anthropic/v1/messages")
    try:
        time.sleep(0.5)
        meter.stop(drain_s=0.5)
    finally:
        client.close()
    assert (meter.partial, meter.answers) == (1, 1)
    assert meter.usage == Tokens(7, 0, 0, 0, "metered")


class Unmeterable(BaseHTTPRequestHandler):
    """An API answering by the path prefix of its base URL: `/bare` a 200 without usage,
    `/limited` a 429 (not billed), `/silent` nothing at all until released."""

    protocol_version = "HTTP/1.1"
    release = threading.Event()
    arrived = threading.Event()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.arrived.set()
        if self.path.startswith("/silent"):
            self.release.wait(30)
            self.close_connection = True
            return
        status = 429 if self.path.startswith("/limited") else 200
        data = json.dumps({"type": "message", "content": [{"type": "text", "text": "hi"}]})
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data.encode())


@pytest.fixture
def unmeterable() -> Iterator[str]:
    Unmeterable.release, Unmeterable.arrived = threading.Event(), threading.Event()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Unmeterable)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    Unmeterable.release.set()
    server.shutdown()
    server.server_close()


def test_an_answer_without_readable_usage_is_unreadable_and_an_error_costs_nothing(
    unmeterable: str,
) -> None:
    bare = anthropic_meter(unmeterable + "/bare").start()
    try:
        post(bare.url("anthropic"), stream=False)
    finally:
        bare.stop(drain_s=5)
    assert (bare.unreadable, bare.answers, bare.usage) == (1, 0, None)
    limited = anthropic_meter(unmeterable + "/limited").start()
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            post(limited.url("anthropic"), stream=False)
    finally:
        limited.stop(drain_s=5)
    assert refused.value.code == 429 and limited.unreadable == 0


def test_a_request_still_waiting_for_its_first_byte_when_the_meter_stops_is_unreadable(
    unmeterable: str,
) -> None:
    meter = anthropic_meter(unmeterable + "/silent").start()
    client = frozen_client(meter.port, "/anthropic/v1/messages")
    try:
        assert Unmeterable.arrived.wait(10)
        meter.stop(drain_s=0.5)
    finally:
        client.close()
    assert (meter.partial, meter.unreadable, meter.usage) == (1, 1, None)


def test_an_endpoint_the_meter_cannot_count_is_refused_and_recorded() -> None:
    with FakeAnthropic([], api_key=REAL_KEY) as server:
        meter = anthropic_meter(server.base_url).start()
        request = urllib.request.Request(
            meter.url("anthropic") + "/v1/messages/batches",
            data=json.dumps({"requests": []}).encode(),
            headers={"content-type": "application/json", "x-api-key": PLACEHOLDER},
        )
        try:
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
        finally:
            meter.stop()
    assert refused.value.code == 403
    assert b"not an endpoint whose tokens" in refused.value.read()
    assert meter.unmetered == ["POST /anthropic/v1/messages/batches"] and server.requests == []


def test_a_kept_alive_connection_gets_nothing_through_once_the_meter_stopped() -> None:
    with FakeAnthropic([Turn((text("one"),), Usage(10, 1))], api_key=REAL_KEY) as server:
        meter = anthropic_meter(server.base_url).start()
        connection = http.client.HTTPConnection("127.0.0.1", meter.port, timeout=10)
        body = json.dumps({"model": "m", "max_tokens": 5, "tools": [{"name": "t"}]})
        headers = {"x-api-key": PLACEHOLDER, "content-type": "application/json"}
        connection.request("POST", "/anthropic/v1/messages", body, headers)
        assert connection.getresponse().read()
        meter.stop(drain_s=1)
        connection.request("POST", "/anthropic/v1/messages", body, headers)
        late = connection.getresponse()
        connection.close()
    assert late.status == 503 and len(server.requests) == 1 and meter.answers == 1
