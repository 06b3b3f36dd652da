"""Does ``eud validate`` find exactly what ``udvalidate --level 2`` finds in enhanced graphs?

Runs both validators on every shared treebank file (decompressed to a temporary
folder) and on the hand-made broken fixtures, keeps only udvalidate's findings
whose test id concerns the enhanced graph (see ``ENHANCED_TESTIDS`` in
:mod:`eud.validate`; the two root-label rules are level 3 in udvalidate, so
they are taken from a second run at level 3 restricted to them), and compares
the multisets of (sentence, test id).  Other level-2 findings (features, MISC,
metadata, the basic tree) are out of scope and only counted.

It also times :func:`eud.validate.check_sentence` and
:func:`eud.repair.repair_sentence` per word on the readable sentences.

    python eval/validate_agreement.py                 # all shared files + fixtures
    python eval/validate_agreement.py --files A.conllu B.conllu.xz
"""

from __future__ import annotations

import argparse
import bisect
import lzma
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from eud.conllu import read_conllu
from eud.repair import repair_sentence
from eud.validate import ENHANCED_TESTIDS, check_sentence

REPO = Path(__file__).resolve().parents[1]
SHARED_UD = REPO.parent / "shared" / "data" / "ud"
FIXTURES = REPO / "tests" / "fixtures"
ROOT_RULES = ("enhanced-0-is-not-root", "enhanced-root-is-not-0")
_UD_LINE = re.compile(r"^\[(?:File \S+ )?Line (-?\d+)[^\]]*\]: \[L(\d) (\w+) ([\w-]+)\]")
_EUD_LINE = re.compile(r"^.*:(\d+|\?): \[([\w-]+)\]")

Findings = Counter[tuple[int, str]]


def sentence_starts(path: Path) -> list[int]:
    """The first line of every sentence of a plain CoNLL-U file."""
    starts, previous_blank = [], True
    with path.open(encoding="utf-8", errors="replace") as stream:
        for number, line in enumerate(stream, 1):
            blank = not line.strip("\r\n")
            if previous_blank and not blank:
                starts.append(number)
            previous_blank = blank
    return starts


def _sentence_of(starts: list[int], line: int) -> int:
    return starts[max(bisect.bisect_right(starts, line) - 1, 0)] if starts else 0


def udvalidate(path: Path, starts: list[int]) -> tuple[Findings, Counter[str], float]:
    """udvalidate's enhanced-graph findings by (sentence, test id), its other findings by id, and its time."""
    exe = shutil.which("udvalidate")
    if exe is None:
        raise SystemExit("udvalidate (pip install udtools) is not installed")
    runs = [["--level", "2"], ["--level", "3", "--include-only", *ROOT_RULES]]
    enhanced: Findings = Counter()
    other: Counter[str] = Counter()
    began = time.perf_counter()
    for extra in runs:
        result = subprocess.run(
            [exe, str(path), "--lang", "ud", "--max-err", "0", *extra], check=False, capture_output=True, text=True
        )
        for line in (result.stdout + result.stderr).splitlines():
            match = _UD_LINE.match(line)
            if not match:
                continue
            testid = match.group(4)
            if testid in ENHANCED_TESTIDS:
                if (testid in ROOT_RULES) == (extra[1] == "3"):
                    enhanced[(_sentence_of(starts, int(match.group(1))), testid)] += 1
            elif extra[1] == "2":
                other[testid] += 1
    return enhanced, other, time.perf_counter() - began


def eud_validate(path: Path, starts: list[int]) -> tuple[Findings, Counter[str], float]:
    """eud validate's enhanced-graph findings, its other findings (unreadable sentences) and its time."""
    began = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "eud", "validate", str(path)], check=False, capture_output=True, text=True
    )
    enhanced: Findings = Counter()
    other: Counter[str] = Counter()
    for line in result.stdout.splitlines():
        match = _EUD_LINE.match(line)
        if not match:
            continue
        testid = match.group(2)
        if testid in ENHANCED_TESTIDS:
            enhanced[(_sentence_of(starts, int(match.group(1))), testid)] += 1
        else:
            other[testid] += 1
    if result.returncode not in (0, 1):
        raise SystemExit(f"eud validate failed on {path}: {result.stderr.strip()}")
    return enhanced, other, time.perf_counter() - began


def hot_path_speed(path: Path) -> tuple[int, float, float]:
    """Words, and CPU µs per word for check_sentence and repair_sentence (CPU time: the machine is shared)."""
    sentences = list(read_conllu(path, lenient=True))
    words = sum(len(s.words) for s in sentences)
    began = time.process_time()
    for sentence in sentences:
        check_sentence(sentence)
    checked = time.process_time()
    for sentence in sentences:
        repair_sentence(sentence)
    repaired = time.process_time()
    return words, 1e6 * (checked - began) / max(words, 1), 1e6 * (repaired - checked) / max(words, 1)


def compare(path: Path) -> dict:
    """Both validators on one plain CoNLL-U file, and how they differ."""
    starts = sentence_starts(path)
    ours, our_other, our_time = eud_validate(path, starts)
    theirs, their_other, their_time = udvalidate(path, starts)
    return {
        "sentences": len(starts),
        "eud": ours,
        "udvalidate": theirs,
        "only_eud": ours - theirs,
        "only_udvalidate": theirs - ours,
        "eud_other": our_other,
        "udvalidate_other": their_other,
        "eud_seconds": our_time,
        "udvalidate_seconds": their_time,
    }


def _plain(path: Path, folder: Path) -> Path:
    if path.suffix != ".xz":
        return path
    target = folder / path.stem
    with lzma.open(path, "rb") as src, target.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def main(argv: list[str] | None = None) -> int:
    """Print one row per file and the totals; exit 1 if the validators disagree anywhere."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="+", type=Path, help="files to compare (default: shared data + fixtures)")
    args = parser.parse_args(argv)
    files = args.files or sorted(SHARED_UD.glob("*/*.conllu.xz")) + sorted(FIXTURES.glob("validate_*.conllu"))
    totals: Counter[str] = Counter()
    disagreements = 0
    speed_words, speed_check, speed_repair = 0, 0.0, 0.0
    print("| file | sentences | eud | udvalidate | agree | other udvalidate L2 (out of scope) | eud s | udvalidate s |")
    print("|---|---:|---:|---:|---|---|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="eud-agree-") as tmp:
        for original in files:
            path = _plain(original, Path(tmp))
            row = compare(path)
            agree = not row["only_eud"] and not row["only_udvalidate"]
            disagreements += not agree
            other = ", ".join(f"{k} {v}" for k, v in sorted(row["udvalidate_other"].items())) or "-"
            print(
                f"| {original.name} | {row['sentences']} | {sum(row['eud'].values())} | "
                f"{sum(row['udvalidate'].values())} | {'yes' if agree else 'NO'} | {other} | "
                f"{row['eud_seconds']:.1f} | {row['udvalidate_seconds']:.1f} |"
            )
            for label in ("only_eud", "only_udvalidate"):
                for (line, testid), count in sorted(row[label].items()):
                    print(f"|   {label}: sentence at line {line}: {testid} ×{count} |", file=sys.stderr)
            if row["eud_other"]:
                print(f"|   eud reader errors: {dict(row['eud_other'])} |", file=sys.stderr)
            totals["files"] += 1
            totals["sentences"] += row["sentences"]
            totals["eud"] += sum(row["eud"].values())
            totals["udvalidate"] += sum(row["udvalidate"].values())
            if original.parent.parent == SHARED_UD:
                words, check, repair = hot_path_speed(path)
                speed_words += words
                speed_check += check * words
                speed_repair += repair * words
            if path != original:
                path.unlink()
    print(
        f"\n{totals['files']} files, {totals['sentences']} sentences: eud found {totals['eud']} enhanced-graph "
        f"problems, udvalidate {totals['udvalidate']}; files where they disagree: {disagreements}"
    )
    if speed_words:
        print(
            f"hot path (CPU time) on {speed_words} shared-data words: check_sentence {speed_check / speed_words:.2f} µs/word, "
            f"repair_sentence {speed_repair / speed_words:.2f} µs/word"
        )
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
