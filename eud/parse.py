"""``eud parse``: tokenised CoNLL-U, pre-tokenised text or raw text in, enhanced CoNLL-U out.

With CoNLL-U input the given tokenisation is kept (comments, multiword
tokens, FORM and MISC untouched) and every other column is predicted.
Sentences are read in chunks, parsed in length-sorted batches and written in
input order, so memory stays flat on large files.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from eud.conllu import ConlluError, format_sentence, read_conllu
from eud.graph import Sentence

EPILOG = """examples:
  eud parse --model models/en_ewt --input-format conllu test.conllu -o parsed.conllu
  eud parse --model models/en_ewt story.txt > story.conllu          # raw text (needs models/en_ewt/segmenter)
  eud parse --model models/et_ewt --input-format tokenized words.txt
  xzcat big.conllu.xz | eud parse --model models/en_ewt --input-format conllu --threads 2 - | gzip > out.conllu.gz

input formats:
  conllu     one word per line; only FORM (and the tokenisation) is used
  tokenized  one sentence per line, words separated by spaces
  text       raw text, split by the model's segmenter (the default for non-CoNLL-U input)
"""

FORMATS = ("conllu", "text", "tokenized")
CONLLU_SUFFIXES = (".conllu", ".conll", ".conllu.xz", ".conllu.gz", ".conllu.bz2")


def guess_format(path: str) -> str:
    """``conllu`` for a CoNLL-U file name or content, else ``text``."""
    if path.endswith(CONLLU_SUFFIXES):
        return "conllu"
    if path == "-":
        head = sys.stdin.buffer.peek(4096)[:4096].decode("utf-8", "replace")
    else:
        try:
            with open(path, "rb") as f:
                head = f.read(4096).decode("utf-8", "replace")
        except OSError:
            return "text"
    for line in head.splitlines():
        if line.strip():
            return "conllu" if line.startswith("#") or line.count("\t") == 9 else "text"
    return "text"


def chunked(sentences: Iterator[Sentence], size: int) -> Iterator[list[Sentence]]:
    """Lists of up to ``size`` consecutive sentences."""
    chunk: list[Sentence] = []
    for s in sentences:
        chunk.append(s)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _sentences(args: argparse.Namespace, fmt: str) -> Iterator[Sentence]:
    if fmt == "conllu":
        return read_conllu(args.input)
    if fmt == "tokenized":
        from eud.segment import read_tokenized
        from eud.segment.text import paragraphs as text_paragraphs

        def lines() -> Iterator[str]:
            for number, paragraph in enumerate(text_paragraphs(args.input, errors=args.errors)):
                if number:
                    yield ""  # a blank line between paragraphs: # newpar
                yield from paragraph.split("\n")

        return read_tokenized(lines())
    from eud.segment import Segmenter, paragraphs

    folder = Path(args.model) / "segmenter"
    if not folder.is_dir():
        raise ValueError(f"{args.model}: this model has no segmenter/ folder, so it cannot read raw text; "
                         "use --input-format conllu or tokenized")
    return Segmenter.load(folder).segment(paragraphs(args.input, errors=args.errors))


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud parse``."""
    ap = argparse.ArgumentParser(prog="eud parse", description=__doc__.split("\n\n")[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", default="-", help="input file (- for stdin; .xz/.gz/.bz2 ok)")
    ap.add_argument("--model", required=True, help="model package folder (e.g. models/en_ewt)")
    ap.add_argument("--input-format", choices=FORMATS, help="default: conllu for CoNLL-U input, else text")
    ap.add_argument("-o", "--output", default="-", help="output file (- for stdout; compressed by suffix)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (default: torch's choice)")
    ap.add_argument("--graph-mode", choices=("graph", "rules", "combined"), help="override the model's graph source")
    ap.add_argument("--chunk", type=int, default=2000, help="sentences read and parsed at a time (default 2000)")
    ap.add_argument("--batch-words", type=int, default=1000,
                    help="words per network batch (default 1000; larger batches were slower on CPU)")
    ap.add_argument("--precision", choices=("auto", "fp32", "bf16"), default="auto",
                    help="encoder arithmetic: bf16 is about 1.6x faster on CPUs with AVX512-BF16 or AMX and "
                         "scores the same; auto (default) uses it where the CPU has it")
    ap.add_argument("--errors", choices=("strict", "replace"), default="strict",
                    help="invalid UTF-8 in text input: stop with the byte offset (strict) or use U+FFFD (replace)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no timing summary on stderr")
    args = ap.parse_args(argv)
    if not Path(args.model).is_dir():
        print(f"eud parse: {args.model}: no such model folder", file=sys.stderr)
        return 2
    if args.input != "-" and not os.path.exists(args.input):
        print(f"eud parse: {args.input}: no such file", file=sys.stderr)
        return 2
    try:
        import torch

        from eud.nn.package import PackageError, load_package
        from eud.nn.predict import Predictor
    except ImportError as err:
        print(f"eud parse: the neural parser needs torch, transformers and safetensors (pip install 'eud[nn]'): {err}",
              file=sys.stderr)
        return 1
    if args.threads:
        torch.set_num_threads(args.threads)
    t0 = time.time()
    try:
        model, vocabs, config = load_package(args.model)
    except (PackageError, ValueError, OSError) as err:
        print(f"eud parse: {err}", file=sys.stderr)
        return 1
    predictor = Predictor(model, vocabs, config, graph_mode=args.graph_mode, batch_words=args.batch_words,
                          precision=args.precision)
    loaded = time.time() - t0
    fmt = args.input_format or guess_format(args.input)
    n_sent = n_words = 0
    t1 = time.time()
    out: IO[str]
    try:
        from eud.conllu import open_text
        from eud.progress import progress

        out = sys.stdout if args.output == "-" else open_text(args.output, "w")
        try:
            for chunk in progress(chunked(_sentences(args, fmt), args.chunk), "parsing", unit="chunk"):
                predictor.annotate(chunk)
                for s in chunk:
                    out.write(format_sentence(s))
                n_sent += len(chunk)
                n_words += sum(len(s.words) for s in chunk)
            out.flush()
        finally:
            if out is not sys.stdout:
                out.close()
    except ConlluError as err:
        print(f"eud parse: {err}", file=sys.stderr)
        return 1
    except ValueError as err:  # bad text input, missing segmenter
        print(f"eud parse: {err}", file=sys.stderr)
        return 1
    if not args.quiet:
        took = time.time() - t1
        print(f"eud parse: {n_sent} sentences, {n_words} words in {took:.1f} s "
              f"({n_words / max(took, 1e-9):.0f} words/s); model loaded in {loaded:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
