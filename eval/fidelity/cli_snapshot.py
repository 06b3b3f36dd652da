"""Run a fixed list of ``eud`` commands and print one hash per command, to show a refactoring changed no output.

Each command runs in a fresh temporary folder; its stdout, stderr, exit code and
every file it wrote are hashed together.  Timing lines (``... in 1.2 s``) are
blanked first, because they differ on every run.  Run it before and after a
change and compare::

    python -m eval.fidelity.cli_snapshot > before.txt
    ...change...
    python -m eval.fidelity.cli_snapshot > after.txt && diff before.txt after.txt && echo identical

``--show NAME`` prints one command's raw outputs instead.

A tool, not a benchmark: its hashes mean something only against another run, so it records no result.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIX = REPO / "tests" / "fixtures"
DATA = REPO.parent / "shared" / "data" / "ud"
EWT_DEV = DATA / "en_ewt" / "en_ewt-ud-dev.conllu.xz"
CAC_DEV = DATA / "cs_cac" / "cs_cac-ud-dev.conllu.xz"

# name -> eud arguments; {fix}, {ewt_dev}, {cac_dev}, {models} are filled in; "stdin:" files feed stdin
COMMANDS: list[tuple[str, str]] = [
    ("help", ""),
    ("help-flag", "--help"),
    ("version", "--version"),
    ("unknown", "frobnicate"),
    ("enhance-help", "enhance --help"),
    ("evaluate-help", "evaluate --help"),
    ("validate-help", "validate --help"),
    ("collapse-help", "collapse --help"),
    ("profile-help", "profile --help"),
    ("profile-learn-help", "profile learn --help"),
    ("parse-help", "parse --help"),
    ("train-help", "train --help"),
    ("enhance-coord", "enhance {fix}/enhance_coordination.conllu --lang en"),
    ("enhance-case-cs", "enhance {fix}/enhance_case_cs.conllu --lang cs -o out.conllu"),
    ("enhance-gapping-lv", "enhance {fix}/gapping_lv.conllu --lang lv"),
    ("enhance-profile-file", "enhance {fix}/enhance_control.conllu --profile {repo}/converters/en_ewt.toml --no-repair"),
    ("enhance-missing", "enhance nothere.conllu --lang en"),
    ("enhance-badlang", "enhance {fix}/enhance_control.conllu --lang xx_nope"),
    ("enhance-ewt-dev", "enhance {ewt_dev} --lang en_ewt -o dev.conllu"),
    ("enhance-cac-dev", "enhance {cac_dev} --lang cs_cac"),
    ("evaluate", "evaluate {fix}/eval_gold.conllu {fix}/eval_system.conllu"),
    ("evaluate-json", "evaluate {fix}/eval_gold.conllu {fix}/eval_system.conllu --json"),
    ("evaluate-counts", "evaluate {fix}/eval_gold.conllu {fix}/eval_system.conllu --counts --enhancements 16"),
    ("evaluate-macro", "evaluate {fix}/eval_gold.conllu {fix}/eval_system.conllu {fix}/eval_collapse.conllu {fix}/eval_collapse.conllu"),
    ("evaluate-odd", "evaluate {fix}/eval_gold.conllu"),
    ("evaluate-missing", "evaluate {fix}/eval_gold.conllu nothere.conllu"),
    ("validate-valid", "validate {fix}/validate_valid.conllu"),
    ("validate-graph", "validate {fix}/validate_graph.conllu {fix}/validate_labels.conllu {fix}/validate_ids.conllu"),
    ("validate-fix", "validate --fix -o fixed.conllu {fix}/validate_graph.conllu"),
    ("validate-fix-lenient", "validate --fix --lenient {fix}/validate_ids.conllu"),
    ("validate-ewt-dev", "validate {ewt_dev}"),
    ("collapse", "collapse {fix}/eval_collapse.conllu"),
    ("collapse-gapping", "collapse {fix}/gapping_en.conllu -o c.conllu"),
    ("profile-learn", "profile learn {ewt_dev} -o en.toml"),
    ("parse-en-conllu", "parse --model {models}/en_ewt --input-format conllu {fix}/eval_gold.conllu -q"),
    ("parse-en-text", "parse --model {models}/en_ewt stdin:text.txt -q -o parsed.conllu"),
    ("parse-et-tokenized", "parse --model {models}/et_ewt --input-format tokenized stdin:tok.txt -q"),
    ("parse-nomodel", "parse --model nothere {fix}/eval_gold.conllu"),
]

TEXTS = {
    "text.txt": "The cat sat on the mat. It was happy, and so was the dog.\n\nA new paragraph starts here.\n",
    "tok.txt": "Mees läks koju .\nTa oli väsinud ja näljane .\n",
}
TIMING = re.compile(rb"[0-9.]+ s\b|[0-9]+ words/s")


def run(name: str, args: str, eud: list[str]) -> tuple[bytes, bytes, int, dict[str, bytes]]:
    """Run one command in a fresh folder; its stdout, stderr, exit code and written files."""
    with tempfile.TemporaryDirectory(prefix="cli_snapshot_") as tmp:
        for fname, text in TEXTS.items():
            Path(tmp, fname).write_text(text, encoding="utf-8")
        filled = args.format(fix=FIX, ewt_dev=EWT_DEV, cac_dev=CAC_DEV, models=REPO / "models", repo=REPO)
        argv, stdin = [], None
        for word in filled.split():
            if word.startswith("stdin:"):
                stdin = Path(tmp, word[6:]).read_bytes()
                argv.append("-")
            else:
                argv.append(word)
        env = dict(os.environ, OMP_NUM_THREADS="1", EUD_NO_PROGRESS="1")
        proc = subprocess.run(eud + argv, cwd=tmp, input=stdin, check=False, capture_output=True, env=env)
        files = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir()) if p.name not in TEXTS}
        return proc.stdout, TIMING.sub(b"T", proc.stderr), proc.returncode, files


def digest(stdout: bytes, stderr: bytes, code: int, files: dict[str, bytes]) -> str:
    """One hash over everything a command produced."""
    h = hashlib.sha256()
    for part in (stdout, stderr, str(code).encode()):
        h.update(len(part).to_bytes(8, "little") + part)
    for fname, data in files.items():
        h.update(fname.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    """Print ``name  exit-code  hash`` for every command (or one command's outputs with --show)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", help="print this command's stdout, stderr and files")
    ap.add_argument("--only", help="comma-separated command names to run")
    args = ap.parse_args(argv)
    eud = [shutil.which("eud") or sys.executable, *([] if shutil.which("eud") else ["-m", "eud"])]
    if not EWT_DEV.exists():
        print(f"missing {EWT_DEV}: the snapshot needs ../shared/data", file=sys.stderr)
        return 2
    only = set(args.only.split(",")) if args.only else None
    for name, cmd in COMMANDS:
        if args.show and name != args.show or only and name not in only:
            continue
        out, err, code, files = run(name, cmd, eud)
        if args.show:
            sys.stdout.buffer.write(b"--- stdout\n" + out + b"--- stderr\n" + err + f"--- exit {code}\n".encode())
            for fname, data in files.items():
                sys.stdout.buffer.write(f"--- file {fname}\n".encode() + data)
            continue
        print(f"{name:<24} {code:>3}  {digest(out, err, code, files)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
