"""Gapping in fresh English text: of the sentences a package gives an empty node, how many are gapping.

The annotated files say how a package does on text like its training data, and en_ewt
test, the one unseen file with a false-alarm bar, is counted once per change.  This
benchmark adds text no package was trained or tuned on, and no treebank annotates: the
English prose of six Debian packages, at pinned versions (:data:`PACKAGES`):

* ``fortunes``, ``fortunes-min``: quotations, jokes and verse (the ``ascii-art`` and ``art``
  files left out);
* ``fortune-anarchism``: quotations from political writing;
* ``wordnet-base``: WordNet 3.0's example sentences (the quoted parts of its glosses);
* ``jargon-text``: the Jargon File's prose, hackers' slang explained in informal English;
* ``debian-policy``: the Debian Policy Manual's prose, requirements on packages in formal
  technical English (its headings, literal blocks, tables and terse list items left out).

``jargon`` and ``policy`` are held out: nobody read their output while the gapping choices
were made, so their labels, written once, measure those choices and never tuned them.  The
other sources' output was read while rules were made: their figures are tuning figures.

``fetch`` downloads them with ``apt-get download`` (Debian's registry), unpacks them with
``dpkg-deb`` and writes one raw-text file per source: a fortune or an example is a
paragraph, attributions (lines starting with ``--``) dropped.  ``run`` parses each file
from raw text and reads every sentence given an empty node against the hand labels in
``eval/gapping/fresh_text_labels.tsv``: the sentence's key (the first 12 hex digits of the SHA-1 of
its words joined by spaces; no text is stored), a label, and a note on its shape:

* ``gapping``: an elided predicate by the UD guidelines, argument clusters included (*put
  cats in the coffee and mice in the tea*), whatever the labels of its remnants;
* ``false``: nothing was elided there (*he bought a hot dog and a coke at the bar*);
* ``unclear``: either reading holds, or the text is not English enough to say.

Sentences without a label are printed (``--show`` prints the labelled ones too), to be read
and labelled by hand; they count as unlabelled until then.  ``--save`` writes the sentences
given an empty node, parsed, with ``# key`` and ``# label`` comments and ids unique in the file, for a
closer look.  The labels were written by reading the shipped English package's output.

    python -m eval.gapping.fresh_text fetch --dir work/fresh
    python -m eval.gapping.fresh_text run --model models/en_ewt --dir work/fresh
    python -m eval.gapping.fresh_text run --model models/en_ewt --dir work/fresh --sources jargon --record fresh_text_jargon
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from eval.common import command_line, record

# package: version (Debian 12, bookworm)
PACKAGES = {"fortunes": "1:1.99.1-7.3", "fortunes-min": "1:1.99.1-7.3", "fortune-anarchism": "1.8.0-1",
            "wordnet-base": "1:3.0-37", "jargon-text": "4.4.7-4.1", "debian-policy": "4.6.2.0"}
SOURCES = ("fortunes", "anarchism", "wordnet", "jargon", "policy")
LABELS = Path(__file__).resolve().parent / "fresh_text_labels.tsv"
KINDS = ("gapping", "false", "unclear")
SKIPPED_FORTUNES = {"art", "ascii-art"}


def key(words: list[str]) -> str:
    """A sentence's label key: the SHA-1 of its words joined by spaces, 12 hex digits."""
    return hashlib.sha1(" ".join(words).encode("utf-8")).hexdigest()[:12]


def fortune_paragraphs(path: Path) -> list[str]:
    """The fortunes of a ``fortune`` file, one paragraph each, attributions dropped and drawings skipped."""
    out = []
    for chunk in path.read_text(encoding="utf-8", errors="replace").split("\n%\n"):
        lines = [line.strip() for line in chunk.splitlines() if not re.match(r"\s*(--|\t\t)", line)]
        text = " ".join(line for line in lines if line)
        if not 20 <= len(text) <= 2000 or re.search(r"[|<>{}\\_^]", text):
            continue
        if sum(c.isalpha() for c in text) < 0.6 * len(text):
            continue  # tables, code, drawings
        out.append(text)
    return out


def wordnet_examples(folder: Path) -> list[str]:
    """WordNet's example sentences: the quoted parts of the glosses in its ``data.*`` files."""
    out = []
    for part in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"data.{part}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("  ") or " | " not in line:
                continue  # the licence header
            out.extend(example.strip() for example in re.findall(r'"([^"]{25,300})"', line.split(" | ", 1)[1]))
    return out


def jargon_paragraphs(path: Path) -> list[str]:
    """The prose paragraphs of the Jargon File: entry headings, index lines and numbering dropped, ``{links}`` unwrapped."""
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        blocks = f.read().split("\n\n")
    out = []
    for block in blocks:
        text = " ".join(line.strip() for line in block.splitlines() if line.strip())
        text = re.sub(r"^\d+\.\s+", "", re.sub(r"[{}]", "", text))
        if len(text) < 40 or text.startswith(":") or not re.search(r"[.!?][\"”’)]*$", text):
            continue  # headings, index entries, tables
        out.append(text)
    return out


def policy_paragraphs(path: Path) -> list[str]:
    """The prose paragraphs of the Debian Policy Manual's text edition: headings, literal blocks and list markers dropped."""
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        blocks = re.split(r"\n[ \t]*\n", f.read())
    out = []
    for block in blocks:
        lines = block.rstrip().splitlines()
        if not lines or lines[0][:1].isspace() or re.fullmatch(r"([=*\-~^\"#])\1{2,}", lines[-1]):
            continue  # literal blocks, nested paragraphs and underlined headings
        marker = re.match(r"(\* |\d+\. |\[\d+\] )?", lines[0]).end()  # the marker of a bullet, a numbered item or a footnote
        indents = {len(line) - len(line.lstrip()) for line in lines[1:]}
        if len(indents) == 1 and indents.pop() > marker:
            lines = lines[1:]  # a definition: the term dropped, its body kept
        elif indents - {marker}:
            continue  # a list with a literal block or a nested list inside
        else:
            lines = [lines[0][marker:], *lines[1:]]
        text = ""
        for line in (line.strip() for line in lines):
            # Sphinx breaks lines after a hyphen inside a word ("Build-Depends-" / "Indep").
            text += line if re.search(r"\w-$", text) else f" {line}"
        text = re.sub(r"\s*\[\d+\]", "", text).strip()  # footnote references
        if len(text) < 40 or not re.search(r"[.!?][\"”’)]*$", text) or sum(c.isalpha() for c in text) < 0.6 * len(text):
            continue  # headings, tables of contents, short notes, code
        out.append(text)
    return out


def fetch(folder: Path) -> None:
    """Download and unpack the packages; write ``<source>.txt`` for each source."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wanted = [f"{name}={version}" for name, version in PACKAGES.items()]
        subprocess.run(["apt-get", "download", *wanted], cwd=tmp, check=True, capture_output=True)
        root = Path(tmp) / "root"
        for deb in sorted(Path(tmp).glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
        games = root / "usr/share/games/fortunes"
        fortunes = [f for f in sorted(games.iterdir()) if not f.suffix and f.name not in SKIPPED_FORTUNES | {"anarchism"}]
        texts = {"fortunes": [p for f in fortunes for p in fortune_paragraphs(f)],
                 "anarchism": fortune_paragraphs(games / "anarchism"),
                 "wordnet": wordnet_examples(root / "usr/share/wordnet"),
                 "jargon": jargon_paragraphs(root / "usr/share/doc/jargon-text/jargon.txt.gz"),
                 "policy": policy_paragraphs(root / "usr/share/doc/debian-policy/policy.txt.gz")}
    for source, paragraphs in texts.items():
        (folder / f"{source}.txt").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        print(f"{source}: {len(paragraphs)} paragraphs, {sum(map(len, paragraphs))} characters")


def read_labels(path: Path) -> dict[str, tuple[str, str]]:
    """key -> (label, note) from the labels file (tab-separated, ``#`` comments)."""
    labels = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[1] not in KINDS:
            raise SystemExit(f"{path}:{n}: expected 'key<TAB>{'|'.join(KINDS)}<TAB>note', got {line!r}")
        labels[fields[0]] = (fields[1], fields[2])
    return labels


def run(model: str, folder: Path, show: bool, threads: int, save: Path | None,
        sources: tuple[str, ...] = SOURCES, record_as: str = "") -> None:
    from eud.conllu import format_sentence
    from eud.pipeline import Pipeline
    from eud.progress import progress

    labels = read_labels(LABELS)
    pipe = Pipeline.load(model, threads=threads)
    rows, kept = [], []
    for source in sources:
        path = folder / f"{source}.txt"
        if not path.is_file():
            raise SystemExit(f"{path}: missing; run `python {sys.argv[0]} fetch --dir {folder}` first")
        paragraphs = path.read_text(encoding="utf-8").split("\n\n")
        counts: Counter[str] = Counter()
        sentences = 0
        for document in progress(pipe.stream(paragraphs), desc=source, unit="paragraph", total=len(paragraphs)):
            for sentence in document:
                sentences += 1
                if not sentence.empty_nodes:
                    continue
                words = [w.form for w in sentence.words]
                sentence_key = key(words)
                label, note = labels.get(sentence_key, ("unlabelled", ""))
                counts[label] += 1
                # Each paragraph numbers its sentences from 1: an id of its own keeps the saved file valid.
                sentence.set_comment("sent_id", f"{source}-{sentences}")
                sentence.set_comment("key", sentence_key)
                sentence.set_comment("label", label)
                kept.append(format_sentence(sentence))
                if show or label == "unlabelled":
                    print(f"  {source}\t{sentence_key}\t{label}\t{note}\t{' '.join(words)}")
        rows.append((source, sentences, counts))
    if save is not None:
        save.write_text("".join(kept), encoding="utf-8")
    print(f"model {model}, from raw text")
    print("| source | sentences | given an empty node | gapping | false alarm | unclear | unlabelled |")
    print("|---|---|---|---|---|---|---|")
    for source, sentences, c in rows + [("all", sum(r[1] for r in rows), sum((r[2] for r in rows), Counter()))]:
        print(f"| {source} | {sentences} | {sum(c.values())} | {c['gapping']} | {c['false']} | {c['unclear']} | {c['unlabelled']} |")
    if record_as:
        figures = {source: {"sentences": sentences, "given an empty node": sum(c.values()),
                            "gapping": c["gapping"], "false alarm": c["false"], "unclear": c["unclear"],
                            "unlabelled": c["unlabelled"],
                            "precision %": round(100 * c["gapping"] / max(1, c["gapping"] + c["false"]), 1)}
                   for source, sentences, c in rows}
        record("gapping", record_as, figures, label="measurement", command=command_line("eval.gapping.fresh_text"),
               notes=f"model {model}, from raw text; precision = gapping / (gapping + false alarm). "
                     "jargon and policy are held out: their labels were written once and never chose anything; "
                     "the other sources were read while rules were made (tuning).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fetch", help="download the Debian packages and write the texts")
    f.add_argument("--dir", type=Path, required=True)
    r = sub.add_parser("run", help="parse the texts and count the empty nodes against the labels")
    r.add_argument("--model", required=True)
    r.add_argument("--dir", type=Path, required=True)
    r.add_argument("--show", action="store_true", help="print the labelled sentences too")
    r.add_argument("--threads", type=int, default=2)
    r.add_argument("--sources", nargs="+", choices=SOURCES, default=list(SOURCES),
                   help="the sources to parse (jargon and policy are the held-out ones)")
    r.add_argument("--record", default="", metavar="NAME", help="write eval/results/gapping/NAME.json")
    r.add_argument("--save", type=Path, help="write the sentences given an empty node here, as CoNLL-U with their labels")
    args = ap.parse_args(argv)
    if args.command == "fetch":
        fetch(args.dir)
    else:
        run(args.model, args.dir, args.show, args.threads, args.save, tuple(args.sources), args.record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
