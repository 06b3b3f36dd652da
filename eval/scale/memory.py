"""Peak memory (RSS) of ``eud enhance``, ``eud validate`` and ``eud evaluate`` against input size.

Builds CoNLL-U files of the given sizes under work/scale/ (gitignored) by
concatenating the shared treebanks, repeated until the size is reached (sentence
ids then repeat, so ``eud validate`` also reports ``non-unique-sent-id``; it runs
with --quiet), then runs each command (at ``--nice``, default 15) and prints one
line per (command, size): input MB, peak RSS MB (the kernel's ru_maxrss, what
``/usr/bin/time -f %M`` shows), wall and CPU seconds, exit status and the load
average when the command ended.
``--limit`` stops a command after so many seconds and reports how much it had read
(``rchar``) with its peak RSS so far; ``--sample`` prints that every so many seconds.

Commands: ``enhance``, ``validate``, ``evaluate`` (``--official-only``, the
file against itself) and ``evaluate-full`` (the same with eud's extra scores).

    python -m eval.scale.memory --sizes 100 500 1000
    python -m eval.scale.memory --sizes 100 500 1000 --commands evaluate evaluate-full --nice 5
    python -m eval.scale.memory --sizes 1000 --commands validate --limit 1800 --sample 300

It writes the peak RSS of every (command, size) to ``eval/results/scale/memory.json``, except with
``--limit`` (a stopped run is a partial figure) or ``--no-record``.
"""

from __future__ import annotations

import argparse
import lzma
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from eval.common import command_line, record

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data" / "ud"
WORK = REPO / "work" / "scale"
SHOWN = {"enhance": "eud enhance", "validate": "eud validate", "evaluate": "eud evaluate --official-only",
         "evaluate-full": "eud evaluate (all extras)"}


def build(megabytes: int) -> Path:
    """A CoNLL-U file of about ``megabytes`` MB, made once and kept under work/scale/."""
    target = WORK / f"big-{megabytes}mb.conllu"
    if target.exists() and target.stat().st_size >= megabytes * 1_000_000:
        return target
    WORK.mkdir(parents=True, exist_ok=True)
    sources = sorted(SHARED.glob("*/*.conllu.xz"))
    written = 0
    with target.open("wb") as out:
        while written < megabytes * 1_000_000:
            for source in sources:
                with lzma.open(source) as f:
                    data = f.read()
                out.write(data)
                written += len(data)
                if written >= megabytes * 1_000_000:
                    break
    return target


@dataclass
class Run:
    """What one command used: peak RSS (MB), wall and CPU seconds, bytes it had read, exit status."""

    rss: float
    wall: float
    cpu: float
    read_mb: float
    status: int
    stopped: bool = False


def _proc_field(pid: int, name: str, field: str) -> int:
    """A number from /proc/PID/NAME (``VmHWM`` in status is in kB, ``rchar`` in io in bytes); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/{name}", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(argv: list[str], niceness: int, *, limit: float | None = None, sample: float | None = None,
            label: str = "") -> Run:
    """Run one command at ``niceness``; stop it after ``limit`` seconds; print progress every ``sample`` seconds.

    Peak RSS and CPU come from the kernel (``wait4``: ru_maxrss, user + system time), also for a stopped run.
    """
    start = time.perf_counter()
    child = subprocess.Popen(
        ["nice", "-n", str(niceness), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={"EUD_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    read = 0
    stopped = False
    next_sample = start + (sample or 0)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        read = max(read, _proc_field(child.pid, "io", "rchar"))
        now = time.perf_counter()
        if sample and now >= next_sample:
            hwm = _proc_field(child.pid, "status", "VmHWM") / 1024
            print(f"  {label} after {now - start:7.0f} s: read {read / 1e6:8.1f} MB, peak RSS so far {hwm:7.1f} MB",
                  flush=True)
            next_sample += sample
        if limit is not None and now - start > limit and not stopped:
            os.kill(child.pid, signal.SIGTERM)
            stopped = True
        time.sleep(0.5)
    child.returncode = os.waitstatus_to_exitcode(status)
    return Run(usage.ru_maxrss / 1024, time.perf_counter() - start, usage.ru_utime + usage.ru_stime, read / 1e6,
               child.returncode, stopped)


def main(argv: list[str] | None = None) -> None:
    """Measure every command on every size, print one line each and record the peak RSS."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000], help="input sizes in MB")
    parser.add_argument("--commands", nargs="+", default=["enhance", "validate", "evaluate"],
                        choices=["enhance", "validate", "evaluate", "evaluate-full"])
    parser.add_argument("--nice", type=int, default=15, help="niceness of the measured commands")
    parser.add_argument("--limit", type=float, help="stop a command after this many seconds (a partial figure)")
    parser.add_argument("--sample", type=float, help="print bytes read and peak RSS so far every this many seconds")
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    figures: dict[str, float] = {}
    python = sys.executable
    for size in args.sizes:
        path = build(size)
        mb = path.stat().st_size / 1e6
        commands = {
            "enhance": [python, "-m", "eud", "enhance", "--lang", "en", "-o", str(WORK / "enhanced.conllu"), str(path)],
            "validate": [python, "-m", "eud", "validate", "--quiet", str(path)],
            "evaluate": [python, "-m", "eud", "evaluate", "--official-only", str(path), str(path)],
            "evaluate-full": [python, "-m", "eud", "evaluate", str(path), str(path)],
        }
        for name in args.commands:
            run = measure(commands[name], args.nice, limit=args.limit, sample=args.sample, label=name)
            load = os.getloadavg()[0]
            end = f"stopped after reading {run.read_mb:.1f} MB" if run.stopped else f"exit {run.status}"
            print(f"{name:13} input {mb:8.1f} MB  peak RSS {run.rss:7.1f} MB  wall {run.wall:8.1f} s  "
                  f"CPU {run.cpu:8.1f} s  {end}  load {load:.1f}", flush=True)
            shown_size = f"{size / 1000:g} GB" if size >= 1000 else f"{size} MB"
            figures[f"{SHOWN[name]}, {shown_size}: peak RSS MB"] = round(run.rss, 1)
    (WORK / "enhanced.conllu").unlink(missing_ok=True)
    if args.limit is None and not args.no_record:
        record("scale", "memory", figures, label="measurement", command=command_line("eval.scale.memory"),
               with_cpu=True)


if __name__ == "__main__":
    main()
