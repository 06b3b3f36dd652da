"""Read and write every shared treebank file and check the bytes come back unchanged.

    python -m eval.fidelity.roundtrip [DATA_DIR]

Prints one line per file that differs, then a summary with the words per second
of reading plus writing (decompression included).
"""

from __future__ import annotations

import lzma
import sys
import time
from pathlib import Path

from eud.conllu import format_sentence, read_conllu
from eval.common import command_line, record

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ud"


def main(argv: list[str] | None = None) -> int:
    """Round-trip every ``*.conllu.xz`` under the data folder; exit 1 if any differs."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else DATA
    files = sorted(folder.glob("*/*.conllu.xz"))
    if not files:
        print(f"no treebank files under {folder}", file=sys.stderr)
        return 2
    differ = words = 0
    start = time.perf_counter()
    for path in files:
        with lzma.open(path, "rt", encoding="utf-8", newline="") as stream:
            original = stream.read()
        sentences = list(read_conllu(path))
        words += sum(len(s.words) for s in sentences)
        if "".join(format_sentence(s) for s in sentences) != original:
            differ += 1
            print(f"differs: {path}")
    took = time.perf_counter() - start
    print(f"{len(files)} files, {words:,} words: {len(files) - differ} byte-identical, {differ} differ "
          f"({words / took:,.0f} words/s read + written, decompression included)")
    if folder == DATA:  # every shared file: the published figure
        record("fidelity", "roundtrip", {"files byte-identical": f"{len(files) - differ} of {len(files)}",
                                         "words": words, "words/s (read + write, xz)": round(words / took)},
               label="measurement", command=command_line("eval.fidelity.roundtrip"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
