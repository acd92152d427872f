#!/usr/bin/env python3
"""A loopback HTTP/2 server for Darkroom's HTTP/2 tests.

Started by `LoopbackHTTPServer.launch(http2: true)` (Tests/DarkroomTestSupport). It binds
127.0.0.1 on a free port, speaks HTTP/2 only (TLS with ALPN "h2", the way browsers and libcurl
negotiate it), prints `PORT <n>` on its first stdout line, and logs every stream as JSON lines
to `--log`, in the same shape as darkroom_test_server.py plus the connection and stream:

    {"event": "request", "id": 3, "method": "GET", "path": "/image/a.jpg", "headers": {...},
     "connection": 1, "stream": 5, "protocol": "h2"}
    {"event": "finished", "id": 3, "path": "/image/a.jpg", "status": 200, "outcome": "completed",
     "connection": 1, "stream": 5}

Routes (other query parameters just make distinct URLs):

    /image/NAME        the file with Content-Type and Content-Length; 404 when missing
    ?hold=NAME         on any route: the answer waits until the test creates the file NAME
                       in `--gates` (a stream reset or a closed connection meanwhile is logged
                       "aborted"); a hold never released ends with 503 after 120 s
    /status/CODE       that status with a short HTML body
    /big?bytes=N       N bytes (a JPEG signature then zeros) as image/jpeg, sent as the
                       client's flow-control windows allow

Needs the `h2` package (Debian: python3-h2).
"""

import argparse
import asyncio
import itertools
import json
import mimetypes
import os
import signal
import ssl
import sys
import threading
import urllib.parse

try:
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions
except ImportError:
    print("ERROR darkroom_h2_server.py needs the h2 package (apt-get install python3-h2)", flush=True)
    sys.exit(1)

mimetypes.add_type("image/webp", ".webp")
STREAM_IDS = itertools.count(1)
CONNECTION_IDS = itertools.count(1)


class Aborted(Exception):
    """The client reset the stream or closed the connection before the answer was sent."""


class H2Connection(asyncio.Protocol):
    def __init__(self, settings):
        self.settings = settings
        self.number = next(CONNECTION_IDS)
        self.h2 = h2.connection.H2Connection(
            config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.transport = None
        self.closed = False
        self.reset_streams = set()
        self.window_opened = asyncio.Event()

    # MARK: - Plumbing

    def connection_made(self, transport):
        self.transport = transport
        self.h2.initiate_connection()
        self.flush()

    def connection_lost(self, exc):
        self.closed = True
        self.window_opened.set()

    def flush(self):
        data = self.h2.data_to_send()
        if data and not self.closed:
            self.transport.write(data)

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.flush()
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                headers = dict(event.headers)
                asyncio.ensure_future(self.answer(event.stream_id, headers))
            elif isinstance(event, h2.events.StreamReset):
                self.reset_streams.add(event.stream_id)
                self.window_opened.set()
            elif isinstance(event, h2.events.WindowUpdated):
                self.window_opened.set()
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.transport.close()
        self.flush()

    def log(self, event):
        with open(self.settings.log, "a") as log:
            log.write(json.dumps(event) + "\n")

    def check_alive(self, stream):
        if self.closed or stream in self.reset_streams:
            raise Aborted()

    # MARK: - Answers

    async def answer(self, stream, headers):
        number = next(STREAM_IDS)
        path = headers.get(":path", "")
        self.log({
            "event": "request", "id": number, "method": headers.get(":method"), "path": path,
            "headers": {key: value for key, value in headers.items() if not key.startswith(":")},
            "connection": self.number, "stream": stream, "protocol": "h2",
        })
        status, outcome = None, "completed"
        try:
            url = urllib.parse.urlsplit(path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if "hold" in query and not await self.wait_for_release(stream, query["hold"]):
                status = 503
                await self.send(stream, 503, b"<html><body>hold never released</body></html>\n", "text/html")
            else:
                status, body, content_type = self.route(url.path, query)
                await self.send(stream, status, body, content_type)
        except Aborted:
            outcome = "aborted"
        self.log({
            "event": "finished", "id": number, "path": path, "status": status, "outcome": outcome,
            "connection": self.number, "stream": stream,
        })

    def route(self, path, query):
        if path.startswith("/image/"):
            name = urllib.parse.unquote(path[len("/image/"):])
            file = os.path.realpath(os.path.join(self.settings.root, name))
            if file.startswith(self.settings.root + os.sep) and os.path.isfile(file):
                with open(file, "rb") as handle:
                    body = handle.read()
                return 200, body, mimetypes.guess_type(file)[0] or "application/octet-stream"
        elif path == "/big":
            count = int(query.get("bytes", "0"))
            return 200, (b"\xff\xd8\xff\xe0" + bytes(max(0, count - 4)))[:count], "image/jpeg"
        elif path.startswith("/status/") and path[len("/status/"):].isdigit():
            code = int(path[len("/status/"):])
            return code, f"<html><body><h1>{code}</h1></body></html>\n".encode(), "text/html"
        return 404, b"<html><body><h1>404</h1></body></html>\n", "text/html"

    async def wait_for_release(self, stream, name):
        if not name.replace("-", "").replace("_", "").isalnum():
            return False
        gate = os.path.join(self.settings.gates, name)
        deadline = asyncio.get_running_loop().time() + 120
        while not os.path.exists(gate):
            self.check_alive(stream)
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def send(self, stream, status, body, content_type):
        self.check_alive(stream)
        self.h2.send_headers(stream, [
            (":status", str(status)), ("content-type", content_type), ("content-length", str(len(body))),
        ])
        self.flush()
        offset = 0
        while offset < len(body):
            self.check_alive(stream)
            window = min(self.h2.local_flow_control_window(stream), self.h2.max_outbound_frame_size)
            if window <= 0:
                self.window_opened.clear()
                await self.window_opened.wait()
                continue
            chunk = body[offset:offset + window]
            self.h2.send_data(stream, chunk)
            offset += len(chunk)
            self.flush()
        self.h2.end_stream(stream)
        self.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="folder of files to serve")
    parser.add_argument("--log", required=True, help="JSON-lines request log to append to")
    parser.add_argument("--gates", required=True, help="folder where the test creates the files `?hold=NAME` waits for")
    parser.add_argument("--tls-cert", required=True, help="PEM certificate")
    parser.add_argument("--tls-key", required=True, help="the certificate's PEM private key")
    settings = parser.parse_args()
    settings.root = os.path.realpath(settings.root)
    settings.gates = os.path.realpath(settings.gates)
    # See darkroom_test_server.py: Process starts children with SIGTERM blocked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(settings.tls_cert, settings.tls_key)
    context.set_alpn_protocols(["h2"])

    async def serve():
        server = await asyncio.get_running_loop().create_server(
            lambda: H2Connection(settings), "127.0.0.1", 0, ssl=context)
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await server.serve_forever()

    # Exit when the test process goes away (stdin closes), so no server outlives its tests.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    asyncio.run(serve())


if __name__ == "__main__":
    main()
