#!/usr/bin/env python3
"""A loopback HTTP server for Darkroom's source and pipeline tests.

Started by `LoopbackHTTPServer` (Tests/DarkroomTestSupport). It binds 127.0.0.1 on a free
port (HTTPS with `--tls-cert`/`--tls-key`), prints `PORT <n>` on its first stdout line, and serves the files of `--root` through
routes that misbehave on purpose. Every request is logged as JSON lines to `--log`:

    {"event": "request", "id": 7, "method": "GET", "path": "/image/a.jpg?x=1", "headers": {...}}
    {"event": "finished", "id": 7, "path": "/image/a.jpg?x=1", "status": 200, "outcome": "completed"}

`outcome` is "completed", or "aborted" when the client closed the connection before the
body was sent (a cancelled transfer). Tests read the log file; no control routes are needed.

Routes (every route takes `?delay=SECONDS` before answering, and any other query
parameters just make distinct URLs). Every route also takes `?hold=NAME`: the answer waits
until the test releases NAME (creates a file of that name in `--gates`), so a test that needs a
transfer in flight does not race a fixed delay; a client that closes the connection meanwhile
is logged as "aborted" at once, and a hold never released ends with 503 after 120 s.

    /image/NAME            the file, with ETag, Last-Modified and Content-Type; answers
                           If-None-Match / If-Modified-Since with 304.
                           ?max-age=N  Cache-Control: max-age=N    ?no-store=1  no-store
                           ?no-cache=1  no-cache   ?private=1  private, max-age=600
                           ?expires=N  Date: now, Expires: now + N seconds
                           ?fail-after=GATE  503 once the test released GATE
                           ?type=T     Content-Type: T (wrong types on purpose)
                           ?etag=0     no ETag    ?last-modified=0  no Last-Modified
    /slow/NAME?seconds=S   the file, its body spread over S seconds in 20 chunks
    /trickle?bytes=N&rate=R  N bytes of JPEG-looking data at R bytes per second
    /big?bytes=N           N bytes (a JPEG signature then zeros), Content-Length N
                           ?type=T     Content-Type: T instead of image/jpeg
    /chunked-big?bytes=N   the same without Content-Length (chunked encoding)
    /status/CODE           that status with a short HTML body (?retry-after=S adds Retry-After)
    /flaky/N/NAME          503 for the first N requests of this exact path, then the file
    /redirect?to=URL       302 to URL (?code=301|303|307|308 for others)
    /redirect-chain/N/NAME N redirects in a row, then the file
    /basic/USER/PASS/NAME  the file with HTTP Basic USER:PASS, else 401 + WWW-Authenticate
    /bearer/TOKEN/NAME     the file with "Authorization: Bearer TOKEN", else 401
    /header/NAME_H/VALUE/NAME  the file when request header NAME_H equals VALUE, else 403
    /html-as-jpeg          an HTML error page served as image/jpeg
    /cut/NAME              Content-Length of the whole file, then half the body and a reset
"""

import argparse
import base64
import email.utils
import hashlib
import json
import mimetypes
import os
import select
import signal
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG_LOCK = threading.Lock()
COUNTER_LOCK = threading.Lock()
REQUEST_IDS = [0]
FLAKY_COUNTS = {}

mimetypes.add_type("image/webp", ".webp")
mimetypes.add_type("image/avif", ".avif")
mimetypes.add_type("image/heic", ".heic")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "DarkroomTestServer/1"

    # MARK: - Plumbing

    def log_message(self, format, *args):  # keep test output quiet
        pass

    def log_event(self, event):
        with LOG_LOCK:
            with open(self.server.log_path, "a") as log:
                log.write(json.dumps(event) + "\n")

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        with COUNTER_LOCK:
            REQUEST_IDS[0] += 1
            self.request_id = REQUEST_IDS[0]
        self.status_sent = None
        self.log_event({
            "event": "request", "id": self.request_id, "method": self.command, "path": self.path,
            "headers": {key.lower(): value for key, value in self.headers.items()},
        })
        outcome = "completed"
        try:
            self.route()
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, socket.timeout):
            outcome = "aborted"
            self.close_connection = True
        self.log_event({
            "event": "finished", "id": self.request_id, "path": self.path,
            "status": self.status_sent, "outcome": outcome,
        })

    def send_response(self, code, message=None):
        self.status_sent = code
        super().send_response(code, message)

    def reply(self, code, body=b"", content_type="text/html", headers=None):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def html_error(self, code, headers=None):
        body = f"<html><body><h1>{code}</h1></body></html>\n".encode()
        self.reply(code, body, "text/html; charset=utf-8", headers)

    def wait_for_release(self, name):
        """Waits until the gate file `name` exists (True) or 120 s pass (False); raises
        ConnectionAbortedError as soon as the client closes the connection."""
        if not name.replace("-", "").replace("_", "").isalnum():
            return False
        gate = os.path.join(self.server.gates, name)
        deadline = time.monotonic() + 120
        while not os.path.exists(gate):
            if time.monotonic() > deadline:
                return False
            readable, _, _ = select.select([self.connection], [], [], 0.02)
            # The client sends nothing more while it waits for this answer: a readable
            # socket means it closed (or reset) the connection.
            if readable and self.client_closed():
                raise ConnectionAbortedError("client closed the connection during a hold")
        return True

    def client_closed(self):
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except ValueError:  # TLS sockets do not peek; treat the closing records as a close
            return True
        except OSError:
            return True

    def file_bytes(self, name):
        path = os.path.realpath(os.path.join(self.server.root, name))
        if not path.startswith(self.server.root + os.sep) or not os.path.isfile(path):
            return None, None
        with open(path, "rb") as handle:
            return handle.read(), path

    # MARK: - Routes

    def route(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if "delay" in query:
            time.sleep(float(query["delay"]))
        if "hold" in query and not self.wait_for_release(query["hold"]):
            self.html_error(503)
            return
        parts = [urllib.parse.unquote(part) for part in url.path.split("/") if part]
        head = parts[0] if parts else ""
        rest = parts[1:]
        if head == "image" and rest:
            self.serve_file("/".join(rest), query)
        elif head == "slow" and rest:
            self.serve_slowly("/".join(rest), float(query.get("seconds", "2")))
        elif head == "trickle":
            self.trickle(int(query.get("bytes", "100000")), float(query.get("rate", "100")))
        elif head == "big":
            self.big(int(query.get("bytes", "1000000")), chunked=False, content_type=query.get("type"))
        elif head == "chunked-big":
            self.big(int(query.get("bytes", "1000000")), chunked=True, content_type=query.get("type"))
        elif head == "status" and rest:
            headers = {"Retry-After": query["retry-after"]} if "retry-after" in query else None
            self.html_error(int(rest[0]), headers)
        elif head == "flaky" and len(rest) >= 2:
            with COUNTER_LOCK:
                seen = FLAKY_COUNTS.get(self.path, 0)
                FLAKY_COUNTS[self.path] = seen + 1
            if seen < int(rest[0]):
                self.html_error(503)
            else:
                self.serve_file("/".join(rest[1:]), query)
        elif head == "redirect" and "to" in query:
            self.reply(int(query.get("code", "302")), b"", "text/plain", {"Location": query["to"]})
        elif head == "redirect-chain" and len(rest) >= 2:
            remaining = int(rest[0])
            name = "/".join(rest[1:])
            target = f"/redirect-chain/{remaining - 1}/{name}" if remaining > 1 else f"/image/{name}"
            self.reply(302, b"", "text/plain", {"Location": target})
        elif head == "basic" and len(rest) >= 3:
            expected = "Basic " + base64.b64encode(f"{rest[0]}:{rest[1]}".encode()).decode()
            if self.headers.get("Authorization") == expected:
                self.serve_file("/".join(rest[2:]), query)
            else:
                self.html_error(401, {"WWW-Authenticate": 'Basic realm="darkroom-test"'})
        elif head == "bearer" and len(rest) >= 2:
            if self.headers.get("Authorization") == f"Bearer {rest[0]}":
                self.serve_file("/".join(rest[1:]), query)
            else:
                self.html_error(401, {"WWW-Authenticate": 'Bearer realm="darkroom-test"'})
        elif head == "header" and len(rest) >= 3:
            if self.headers.get(rest[0]) == rest[1]:
                self.serve_file("/".join(rest[2:]), query)
            else:
                self.html_error(403)
        elif head == "html-as-jpeg":
            self.reply(200, b"<!DOCTYPE html><html><body>Service Unavailable</body></html>\n", "image/jpeg")
        elif head == "cut" and rest:
            self.cut("/".join(rest))
        else:
            self.html_error(404)

    def serve_file(self, name, query):
        if "fail-after" in query and os.path.exists(os.path.join(self.server.gates, query["fail-after"])):
            self.html_error(503)
            return
        body, path = self.file_bytes(name)
        if body is None:
            self.html_error(404)
            return
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(os.path.getmtime(path), usegmt=True)
        headers = {}
        if query.get("etag", "1") != "0":
            headers["ETag"] = etag
        if query.get("last-modified", "1") != "0":
            headers["Last-Modified"] = modified
        if "max-age" in query:
            headers["Cache-Control"] = f"max-age={int(query['max-age'])}"
        if query.get("no-store") == "1":
            headers["Cache-Control"] = "no-store"
        if query.get("no-cache") == "1":
            headers["Cache-Control"] = "no-cache"
        if query.get("private") == "1":
            headers["Cache-Control"] = "private, max-age=600"
        if "expires" in query:
            now = time.time()
            headers["Date"] = email.utils.formatdate(now, usegmt=True)
            headers["Expires"] = email.utils.formatdate(now + int(query["expires"]), usegmt=True)
        matches_etag = "ETag" in headers and self.headers.get("If-None-Match") == etag
        matches_date = ("Last-Modified" in headers and "If-None-Match" not in self.headers
                        and self.headers.get("If-Modified-Since") == modified)
        if matches_etag or matches_date:
            self.send_response(304)
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            return
        content_type = query.get("type") or mimetypes.guess_type(name)[0] or "application/octet-stream"
        self.reply(200, body, content_type, headers)

    def serve_slowly(self, name, seconds):
        body, _ = self.file_bytes(name)
        if body is None:
            self.html_error(404)
            return
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        pieces = 20
        step = max(1, (len(body) + pieces - 1) // pieces)
        for start in range(0, len(body), step):
            self.wfile.write(body[start:start + step])
            self.wfile.flush()
            time.sleep(seconds / pieces)

    def trickle(self, count, rate):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        sent = 0
        header = b"\xff\xd8\xff\xe0"
        while sent < count:
            piece = max(1, int(rate / 10))
            chunk = (header + b"\0" * piece)[:min(piece, count - sent)] if sent == 0 else b"\0" * min(piece, count - sent)
            self.wfile.write(chunk)
            self.wfile.flush()
            sent += len(chunk)
            time.sleep(0.1)

    def big(self, count, chunked, content_type=None):
        self.send_response(200)
        self.send_header("Content-Type", content_type or "image/jpeg")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(count))
        self.end_headers()
        sent = 0
        block = 65536
        while sent < count:
            size = min(block, count - sent)
            data = (b"\xff\xd8\xff\xe0" + b"\0" * size)[:size] if sent == 0 else b"\0" * size
            if chunked:
                self.wfile.write(f"{size:x}\r\n".encode() + data + b"\r\n")
            else:
                self.wfile.write(data)
            sent += size
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def cut(self, name):
        body, _ = self.file_bytes(name)
        if body is None:
            self.html_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.connection.close()
        self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client that refuses the certificate ends the handshake: expected, not worth a trace.
        if isinstance(sys.exc_info()[1], (ssl.SSLError, ConnectionError)):
            return
        super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="folder of files to serve")
    parser.add_argument("--log", required=True, help="JSON-lines request log to append to")
    parser.add_argument("--gates", help="folder where the test creates the files `?hold=NAME` waits for")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-cert", help="serve HTTPS with this PEM certificate (needs --tls-key)")
    parser.add_argument("--tls-key", help="the certificate's PEM private key")
    args = parser.parse_args()
    # Foundation's Process starts children with the parent's blocked signals (libdispatch
    # blocks SIGTERM in its threads): unblock them, or Process.terminate() cannot stop us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
    server = Server(("127.0.0.1", args.port), Handler)
    server.root = os.path.realpath(args.root)
    server.log_path = args.log
    server.gates = os.path.realpath(args.gates or os.path.dirname(args.log))
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        # The handshake happens on the handler's thread, at its first read.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print(f"PORT {server.server_address[1]}", flush=True)
    # Exit when the test process goes away (stdin closes), so no server outlives its tests.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
