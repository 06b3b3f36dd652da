"""Load test of ``eud serve`` on loopback: N clients × M requests of one to three sentences each.

    python -m eval.server.load --clients 16 --requests 50 --workers 1 --max-queue 64

Starts ``eud serve`` on a free 127.0.0.1 port (nothing else is contacted),
waits for the model to load (``--model``), then every client posts raw text
to ``/process`` (tokenizer, tagger, parser) back to back, checks that each
answer is CoNLL-U with the sentences sent, every word parsed.  Prints
requests/s, p50/p99 latency, answers by status (503s counted apart: they are
the queue doing its job) and the server's peak RSS (server and workers, sampled
every 0.2 s).  It writes them, with the CPU and the load average, to
``eval/results/server/load.json`` unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil

from eud.conllu import parse_conllu
from eval.common import command_line, record

REPO = Path(__file__).resolve().parents[2]
SENTENCES = [
    "John ate an apple and Mary a pear.",
    "The dog barked at the mailman all morning.",
    "It rained all day, so we stayed in and read.",
    "She said that the meeting had been moved to Friday.",
    "Prices rose by three percent last year.",
    "Can you send me the report before noon?",
]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_tree(pid: int) -> int:
    """Resident memory of a process and its children, in bytes."""
    try:
        root = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0


def main(argv: list[str] | None = None) -> int:
    """Run the load test, print the figures and record them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=50, help="requests per client")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-queue", type=int, default=64)
    parser.add_argument("--model", default="en")
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "eud", "serve", "--port", str(port), "--workers",
                               str(args.workers), "--max-queue", str(args.max_queue), "--model", args.model],
                              cwd=REPO, env=dict(os.environ, EUD_NO_PROGRESS="1"))
    try:
        start = time.monotonic()
        while True:
            try:
                if httpx.get(url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() - start > 300:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.3)
        print(f"server up with the model loaded in {time.monotonic() - start:.1f} s", flush=True)
        peak = 0
        sampling = True

        def sample() -> None:
            nonlocal peak
            while sampling:
                peak = max(peak, rss_tree(server.pid))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        statuses: Counter = Counter()
        latencies: list[float] = []
        wrong: list[str] = []
        lock = threading.Lock()

        def client(c: int) -> None:
            with httpx.Client(timeout=600) as session:
                for r in range(args.requests):
                    k = c * args.requests + r
                    texts = [SENTENCES[(k + j) % len(SENTENCES)] for j in range(1 + k % 3)]
                    t0 = time.perf_counter()
                    answer = session.post(url + "/process", data={"data": " ".join(texts), "model": args.model,
                                                                  "tokenizer": "", "tagger": "", "parser": ""})
                    took = time.perf_counter() - t0
                    problem = None
                    if answer.status_code == 200:
                        sentences = parse_conllu(answer.json()["result"])
                        if [s.text for s in sentences] != texts or any(w.head is None for s in sentences
                                                                       for w in s.words):
                            problem = f"request {k}: wrong result"
                    with lock:
                        statuses[answer.status_code] += 1
                        if answer.status_code == 200:
                            latencies.append(took)
                        if problem:
                            wrong.append(problem)

        t0 = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            list(pool.map(client, range(args.clients)))
        wall = time.perf_counter() - t0
        sampling = False
        sampler.join()
        latencies.sort()
        total = sum(statuses.values())

        def pct(q: float) -> float:
            return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")

        errors = sum(n for code, n in statuses.items() if code not in (200, 503)) + len(wrong)
        print(f"{args.clients} clients x {args.requests} requests, {args.workers} worker(s): {total} requests in "
              f"{wall:.1f} s = {total / wall:.2f} requests/s; 200: {statuses[200]}, 503: {statuses[503]}, "
              f"errors (non-503 or wrong result): {errors}")
        print(f"latency of 200s: p50 {pct(0.5) * 1000:.0f} ms, p99 {pct(0.99) * 1000:.0f} ms; "
              f"peak RSS (server + workers) {peak / 2**20:.0f} MiB")
        for problem in wrong[:5]:
            print(problem)
        if not args.no_record:
            figures = {"requests/s": round(total / wall, 2), "p50 s": round(pct(0.5), 2), "p99 s": round(pct(0.99), 2),
                       "answers 200 / 503 / errors": f"{statuses[200]} / {statuses[503]} / {errors}",
                       "peak RSS server + worker MiB": round(peak / 2**20)}
            record("server", "load", figures, label="measurement", command=command_line("eval.server.load"),
                   notes=f"load average {os.getloadavg()[0]:.1f} at the end", with_cpu=True)
        return 1 if errors else 0
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
