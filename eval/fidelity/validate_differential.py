"""Differential test of ``eud validate`` against ``udvalidate --level 2`` on corrupted treebank windows.

Each variant is three consecutive sentences of a shared dev file with one fault
from eval/helpers/faults.py (44 kinds, taken in turn).  Prints the agreement on
(valid?, first error's test id), every disagreement, and the time of both
validators on en_ewt test (the real commands, best of 3).

    python -m eval.fidelity.validate_differential --per-file 600

It writes ``eval/results/fidelity/validate_differential.json`` unless given ``--no-record``
(for a quick run with a small ``--per-file``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from eval.common import command_line, record
from eval.helpers import faults

SHARED = REPO.parent / "shared" / "data" / "ud"
TREEBANKS = ["en_ewt", "cs_fictree", "lv_lvtb", "it_isdt", "fi_tdt", "nl_lassysmall"]


def _best_of(command: list[str], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> None:
    """Compare the two validators on the corrupted windows, time them, and record the agreement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-file", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    total = agree = 0
    kinds: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for treebank in TREEBANKS:
            path = next(SHARED.glob(f"{treebank}/*-dev.conllu.xz"))
            blocks = faults.split_blocks(faults.read_text(path))
            for i, (kind, data) in enumerate(faults.variants(blocks, args.per_file, seed=args.seed)):
                variant = Path(tmp) / f"{treebank}-{i}.conllu"
                variant.write_bytes(data)
                ours, theirs = faults.eud_verdict(str(variant)), faults.udvalidate_verdict(str(variant))
                total += 1
                kinds[kind] += 1
                if ours == theirs:
                    agree += 1
                else:
                    print(f"disagree {treebank} #{i} {kind}: eud {ours} udvalidate {theirs}")
                variant.unlink()
            print(f"{treebank}: {total} variants so far, {agree} agree", flush=True)
        print(f"agreement: {agree}/{total} = {agree / total:.4%} over {len(kinds)} fault kinds")
        test = Path(tmp) / "en_ewt-test.conllu"
        test.write_text(faults.read_text(SHARED / "en_ewt" / "en_ewt-ud-test.conllu.xz"), encoding="utf-8")
        for name, command in [
            ("udvalidate --lang ud --level 2", ["udvalidate", "--lang", "ud", "--level", "2", str(test)]),
            ("eud validate (level 2)", [sys.executable, "-m", "eud", "validate", str(test)]),
            ("eud validate --level 1", [sys.executable, "-m", "eud", "validate", "--level", "1", str(test)]),
        ]:
            print(f"time on en_ewt test: {name}: {_best_of(command):.2f} s")
    if not args.no_record:
        record("fidelity", "validate_differential",
               {f"agreement with udvalidate (valid? + first test id), {len(TREEBANKS)} dev treebanks":
                f"{agree:,} of {total:,}"},
               label="measurement", command=command_line("eval.fidelity.validate_differential"))


if __name__ == "__main__":
    main()
