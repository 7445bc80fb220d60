"""The token meter's added time to first byte: what an agent waits longer for the first byte of
a streamed answer when SpecSnap's meter stands between it and the model API (target ≤ 2 ms).

A local upstream answers `POST /v1/messages` with server-sent events, flushing the first event at
once. A client on a kept-alive connection times request sent → first body byte, alternately
straight to the upstream and through the production `TokenMeter` (key swap, fresh upstream
connection per request, relay and counting included). Prints the median and p95 of each and
the median difference.

Usage: python benchmarks/meter_latency.py [--requests 300]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from specsnap.metering.apis import APIS
from specsnap.metering.proxy import TokenMeter, Upstream

KEY, PLACEHOLDER = "sk-ant-api03-real", "sk-ant-api03-placeholder"
START = {"type": "message_start", "message": {"usage": {"input_tokens": 10, "output_tokens": 1}}}
DELTA = {"type": "message_delta", "usage": {"output_tokens": 5}}


class Streaming(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # as a real API's server: events go out as they are written

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in (START, DELTA):
            data = f"data: {json.dumps(event)}\n\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


def first_byte_ms(connection: http.client.HTTPConnection, path: str) -> float:
    body = json.dumps({"model": "m", "stream": True, "messages": []})
    headers = {"content-type": "application/json", "x-api-key": PLACEHOLDER}
    started = time.perf_counter()
    connection.request("POST", path, body=body, headers=headers)
    answer = connection.getresponse()
    answer.read1(1)
    elapsed = (time.perf_counter() - started) * 1000
    answer.read()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Streaming)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{server.server_address[1]}"
    route = Upstream(APIS["anthropic"], upstream, KEY, PLACEHOLDER)
    meter = TokenMeter({"anthropic": route}).start()
    direct = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    metered = http.client.HTTPConnection("127.0.0.1", meter.port, timeout=10)
    times: dict[str, list[float]] = {"direct": [], "metered": []}
    for _ in range(20):  # warm up both paths
        first_byte_ms(direct, "/v1/messages")
        first_byte_ms(metered, "/anthropic/v1/messages")
    for _ in range(args.requests):
        times["direct"].append(first_byte_ms(direct, "/v1/messages"))
        times["metered"].append(first_byte_ms(metered, "/anthropic/v1/messages"))
    meter.stop(0)
    server.shutdown()
    for name, values in times.items():
        p95 = statistics.quantiles(values, n=20)[18]
        print(f"time to first byte, {name:8}: median {statistics.median(values):.3f} ms, "
              f"p95 {p95:.3f} ms ({len(values)} requests)")  # fmt: skip
    added = statistics.median(times["metered"]) - statistics.median(times["direct"])
    verdict = "within" if added <= 2.0 else "OVER"
    print(f"meter's added time to first byte: median {added:.3f} ms ({verdict} the 2 ms target)")
    print(f"metered answers counted: {meter.answers} of {args.requests + 20}")


if __name__ == "__main__":
    main()
