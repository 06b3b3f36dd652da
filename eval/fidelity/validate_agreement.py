"""Does ``eud validate`` find exactly what ``udvalidate --level 2`` finds in enhanced graphs?

Runs both validators on every shared treebank file (decompressed to a temporary
folder) and on the hand-made broken fixtures, keeps only udvalidate's findings
whose test id concerns the enhanced graph (see ``ENHANCED_TESTIDS`` in
:mod:`eud.validate`; the two root-label rules are level 3 in udvalidate, so
they are taken from a second run at level 3 restricted to them), and compares
the sets of (sentence, test id) they report.  Other level-2 findings (features, MISC,
metadata, the basic tree) are out of scope and only counted.

It also times :func:`eud.validate.check_sentence` and
:func:`eud.validate.repair.repair_sentence` per word on the readable sentences.

    python -m eval.fidelity.validate_agreement                 # all shared files + fixtures
    python -m eval.fidelity.validate_agreement --files A.conllu B.conllu.xz
    python -m eval.fidelity.validate_agreement --corrupt --files A.conllu.xz   # randomly broken copies

``--corrupt`` breaks one DEPS cell (or empty-node column) in a fifth of the
sentences of each file, in one of a dozen ways (reordered or repeated entries,
self-loops, dropped or redirected heads, bad labels, bad root labels, unknown or
malformed heads, empty-node HEAD), and compares the validators on that copy.

The default run (neither ``--files`` nor ``--corrupt``) does both, the clean comparison on every
file and the broken one on ``CORRUPTED`` plus the fixtures, and writes
``eval/results/fidelity/validate_agreement.json``; the other runs only print.
"""

from __future__ import annotations

import argparse
import bisect
import lzma
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from eud.conllu import read_conllu
from eud.validate import ENHANCED_TESTIDS, check_file, check_sentence
from eud.validate.repair import repair_sentence
from eval.common import command_line, record

REPO = Path(__file__).resolve().parents[2]
SHARED_UD = REPO.parent / "shared" / "data" / "ud"
FIXTURES = REPO / "tests" / "fixtures"
# The files the default run also breaks (with the fixtures): four languages, dev and test.
CORRUPTED = ("en_ewt/en_ewt-ud-dev.conllu.xz", "lv_lvtb/lv_lvtb-ud-dev.conllu.xz",
             "nl_lassysmall/nl_lassysmall-ud-test.conllu.xz", "cs_fictree/cs_fictree-ud-dev.conllu.xz",
             "fi_tdt/fi_tdt-ud-dev.conllu.xz")
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
    # A crash must not pass for "no findings": the summary line proves the whole file was read.
    summary = re.search(r"eud validate: (\d+) sentences", result.stderr)
    if result.returncode not in (0, 1) or summary is None or int(summary.group(1)) != len(starts):
        raise SystemExit(f"eud validate failed on {path}: {result.stderr.strip()[-2000:]}")
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
        # Compared as sets of (sentence, test id): udvalidate repeats some per-edge
        # findings once per repeated DEPS entry ("1:root|1:root"), eud has one edge.
        "only_eud": Counter(set(ours) - set(theirs)),
        "only_udvalidate": Counter(set(theirs) - set(ours)),
        "count_differs": sum(1 for key in set(ours) & set(theirs) if ours[key] != theirs[key]),
        "eud_other": our_other,
        "udvalidate_other": their_other,
        "eud_seconds": our_time,
        "udvalidate_seconds": their_time,
    }


def _corrupt_cell(rng: random.Random, cols: list[str], ids: list[str]) -> None:
    """Break one row's DEPS (or empty-node HEAD) in one random way."""
    cell = cols[8] if cols[8] != "_" else f"{ids[0]}:dep"  # a second break of an emptied cell
    items = [(item.split(":", 1) + ["dep"])[:2] for item in cell.split("|")]
    kind = rng.randrange(12)
    if kind == 0 and len(items) > 1:
        items.reverse()
    elif kind == 1:
        items.insert(0, list(items[0]))
    elif kind == 2:
        items.append([cols[0], "dep"])
        items.sort(key=lambda hd: (tuple(int(x) for x in hd[0].split(".")), hd[1]))
    elif kind == 3:
        items = []
    elif kind == 4:
        items[0][0] = rng.choice(ids)
    elif kind == 5:
        items[0][1] = rng.choice(["Foo", "foo", "obj:Bad", "nmod:x__y"])
    elif kind == 6:
        items[0][1] = "nsubj" if items[0][0] == "0" else "root"
    elif kind == 7:
        items[0][0] = rng.choice(["99", "01", "1.0", ""])
    elif kind == 8 and "." in cols[0]:
        cols[6] = "1"
    elif kind == 9:
        items[0][1] = ""
    elif kind == 10:
        items = [[rng.choice(ids), rng.choice(["obj", "conj", "dep"])]]
    else:
        items = [["0", "root"]]
    cols[8] = "|".join(":".join(item) for item in items) or "_"


def corrupt_file(source: Path, target: Path, seed: int, rate: float = 0.2) -> None:
    """Copy a plain CoNLL-U file, breaking the enhanced layer of about ``rate`` of its sentences."""
    rng = random.Random(seed)
    text = source.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    for b, block in enumerate(blocks):
        lines = block.split("\n")
        rows = [i for i, line in enumerate(lines) if line and line[0].isdigit() and "-" not in line.split("\t")[0]]
        rows = [i for i in rows if lines[i].split("\t")[8] != "_"]
        if not rows or rng.random() >= rate:
            continue
        ids = [lines[i].split("\t")[0] for i in rows]
        for _ in range(rng.choice((1, 1, 1, 2))):
            i = rng.choice(rows)
            cols = lines[i].split("\t")
            _corrupt_cell(rng, cols, ids)
            lines[i] = "\t".join(cols)
        blocks[b] = "\n".join(lines)
    target.write_text("\n\n".join(blocks), encoding="utf-8")


def _plain(path: Path, folder: Path) -> Path:
    if path.suffix != ".xz":
        return path
    target = folder / path.stem
    with lzma.open(path, "rb") as src, target.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def repair_recovery(gold: Path, broken: Path) -> Counter[str]:
    """Edge counts on the corrupted sentences: gold, as broken (read as --fix reads them), and after repair."""
    counts: Counter[str] = Counter()
    gold_blocks = gold.read_text(encoding="utf-8").split("\n\n")
    broken_blocks = broken.read_text(encoding="utf-8").split("\n\n")
    changed = {i for i, (a, b) in enumerate(zip(gold_blocks, broken_blocks)) if a != b}
    golds = list(read_conllu(gold))
    for i, checked in enumerate(check_file(str(broken), salvage=True)):
        if i not in changed:
            continue
        counts["sentences"] += 1
        truth = golds[i].enhanced.edges()
        counts["gold"] += len(truth)
        if checked.sentence is None:
            counts["unreadable"] += 1
            continue
        before = checked.sentence.enhanced.edges()
        repair_sentence(checked.sentence)
        after = checked.sentence.enhanced.edges()
        counts["broken"] += len(before)
        counts["broken_correct"] += len(before & truth)
        counts["repaired"] += len(after)
        counts["repaired_correct"] += len(after & truth)
    return counts


def fix_then_udvalidate(broken: Path, folder: Path) -> tuple[int, int]:
    """Run ``eud validate --fix`` on a broken file; udvalidate's enhanced-graph and other L2 findings on the result."""
    fixed = folder / f"fixed-{broken.name}"
    subprocess.run([sys.executable, "-m", "eud", "validate", "--fix", "-q", "-o", str(fixed), str(broken)], check=False)
    enhanced, other, _ = udvalidate(fixed, sentence_starts(fixed))
    fixed.unlink()
    return sum(enhanced.values()), sum(other.values())


def compare_files(files: list[Path], corrupt: bool, seed: int) -> Counter[str]:
    """Print one row per file and return the totals, the disagreements and the hot-path timings."""
    totals: Counter[str] = Counter()
    recovery: Counter[str] = Counter()
    header = "| file | sentences | eud | udvalidate | agree | other udvalidate L2 (out of scope) | eud s | udvalidate s |"
    if corrupt:
        header += " udvalidate on --fix output (enhanced / other) |"
    print(header)
    print("|---|---:|---:|---:|---|---|---:|---:|" + ("---|" if corrupt else ""))
    with tempfile.TemporaryDirectory(prefix="eud-agree-") as tmp:
        for original in files:
            shared = original.parent.parent == SHARED_UD
            plain = _plain(original, Path(tmp))
            path = plain
            if corrupt:
                path = Path(tmp) / f"corrupted-{original.name.removesuffix('.xz')}"
                corrupt_file(plain, path, seed)
            row = compare(path)
            agree = not row["only_eud"] and not row["only_udvalidate"]
            totals["disagreements"] += not agree
            other = ", ".join(f"{k} {v}" for k, v in sorted(row["udvalidate_other"].items())) or "-"
            line = (
                f"| {'corrupted ' if corrupt else ''}{original.name} | {row['sentences']} | "
                f"{sum(row['eud'].values())} | {sum(row['udvalidate'].values())} | {'yes' if agree else 'NO'} | "
                f"{other} | {row['eud_seconds']:.1f} | {row['udvalidate_seconds']:.1f} |"
            )
            if corrupt:
                enhanced_left, other_left = fix_then_udvalidate(path, Path(tmp))
                totals["failed_fixes"] += enhanced_left > 0
                line += f" {enhanced_left} / {other_left} |"
                if shared:  # the fixtures are no gold: they are broken already
                    recovery += repair_recovery(plain, path)
            print(line, flush=True)
            for label in ("only_eud", "only_udvalidate"):
                for (start, testid), count in sorted(row[label].items()):
                    print(f"|   {label}: sentence at line {start}: {testid} ×{count} |", file=sys.stderr)
            if row["count_differs"]:
                print(f"|   same findings, different counts in {row['count_differs']} sentences |", file=sys.stderr)
            if row["eud_other"]:
                print(f"|   eud reader errors: {dict(row['eud_other'])} |", file=sys.stderr)
            totals["files"] += 1
            totals["sentences"] += row["sentences"]
            totals["eud"] += sum(row["eud"].values())
            totals["udvalidate"] += sum(row["udvalidate"].values())
            if shared:
                totals["shared files"] += 1
                totals["shared sentences"] += row["sentences"]
                totals["shared disagreements"] += not agree
            if shared and not corrupt:
                words, check, repair = hot_path_speed(plain)
                totals["speed words"] += words
                totals["check µs"] += check * words
                totals["repair µs"] += repair * words
            for temporary in {plain, path} - {original}:
                temporary.unlink()
    print(
        f"\n{totals['files']} files, {totals['sentences']} sentences: eud found {totals['eud']} enhanced-graph "
        f"problems, udvalidate {totals['udvalidate']}; files where they disagree: {totals['disagreements']}"
    )
    if corrupt:
        r = recovery
        print(
            f"--fix output: files with enhanced-graph findings left by udvalidate: {totals['failed_fixes']}; "
            f"on the {r['sentences']} corrupted sentences of the shared files ({r['gold']} gold edges, {r['unreadable']} unreadable even "
            f"for --fix): gold edges present as broken {r['broken_correct']} of {r['broken']} edges, "
            f"after repair {r['repaired_correct']} of {r['repaired']} "
            f"(recall {r['broken_correct'] / max(r['gold'], 1):.4f} -> {r['repaired_correct'] / max(r['gold'], 1):.4f})"
        )
    if totals["speed words"]:
        print(
            f"hot path (CPU time) on {totals['speed words']} shared-data words: check_sentence "
            f"{totals['check µs'] / totals['speed words']:.2f} µs/word, "
            f"repair_sentence {totals['repair µs'] / totals['speed words']:.2f} µs/word"
        )
    return totals


def main(argv: list[str] | None = None) -> int:
    """Print one row per file and the totals; exit 1 if the validators disagree anywhere."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="+", type=Path, help="files to compare (default: shared data + fixtures)")
    parser.add_argument("--corrupt", action="store_true", help="compare on randomly broken copies of the files")
    parser.add_argument("--seed", type=int, default=1, help="seed for --corrupt (default: 1)")
    args = parser.parse_args(argv)
    every_file = sorted(SHARED_UD.glob("*/*.conllu.xz")) + sorted(FIXTURES.glob("validate_*.conllu"))
    fixtures = [f for f in every_file if f.parent == FIXTURES]
    if args.files or args.corrupt:
        totals = compare_files(args.files or every_file, args.corrupt, args.seed)
        return 1 if totals["disagreements"] or totals["failed_fixes"] else 0
    clean = compare_files(every_file, False, args.seed)
    broken = compare_files([SHARED_UD / name for name in CORRUPTED] + fixtures, True, args.seed)
    words = max(clean["speed words"], 1)
    record("fidelity", "validate_agreement", {
        "shared treebank files where eud and udvalidate disagree":
            f"{clean['shared disagreements']} of {clean['shared files']} ({clean['shared sentences']:,} sentences)",
        "corrupted files where they disagree":
            f"{broken['disagreements']} of {broken['files']} ({broken['eud']:,} / {broken['udvalidate']:,} findings)",
        "check_sentence µs/word": round(clean["check µs"] / words, 2),
        "repair_sentence µs/word": round(clean["repair µs"] / words, 2),
    }, label="measurement", command=command_line("eval.fidelity.validate_agreement"))
    return 1 if clean["disagreements"] or broken["disagreements"] or broken["failed_fixes"] else 0


if __name__ == "__main__":
    sys.exit(main())
