"""Two darkroom-servers sharing two memcached on loopback: what the shared layer costs and saves.

Run by Benchmarks/cluster.sh, which builds darkroom-server and installs wrk and memcached. The
servers share CPU 0 (each --jobs 1), memcached and wrk run on CPU 1. Standard library only.

Scenarios (wrk on the same paths; medians of RUNS rounds, p50 and p99 in ms):
  memory-hit   a server with [caches.memory] then [caches.shared], every path in its memory
  shared-hit   a server whose memory layer keeps nothing (capacity 0): every request is a memcached get
  renders      every distinct variant asked at once by 8 clients spread over both servers:
               encodes counted in both servers' /metrics, per distinct variant (goal: 1.0)
  render       every request renders (--no-cache): one render's latency, the baseline of
  stuck        that server with both memcached stopped (SIGSTOP: operations time out), every
               request a render: p99 against the render baseline's
  down         the same with both memcached killed (connections refused)
"""

import concurrent.futures
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

ROOT, WORK, DARKROOM, MEMCACHED, LUA = sys.argv[1:6]
RUNS = int(os.environ.get("RUNS", "5"))
SECONDS = int(os.environ.get("SECONDS_PER_RUN", "5"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "4"))
TIMEOUT_MS = int(os.environ.get("MEMCACHED_TIMEOUT_MS", "50"))
FILES = sorted(f for f in os.listdir(ROOT) if f.endswith(".jpg"))
VARIANTS = ["t1", "t2", "t3", "t4"]
SIZES = {"t1": 256, "t2": 200, "t3": 160, "t4": 128}
children = []


def fail(message):
    sys.exit(f"cluster.sh: error: {message}")


def spawn(name, command, port, cpu):
    process = subprocess.Popen(["taskset", "-c", str(cpu)] + command, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    children.append(process)
    wait_until_up(port, process, name, "cluster.sh")
    return process


def memcached():
    port = free_port()
    user = ["-u", "root"] if os.geteuid() == 0 else []
    process = spawn("memcached", [MEMCACHED, "-l", "127.0.0.1", "-p", str(port), "-U", "0", "-m", "256", "-t", "1"] + user,
                    port, 1)
    return process, port


def config(name, layers, memcached_ports):
    """A filters.d folder: the four variants and `layers` (memory, shared)."""
    folder = os.path.join(WORK, name)
    os.makedirs(folder, exist_ok=True)
    text = ""
    for variant in VARIANTS:
        size = SIZES[variant]
        text += (f"[variants.{variant}]\nfilters = [ {{ filter = \"aspect-fit\", width = {size}, height = {size}, "
                 "upscale = false } ]\nformat = \"jpeg\"\nquality = 80\n\n")
    # Without a memory table a default one comes first: capacity 0 keeps nothing in memory.
    text += "[caches.memory]\ncapacity = %s\n\n" % ("\"64MB\"" if "memory" in layers else "0")
    if "shared" in layers:
        servers = ", ".join(f"\"127.0.0.1:{port}\"" for port in memcached_ports)
        text += (f"[caches.shared]\ntype = \"memcached\"\nservers = [{servers}]\ntimeout = \"{TIMEOUT_MS}ms\"\n"
                 "lease = \"10s\"\n")
    with open(os.path.join(folder, "10-cluster.toml"), "w") as out:
        out.write(text)
    return folder


def server(name, folder, cache=True):
    port = free_port()
    command = [DARKROOM, "--config", folder, "--root", ROOT, "--no-remote", "--jobs", "1", "--metrics",
               "--host", "127.0.0.1", "--port", str(port), "--log-level", "error"]
    if not cache:
        command.append("--no-cache")
    return spawn(name, command, port, 0), port


def fetch(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as response:
        return response.status, response.headers.get("X-Darkroom-Cache"), response.read()


def encodes(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
        text = response.read().decode()
    for line in text.splitlines():
        if line.startswith("darkroom_stage_duration_seconds_count") and 'stage="encode"' in line:
            return float(line.split()[-1])
    return 0.0


def wrk(port, paths):
    out = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency", "-s", LUA,
         f"http://127.0.0.1:{port}", "--"] + paths,
        capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        fail(f"{errors.group(1)} failed responses:\n{out}")

    def latency(percent):
        match = re.search(rf"{percent}%\s+([\d.]+)(us|ms|s)", out)
        return float(match.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[match.group(2)]

    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), latency(50), latency(99)


def measure(port, paths):
    wrk(port, paths)  # warm-up
    rounds = [wrk(port, paths) for _ in range(RUNS)]
    return tuple(statistics.median(r[i] for r in rounds) for i in range(3))


def row(name, figures, note=""):
    rate, p50, p99 = figures
    print(f"{name:<12} {rate:>9.0f} req/s   p50 {p50:>8.2f} ms   p99 {p99:>8.2f} ms   {note}")


def main():
    pool = [memcached(), memcached()]
    ports = [port for _, port in pool]
    cluster = config("cluster", ["memory", "shared"], ports)
    shared_only = config("shared-only", ["shared"], ports)
    a = server("server A", cluster)[1]
    b = server("server B", cluster)[1]
    paths = [f"/t1/{f}" for f in FILES]

    # Render once per cluster: every distinct variant asked by 8 clients at once, both servers.
    distinct = [f"/{v}/{f}" for v in VARIANTS for f in FILES]
    before = encodes(a) + encodes(b)
    jobs = [(path, (a, b)[i % 2]) for path in distinct for i in range(8)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=32) as executor:
        answers = list(executor.map(lambda job: fetch(job[1], job[0]), jobs))
    if any(status != 200 for status, _, _ in answers):
        fail("a render-once request failed")
    for path in distinct:
        bodies = {body for (p, _), (_, _, body) in zip(jobs, answers) if p == path}
        if len(bodies) != 1:
            fail(f"{path}: {len(bodies)} different answers")
    renders = (encodes(a) + encodes(b) - before) / len(distinct)

    for path in paths:
        fetch(a, path)
    memory_hit = measure(a, paths)
    c = server("shared-only", shared_only)[1]
    for path in paths:
        if fetch(c, path)[1] != "shared":
            fail(f"{path} was not a shared-layer hit")
    shared_hit = measure(c, paths)
    render = measure(server("no-cache", cluster, cache=False)[1], paths)

    # memcached stopped (SIGSTOP): every operation waits out the timeout, then fails fast for a
    # while (libmemcached leaves a failed server out for retry-after seconds).
    for process, _ in pool:
        process.send_signal(signal.SIGSTOP)
    stuck = measure(c, paths)
    for process, _ in pool:
        process.send_signal(signal.SIGCONT)
        process.kill()
        process.wait()
    down = measure(c, paths)

    print(f"{len(FILES)} JPEGs, t1 = fit 256×256 JPEG q80; {CONNECTIONS} connections; "
          f"medians of {RUNS} rounds of {SECONDS} s; memcached timeout {TIMEOUT_MS} ms")
    row("memory-hit", memory_hit)
    row("shared-hit", shared_hit, f"{shared_hit[1] / memory_hit[1]:.1f}x the memory hit's p50")
    row("render", render, "(--no-cache: the baseline below is compared with)")
    row("stuck", stuck, f"p99 - render p99 = {stuck[2] - render[2]:.1f} ms (goal ≤ {TIMEOUT_MS} ms)")
    row("down", down, f"p99 - render p99 = {down[2] - render[2]:.1f} ms")
    print(f"renders per distinct variant, {len(distinct)} variants × 8 concurrent requests over 2 servers: "
          f"{renders:.2f} (goal 1.0)")


try:
    main()
finally:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGCONT)
            child.kill()
            child.wait()
