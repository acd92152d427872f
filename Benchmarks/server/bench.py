"""darkroom-server against thumbor, side by side: requests/s and latency for the same thumbnails.

Run by Benchmarks/server.sh, which builds darkroom-server and installs wrk and thumbor. Both
servers are pinned to CPU 0 (darkroom-server with --jobs 1; thumbor is one process), wrk to CPU 1,
so each server has one core, as in peers.sh's single-threaded tasks.

Scenarios:
  render   every request renders (darkroom-server --no-cache; thumbor without result storage)
  hit      darkroom-server's memory-cache hits, against the framework's ceiling: a bare Hummingbird
           server answering a fixed 8 KiB body on the same core (Benchmarks/server/ceiling), the
           hit rate reported as a fraction of its rate, round by round (thumbor has no memory
           result cache to compare with)
Rounds alternate the servers (order reversed every other round) after a warm-up; medians, and
the darkroom/thumbor throughput ratio taken round by round.
"""

import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from processes import free_port, wait_until_up  # noqa: E402

from PIL import Image
import io

ROOT, WORK, DARKROOM, THUMBOR, CONFIG, LUA, CEILING = sys.argv[1:8]
RUNS = int(os.environ.get("RUNS", "5"))
# The hit/ceiling rounds are short and the host noisy (single rounds of one run ranged 0.74-0.98):
# at least 9 of them, so their median means something.
HIT_RUNS = int(os.environ.get("HIT_RUNS", str(max(RUNS, 9))))
SECONDS = int(os.environ.get("SECONDS_PER_RUN", "8"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "2"))
FILES = sorted(f for f in os.listdir(ROOT) if f.endswith(".jpg"))


def start(name, cache=False):
    port = free_port()
    if name == "darkroom":
        command = [DARKROOM, "--config", CONFIG, "--root", ROOT, "--no-remote", "--jobs", "1",
                   "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        if not cache:
            command.append("--no-cache")
        paths = [f"/t1/{f}" for f in FILES]
    else:
        conf = os.path.join(WORK, "thumbor.conf")
        with open(conf, "w") as out:
            out.write(
                "LOADER = 'thumbor.loaders.file_loader'\n"
                f"FILE_LOADER_ROOT_PATH = {ROOT!r}\n"
                "STORAGE = 'thumbor.storages.no_storage'\n"
                "RESULT_STORAGE = 'thumbor.result_storages.no_storage'\n"
                "ALLOW_UNSAFE_URL = True\nQUALITY = 80\nENGINE_THREADPOOL_SIZE = 0\n")
        command = [THUMBOR, "--port", str(port), "--ip", "127.0.0.1", "--conf", conf, "-l", "error"]
        paths = [f"/unsafe/fit-in/256x256/filters:quality(80)/{f}" for f in FILES]
    process = subprocess.Popen(["taskset", "-c", "0"] + command, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    wait_until_up(port, process, name, "server.sh")
    return process, port, paths


def start_ceiling():
    port = free_port()
    process = subprocess.Popen(["taskset", "-c", "0", CEILING, str(port)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    wait_until_up(port, process, "hummingbird-ceiling", "server.sh")
    return process, port


def fetch(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
        return response.status, response.read()


def wrk(port, paths, connections):
    out = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{SECONDS}s", "--latency", "-s", LUA,
         f"http://127.0.0.1:{port}", "--"] + paths,
        capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def latency(percentile):  # in ms
        found = re.search(percentile + r"%\s+([\d.]+)(us|ms|s)", out)
        return float(found.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[found.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"server.sh: error: {errors.group(1)} failed responses:\n{out}")
    return rate, latency("50"), latency("99")


def check_outputs(servers):
    """Every path answers 200 with a JPEG fitting 256×256; both servers agree on the size (±1)."""
    sizes = {}
    for name, (_, port, paths) in servers.items():
        for file, path in zip(FILES, paths):
            status, body = fetch(port, path)
            image = Image.open(io.BytesIO(body))
            if status != 200 or image.format != "JPEG" or max(image.size) != 256:
                sys.exit(f"server.sh: error: {name} {path}: status {status}, {image.format} {image.size}")
            sizes.setdefault(file, {})[name] = image.size
    for file, by in sizes.items():
        (w1, h1), (w2, h2) = by["darkroom"], by["thumbor"]
        if abs(w1 - w2) > 1 or abs(h1 - h2) > 1:
            sys.exit(f"server.sh: error: {file}: darkroom {w1}x{h1}, thumbor {w2}x{h2}")
    return sizes


def main():
    servers = {"darkroom": start("darkroom"), "thumbor": start("thumbor")}
    try:
        check_outputs(servers)
        for name, (_, port, paths) in servers.items():  # warm-up
            wrk(port, paths, CONNECTIONS)
        results = {name: [] for name in servers}
        for round_index in range(RUNS):
            order = list(servers) if round_index % 2 == 0 else list(reversed(servers))
            for name in order:
                _, port, paths = servers[name]
                results[name].append(wrk(port, paths, CONNECTIONS))
    finally:
        for process, _, _ in servers.values():
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)

    hit_process, hit_port, hit_paths = start("darkroom", cache=True)
    ceiling_process, ceiling_port = start_ceiling()
    hits, ceiling = [], []
    try:
        for path in hit_paths:
            fetch(hit_port, path)
        wrk(hit_port, hit_paths, 8)
        wrk(ceiling_port, hit_paths, 8)
        for round_index in range(HIT_RUNS):
            pair = [(hit_port, hits), (ceiling_port, ceiling)]
            for port, into in pair if round_index % 2 == 0 else reversed(pair):
                into.append(wrk(port, hit_paths, 8))
    finally:
        for process in (hit_process, ceiling_process):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)

    ratios = [d[0] / t[0] for d, t in zip(results["darkroom"], results["thumbor"])]
    print(f"{len(FILES)} JPEGs, fit within 256x256, JPEG q80; {RUNS} alternating rounds of {SECONDS} s, "
          f"{CONNECTIONS} connections, each server on one CPU (medians)")
    print(f"  {'server':<26}{'requests/s':>12}{'p50 latency':>14}{'p99 latency':>14}")
    for name in servers:
        rates = [r for r, _, _ in results[name]]
        p50s = [p for _, p, _ in results[name]]
        p99s = [p for _, _, p in results[name]]
        label = "darkroom-server" if name == "darkroom" else "thumbor " + THUMBOR_VERSION
        print(f"  {label + ' (render)':<26}{statistics.median(rates):>12.1f}{statistics.median(p50s):>11.2f} ms"
              f"{statistics.median(p99s):>11.2f} ms")
    print(f"  {'ratio (pairwise)':<26}{statistics.median(ratios):>12.2f}   darkroom-server / thumbor throughput "
          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"  memory-cache hits: {HIT_RUNS} alternating rounds of {SECONDS} s, 8 connections (medians)")
    for label, rows in (("darkroom-server (hit)", hits), ("hummingbird ceiling", ceiling)):
        print(f"  {label:<26}{statistics.median(r for r, _, _ in rows):>12.1f}"
              f"{statistics.median(p for _, p, _ in rows):>11.3f} ms{statistics.median(p for _, _, p in rows):>11.3f} ms"
              f"   8 connections")
    fractions = [h[0] / c[0] for h, c in zip(hits, ceiling)]
    print(f"  {'hits / ceiling (pairwise)':<26}{statistics.median(fractions):>12.2f}   memory-cache hits as a fraction "
          f"of a bare Hummingbird 8 KiB answer (rounds: {', '.join(f'{f:.2f}' for f in fractions)}; goal >= 0.85)")
    print(json.dumps({"render": results, "ratios": ratios, "hits": hits, "ceiling": ceiling}),
          file=open(os.path.join(WORK, "results.json"), "w"))


THUMBOR_VERSION = subprocess.run([THUMBOR.replace("bin/thumbor", "bin/python"), "-c",
                                  "import thumbor; print(thumbor.__version__)"],
                                 capture_output=True, text=True).stdout.strip()

if __name__ == "__main__":
    main()
