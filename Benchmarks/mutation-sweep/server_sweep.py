#!/usr/bin/env python3
"""Serves the mutation sweep's mutants from one darkroom-server and checks it after each.

Each mutant (the same ones sweep.py makes for the same --seed) is written under the server's
--root, requested as every --variant, and the server must then answer GET /health. A server
that does not (it died, or hangs) is a finding: the mutant is kept and the server restarted.
A 5xx answer (bad input is the client's error) and a multi-line error body are findings too.
Loopback only. Standard library only; needs `prlimit` (util-linux). See README.md.
"""
import argparse, json, os, random, re, subprocess, sys, tempfile, time, urllib.error, urllib.request
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import EXT, ROOT, load_seeds, mutate  # noqa: E402

# MARK: - The server


class Server:
    """One darkroom-server under prlimit, on a loopback port it prints once listening."""

    def __init__(self, opts, root):
        self.opts, self.root, self.proc, self.url = opts, root, None, None
        self.cwd = tempfile.mkdtemp(prefix="darkroom-server-cwd-")  # no filters.d: the embedded default

    def start(self):
        argv = ["prlimit", f"--as={self.opts.as_limit}", "--", self.opts.server, "--root", self.root,
                "--host", "127.0.0.1", "--port", "0", "--no-cache", "--jobs", "2"]
        env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        env.pop("DARKROOM_CONFIG", None)
        # The log goes to a file: a pipe nobody reads fills with the access log (a line per
        # request at info) and then blocks the server.
        self.log = open(os.path.join(self.cwd, "server.log"), "w+")
        self.proc = subprocess.Popen(argv, cwd=self.cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match: sys.exit(f"server_sweep: the server did not start: {line!r} {self.log_tail(500)}")
        self.url = match.group(1)

    def log_tail(self, size):
        """The last `size` characters the server logged."""
        self.log.flush()
        with open(self.log.name) as log:
            return log.read()[-size:]

    def get(self, path, timeout):
        """(status, first line of the body) or (None, reason) when nothing came back."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
                return response.status, ""
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as error:
            return None, str(error)

    def alive(self):
        status, _ = self.get("/health", 5)
        return status == 200 and self.proc.poll() is None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try: self.proc.wait(10)
            except subprocess.TimeoutExpired: self.proc.kill(); self.proc.wait()

    def peak_rss_mb(self):
        """VmHWM of the server in MB (prlimit executes it in its own process); None when gone."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"): return int(line.split()[1]) // 1024
        except OSError:
            return None


# MARK: - Main


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=10000, help="mutants (default 10000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed, as sweep.py's (default 1)")
    ap.add_argument("--server", default=str(ROOT / ".build/release/darkroom-server"), help="the server binary")
    ap.add_argument("--variant", action="append", help="variants to request (default: original, thumbnail)")
    ap.add_argument("--as-limit", type=int, default=2 << 30, help="address-space limit in bytes (default 2 GiB)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per request (default 30)")
    ap.add_argument("--out", help="where findings go (default: a new temporary folder)")
    opts = ap.parse_args()
    opts.server = str(Path(opts.server).resolve())
    variants = opts.variant or ["original", "thumbnail"]
    out = Path(opts.out or tempfile.mkdtemp(prefix="darkroom-server-sweep-"))
    out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="darkroom-server-root-"))
    seeds = load_seeds([ROOT / "Tests/Fixtures", ROOT / "Samples"])
    formats = list(seeds)
    server = Server(opts, str(root))
    server.start()
    statuses, findings, start = Counter(), [], time.monotonic()
    for i in range(opts.count):
        fmt = formats[i % len(formats)]
        data, source, mutation = mutate(random.Random(f"{opts.seed}:{i}"), fmt, seeds[fmt])
        name = f"m{i:06d}.{EXT[fmt]}"
        (root / name).write_bytes(data)
        for variant in variants:
            status, body = server.get(f"/{variant}/{name}", opts.timeout)
            statuses[(fmt, status)] += 1
            if status is not None and status >= 400 and body.count("\n") > 1:
                findings.append({"index": i, "format": fmt, "variant": variant, "kind": "multi-line error", "body": body[:400]})
            if status is not None and status >= 500:  # bad input is the client's error (4xx), never the server's
                findings.append({"index": i, "format": fmt, "variant": variant, "kind": f"status {status}",
                                 "mutation": mutation, "body": body[:400]})
        if not server.alive():
            kept = out / "findings" / name
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(data)
            code = server.proc.poll()
            stderr = server.log_tail(800)
            findings.append({"index": i, "format": fmt, "kind": "server down", "exit": code, "mutation": mutation,
                             "source": source, "kept": str(kept), "stderr": stderr})
            print(f"  server down after {name} ({mutation}): exit {code}", file=sys.stderr)
            server.stop(); server.start()
        (root / name).unlink()
        if (i + 1) % 500 == 0:
            print(f"  {i + 1} mutants, {len(findings)} findings, {time.monotonic() - start:.0f} s", file=sys.stderr)
    peak = server.peak_rss_mb()
    server.stop()
    summary = {"count": opts.count, "seed": opts.seed, "variants": variants, "seconds": round(time.monotonic() - start),
               "peak_rss_mb": peak, "findings": findings,
               "statuses": {f"{fmt} {status}": n for (fmt, status), n in sorted(statuses.items(), key=str)}}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "findings"}, indent=1))
    print(f"{len(findings)} findings; summary in {out / 'summary.json'}")
    sys.exit(1 if any(f["kind"] == "server down" for f in findings) else 0)


if __name__ == "__main__":
    main()
