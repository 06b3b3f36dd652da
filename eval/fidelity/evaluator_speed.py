"""Speed of ``eud evaluate`` against the official procedure: collapse gold, collapse system, udeval.

Gold is the en_ewt test file; the system is a copy of its basic tree in DEPS
(written to a temporary file first, not timed).  Both sides are whole
processes started the same way (the console scripts next to this Python):

* official: ``eud collapse GOLD -o g`` + ``eud collapse SYSTEM -o s`` + ``udeval -v g s``
* eud:      ``eud evaluate GOLD SYSTEM``

Runs alternate between the two, ``--repeat`` times; the figure is the ratio of
medians, for wall-clock time and for CPU time (user+sys of the child
processes, which is steadier on a shared machine).  The goal is a ratio of at
most 1/3.

    python -m eval.fidelity.evaluator_speed
    python -m eval.fidelity.evaluator_speed --repeat 7 --gold /work/shared/data/ud/lv_lvtb/lv_lvtb-ud-test.conllu.xz
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from eud.conllu import read_conllu, write_conllu
from eud.graph import EnhancedGraph
from eval.common import command_line, record

SHARED_UD = Path(__file__).resolve().parents[3] / "shared" / "data" / "ud"
BIN = Path(sys.executable).parent


def _command(name: str, *args: str) -> list[str]:
    script = BIN / name
    if script.exists():
        return [str(script), *args]
    if name == "udeval":
        return [sys.executable, "-c", "import sys; from udtools.cli import main_eval; sys.exit(main_eval())", *args]
    return [sys.executable, "-m", "eud", *args[0:]]


def _run(commands: list[list[str]]) -> tuple[float, float]:
    """Run commands one after another; (wall seconds, child CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for cmd in commands:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    """Time both procedures and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, default=SHARED_UD / "en_ewt" / "en_ewt-ud-test.conllu.xz")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    env_note = f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    with tempfile.TemporaryDirectory() as tmp:
        system = Path(tmp) / "system.conllu"
        sentences = []
        for s in read_conllu(args.gold):
            s.enhanced = EnhancedGraph(s.basic_edges())
            s.empty_nodes = []
            sentences.append(s)
        write_conllu(sentences, system)
        g, s = str(Path(tmp) / "g.conllu"), str(Path(tmp) / "s.conllu")
        eud = _command("eud")
        official = [
            [*eud, "collapse", str(args.gold), "-o", g],
            [*eud, "collapse", str(system), "-o", s],
            _command("udeval", "-v", g, s),
        ]
        ours = [[*eud, "evaluate", str(args.gold), str(system)]]
        times: dict[str, list[tuple[float, float]]] = {"official": [], "eud": []}
        for _ in range(args.repeat):
            times["official"].append(_run(official))
            times["eud"].append(_run(ours))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    print(f"gold: {args.gold.name}, system: its basic tree in DEPS, {args.repeat} alternating runs, {env_note}")
    print(f"official (2 x eud collapse + udeval): wall {med['official'][0]:.2f}s  cpu {med['official'][1]:.2f}s")
    print(f"eud evaluate:                         wall {med['eud'][0]:.2f}s  cpu {med['eud'][1]:.2f}s")
    print(f"ratio eud/official: wall {med['eud'][0] / med['official'][0]:.3f}  cpu {med['eud'][1] / med['official'][1]:.3f}"
          "  (goal: at most 0.333)")
    record("fidelity", "evaluator_speed",
           {"eud evaluate / official procedure, CPU time (median of 5)": round(med["eud"][1] / med["official"][1], 3),
            "same, wall clock": round(med["eud"][0] / med["official"][0], 3), "goal": "at most 0.333"},
           label="measurement", command=command_line("eval.fidelity.evaluator_speed"), notes=env_note, with_cpu=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
