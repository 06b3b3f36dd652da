"""``eud parse``: tokenised CoNLL-U, pre-tokenised text or raw text in, enhanced CoNLL-U out.

With CoNLL-U input the given tokenisation is kept (comments, multiword
tokens, FORM and MISC untouched) and every other column is predicted.
Sentences are read in chunks, parsed in length-sorted batches and written in
input order, so memory stays flat on large files.  The work is done by
:class:`eud.pipeline.Pipeline`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from eud.atomic import atomic_text
from eud.commands.cluster import HELP as CLUSTER_HELP
from eud.commands.cluster import add_cluster_options, run_on_cluster, wants_cluster
from eud.conllu import ConlluError, format_sentence
from eud.pipeline import FORMATS, chunked, guess_format

EPILOG = """examples:
  eud parse --lang cs text.txt > text.conllu                         # the shipped model for Czech (see: eud models)
  eud parse --model models/en_ewt --input-format conllu test.conllu -o parsed.conllu
  eud parse --model models/en_ewt story.txt > story.conllu          # raw text (needs models/en_ewt/segmenter)
  eud parse --model models/et_edt --input-format tokenized words.txt
  eud parse --lang en --input-format presegmented sentences.txt      # raw text, a sentence a line
  xzcat big.conllu.xz | eud parse --model models/en_ewt --input-format conllu --threads 2 - | gzip > out.conllu.gz

input formats:
  conllu        one word per line; only FORM (and the tokenisation) is used
  tokenized     one sentence per line, words separated by spaces
  presegmented  raw text, one sentence per line (UDPipe's presegmented): the segmenter only tokenizes
  text          raw text, split by the model's segmenter (the default for non-CoNLL-U input)
"""


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud parse``."""
    ap = argparse.ArgumentParser(prog="eud parse", description=__doc__.split("\n\n")[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", default="-", help="input file (- for stdin; .xz/.gz/.bz2 ok)")
    ap.add_argument("--model", help="model package folder (e.g. models/en_ewt), or a shipped model's name")
    ap.add_argument("--lang", help="language or treebank code (cs, cs_cac): the shipped model for it; with --model, "
                                   "the language a multilingual model parses (eud models lists what ships)")
    ap.add_argument("--input-format", choices=FORMATS, help="default: conllu for CoNLL-U input, else text")
    ap.add_argument("-o", "--output", default="-", help="output file (- for stdout; compressed by suffix)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (default: torch's choice)")
    ap.add_argument("--graph-mode", choices=("graph", "rules", "combined"), help="override the model's graph source")
    ap.add_argument("--chunk", type=int, default=2000, help="sentences read and parsed at a time (default 2000)")
    ap.add_argument("--batch-words", type=int, default=1000,
                    help="words per network batch (default 1000; larger batches were slower on CPU)")
    ap.add_argument("--precision", choices=("auto", "fp32", "bf16", "int8"), default="auto",
                    help="network arithmetic: bf16 is about 1.6x faster on CPUs with AVX512-BF16 or AMX and "
                         "scores the same; int8 (dynamic int8 Linear and LSTM layers) is faster on other CPUs; "
                         "auto (default) takes bf16 where the CPU has it, else int8 for the model types whose "
                         "int8 scores held on dev, else fp32 (-v says which; EUD_NO_BF16=1 makes auto "
                         "choose as on a CPU without bf16)")
    ap.add_argument("--errors", choices=("strict", "replace"), default="strict",
                    help="invalid UTF-8 in text input: stop with the byte offset (strict) or use U+FFFD (replace)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no timing summary on stderr")
    ap.add_argument("-v", "--verbose", action="store_true", help="say which arithmetic the network runs in")
    add_cluster_options(ap)
    ap.epilog += "\n" + CLUSTER_HELP
    args = ap.parse_args(argv)
    if wants_cluster(args):
        # One torch thread per local worker: the workers share the cores.
        threads = args.threads or (max(1, (os.cpu_count() or 1) // args.workers) if args.workers else 0)
        options = (("graph_mode", args.graph_mode), ("batch_words", args.batch_words), ("precision", args.precision),
                   ("threads", threads))
        lang = getattr(args, "lang", None)
        return run_on_cluster("eud parse", args, args.chunk, kind="parse", model=args.model or lang or "", lang=lang,
                              input_format=args.input_format, options=options, errors=args.errors)
    if not args.model and not args.lang:
        print("eud parse: say which model: --lang CODE (a shipped model, see eud models) or --model FOLDER",
              file=sys.stderr)
        return 2
    from eud.registry import ModelNotFound, resolve_model

    try:
        resolve_model(args.model or args.lang)
    except ModelNotFound as err:
        print(f"eud parse: {err}", file=sys.stderr)
        return 2
    if args.input != "-" and not os.path.exists(args.input):
        print(f"eud parse: {args.input}: no such file", file=sys.stderr)
        return 2
    t0 = time.time()
    try:
        from eud.pipeline import Pipeline

        pipe = Pipeline.load(args.model or args.lang, graph_mode=args.graph_mode, batch_words=args.batch_words,
                             precision=args.precision, threads=args.threads, lang=args.lang if args.model else None)
    except ImportError as err:
        print(f"eud parse: the neural parser needs torch, transformers and safetensors (pip install 'eud[nn]'): {err}",
              file=sys.stderr)
        return 1
    except (ValueError, OSError) as err:  # a broken package
        print(f"eud parse: {err}", file=sys.stderr)
        return 1
    loaded = time.time() - t0
    if args.verbose:
        import torch

        chosen = pipe.predictor.model.precision
        why = " (auto: this CPU's choice for this model type)" if args.precision == "auto" else ""
        print(f"eud parse: network arithmetic {chosen}{why}; {torch.get_num_threads()} torch threads",
              file=sys.stderr)
    fmt = args.input_format or guess_format(args.input)
    n_sent = n_words = 0
    t1 = time.time()
    try:
        # -o appears only when the whole input parsed (temporary file + rename).
        with atomic_text(args.output) as out:
            chunks = chunked(pipe.read(args.input, fmt, errors=args.errors), args.chunk)
            for chunk in chunks:  # the reader's bar shows bytes read of the input's size
                pipe.parse_sentences(chunk)
                for s in chunk:
                    out.write(format_sentence(s))
                n_sent += len(chunk)
                n_words += sum(len(s.words) for s in chunk)
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
