"""What every benchmark shares: where the data is, which CPU and commit ran it, and how a result is written.

A result is one JSON file, ``eval/results/<topic>/<name>.json``: the figures, the command that
produced them (rerunnable from the repository root), the date, the commit, the CPU, and a label
saying what the figures may be used for:

- ``cross-validated``: every choice was made inside folds; the figures are held-fold means;
- ``tuning``: the data scored was used to choose something;
- ``test-scored-once``: a test split, scored once when the work was done;
- ``measurement``: speed, memory, fidelity: nothing was chosen on it.

``python -m eval.report`` builds ``eval/RESULTS.md`` from these files.
"""

from __future__ import annotations

import json
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "eval" / "results"
SHARED = REPO.parent / "shared" / "data"
LABELS = ("cross-validated", "tuning", "test-scored-once", "measurement")


def git_commit() -> str:
    """The commit the working tree is at, with ``+dirty`` when it has uncommitted changes to tracked files."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def cpu() -> dict:
    """The CPU's model name, core count and the flags that decide which arithmetic is fast."""
    name, flags = platform.processor() or platform.machine(), set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                name = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
    except OSError:
        pass
    wanted = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8")
    import os
    return {"model": name, "cores": os.cpu_count(), "flags": [f for f in wanted if f in flags],
            "bf16": "avx512_bf16" in flags or "amx_bf16" in flags}


SCRATCH_OPTIONS = ("--out-dir",)  # options naming a scratch folder: recorded as OUT, as the pages print them


def command_line(module: str | None = None) -> str:
    """The command that ran this process, as ``python -m <module> args…`` when run as a module.

    The folder given to a scratch option (``--out-dir``) is written ``OUT``: where one run put its
    outputs is no part of the command others rerun, and a path under ``work/`` must not reach the pages.
    """
    args = []
    for before, a in zip(sys.argv, sys.argv[1:]):  # each argument with the one before it
        if before in SCRATCH_OPTIONS:
            a = "OUT"
        elif "=" in a and a.partition("=")[0] in SCRATCH_OPTIONS:
            a = a.partition("=")[0] + "=OUT"
        args.append(shlex.quote(a))
    return " ".join(["python", "-m", module, *args] if module else ["python", shlex.quote(sys.argv[0]), *args])


def record(topic: str, name: str, figures: dict, *, label: str, command: str, notes: str = "",
           with_cpu: bool = False, rows: str = "", one_row: bool = False) -> Path:
    """Write ``eval/results/<topic>/<name>.json`` and return its path.

    ``rows`` names a key of ``figures`` whose entries each get a row of their own in
    ``eval/RESULTS.md`` (e.g. every rule's cross-validated effect); ``one_row`` keeps a
    result with a few top-level figures to a single row there.
    """
    if label not in LABELS:
        raise ValueError(f"label must be one of {LABELS}, not {label!r}")
    result = {"benchmark": f"{topic}.{name}", "label": label, "command": command,
              "date": time.strftime("%Y-%m-%d"), "commit": git_commit(), "figures": figures}
    if with_cpu:
        result["cpu"] = cpu()
    if notes:
        result["notes"] = notes
    if rows:
        result["rows"] = rows
    if one_row:
        result["one_row"] = True
    path = RESULTS / topic / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
