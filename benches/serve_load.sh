#!/usr/bin/env bash
# Load benchmark of `kyphu serve` (a benchmark, not a timed test): N concurrent clients
# (default 200) each POST one real record from corpus/ to /api/check at once, on
# 127.0.0.1 only; every answer must be 200 with the record's game count. Prints the
# wall time, the latencies and the server's peak memory (VmHWM), then stops the server.
#
# Usage: benches/serve_load.sh [CLIENTS] [KYPHU]   (KYPHU: the binary, default
# $CARGO_TARGET_DIR/release/kyphu, else target/release/kyphu). SERVE_LOAD_FILES=a:b
# sends those files instead of the five records of corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-200}
kyphu=${2:-${CARGO_TARGET_DIR:-target}/release/kyphu}
[ -x "$kyphu" ] || { echo "no binary at $kyphu (cargo build --release)"; exit 2; }
log=$(mktemp)
"$kyphu" serve --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "serving on" "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$log")
python3 - "$url" "$clients" "$pid" <<'PY'
import json, sys, threading, time, urllib.request
url, clients, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
records = {
    "corpus/chess/scoresheet-vi.pgn": 1,
    "corpus/chess/scoresheet-vi-slips.pgn": 1,
    "corpus/xiangqi/tao-hu-1999-chinese.pgn": 1,
    "corpus/chess/games.pgn": None,
    "corpus/text/manuscript-de.txt": None,
}
import os
if os.environ.get("SERVE_LOAD_FILES"):
    records = {f: None for f in os.environ["SERVE_LOAD_FILES"].split(":")}
bodies = [(f, json.dumps({"text": open(f, encoding="utf-8").read(), "name": f}).encode())
          for f in records]
def peak():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(("VmHWM", "VmRSS")):
            yield line.split()[1]
results = [None] * clients
start = threading.Barrier(clients + 1)
def client(i):
    f, body = bodies[i % len(bodies)]
    req = urllib.request.Request(url + "api/check", data=body,
                                 headers={"Content-Type": "application/json"})
    start.wait()
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            answer = json.loads(r.read())
            results[i] = (r.status, answer["counts"]["read"], time.perf_counter() - t, f)
    except Exception as e:  # an answer missing is a failure of the benchmark
        results[i] = (str(e), None, time.perf_counter() - t, f)
threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
for t in threads: t.start()
t0 = time.perf_counter()
start.wait()
for t in threads: t.join()
wall = time.perf_counter() - t0
ok = [r for r in results if r and r[0] == 200]
counts = {}
for r in ok: counts.setdefault(r[3], set()).add(r[1])
lat = sorted(r[2] for r in ok)
hwm, rss = list(peak())
print(f"{clients} concurrent /api/check requests: {len(ok)} answered 200 in {wall:.2f} s")
if lat:
    print(f"latency: median {lat[len(lat)//2]*1000:.0f} ms, p99 {lat[int(len(lat)*0.99)-1]*1000:.0f} ms, max {lat[-1]*1000:.0f} ms")
print(f"server memory: peak (VmHWM) {int(hwm)//1024} MB, now (VmRSS) {int(rss)//1024} MB")
for f, n in sorted(counts.items()): print(f"  {f}: games read {sorted(n)}")
bad = [r for r in results if not r or r[0] != 200]
if bad or any(len(n) != 1 for n in counts.values()):
    print(f"FAILED: {len(bad)} requests not answered 200: {bad[:3]}")
    sys.exit(1)
PY
