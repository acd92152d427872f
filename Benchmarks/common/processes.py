"""Shared by the server and cluster benchmarks: free loopback ports and waiting for a server."""

import socket
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(port, process, name, script):
    """Waits until `process` accepts connections on `port`; exits naming `script` if it cannot."""
    for _ in range(300):
        if process.poll() is not None:
            sys.exit(f"{script}: error: {name} exited ({process.returncode}) before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"{script}: error: {name} did not listen on {port}")
