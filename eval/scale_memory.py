"""Peak memory (RSS) of ``eud enhance``, ``eud validate`` and ``eud evaluate`` against input size.

Builds CoNLL-U files of the given sizes under work/scale/ (gitignored) by
concatenating the shared treebanks, repeated until the size is reached (sentence
ids then repeat, so ``eud validate`` also reports ``non-unique-sent-id``; it runs
with --quiet), then runs each command under ``/usr/bin/time`` (at ``--nice``,
default 15) and prints one line per (command, size): input MB, peak RSS MB,
wall and CPU seconds, exit status and the load average when the command ended.

Commands: ``enhance``, ``validate``, ``evaluate`` (``--official-only``, the
file against itself) and ``evaluate-full`` (the same with eud's extra scores).

    python eval/scale_memory.py --sizes 100 500 1000
    python eval/scale_memory.py --sizes 100 500 1000 --commands evaluate evaluate-full --nice 5
"""

from __future__ import annotations

import argparse
import lzma
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "ud"
WORK = REPO / "work" / "scale"


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


def measure(argv: list[str], niceness: int) -> tuple[float, float, float, int]:
    """(peak RSS in MB, wall seconds, CPU seconds, exit status) of one command."""
    start = time.perf_counter()
    done = subprocess.run(
        ["nice", "-n", str(niceness), "/usr/bin/time", "-f", "MAXRSS %M CPU %U %S", *argv],
        capture_output=True, text=True, check=False, env={"EUD_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    wall = time.perf_counter() - start
    fields = next(line.split() for line in done.stderr.splitlines() if line.startswith("MAXRSS"))
    return int(fields[1]) / 1024, wall, float(fields[3]) + float(fields[4]), done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000], help="input sizes in MB")
    parser.add_argument("--commands", nargs="+", default=["enhance", "validate", "evaluate"],
                        choices=["enhance", "validate", "evaluate", "evaluate-full"])
    parser.add_argument("--nice", type=int, default=15, help="niceness of the measured commands")
    args = parser.parse_args()
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
            rss, wall, cpu, code = measure(commands[name], args.nice)
            load = os.getloadavg()[0]
            print(f"{name:13} input {mb:8.1f} MB  peak RSS {rss:7.1f} MB  wall {wall:8.1f} s  CPU {cpu:8.1f} s  "
                  f"exit {code}  load {load:.1f}", flush=True)
    (WORK / "enhanced.conllu").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
