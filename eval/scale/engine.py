"""1 vs 2 local Dask workers on the same input: ``eud parse`` (and ``eud enhance``) through eud.engine.

    python -m eval.scale.engine ../shared/data/ud/en_ewt/en_ewt-ud-dev.conllu.xz --sentences 400 --chunk 50

Takes the first ``--sentences`` sentences of a CoNLL-U file, and for 1 and
then 2 workers: starts a local cluster, loads the model on every worker (not
timed: the worker plugin), then times ``eud.engine.run`` over the sentences
(gold tokenisation, every column predicted).  Each worker uses one torch
thread.  Prints seconds, words/s, the speed-up, and whether the two outputs
are byte-identical.  The same for the rule-based enhancer (``--enhance``).

It writes ``eval/results/scale/engine.json`` (``engine_enhance.json`` with ``--enhance``), with the
CPU and the load average, unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

from eud import engine
from eud.conllu import read_conllu, write_conllu
from eval.common import command_line, record


def timed(job: engine.Job, source: Path, workers: int, chunk: int, out: Path) -> tuple[float, int]:
    """Seconds and words for one run on a fresh local cluster of ``workers`` workers (model loaded before timing)."""
    client = engine.local_client(workers)
    try:
        client.register_plugin(engine.LoadModel(job))
        start = time.perf_counter()
        report = engine.run(job, [str(source)], client, output=str(out), chunk=chunk)
        took = time.perf_counter() - start
        assert not report.failures, report.failures
        return took, report.words
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()


def main(argv: list[str] | None = None) -> int:
    """Run both settings, print the table rows and record the speed-up."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conllu")
    parser.add_argument("--sentences", type=int, default=400)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--model", default="en")
    parser.add_argument("--enhance", action="store_true", help="time eud enhance --lang en instead of parsing")
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    load = f"load average {os.getloadavg()[0]:.1f} at the start" if hasattr(os, "getloadavg") else ""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "input.conllu"
        sentences = []
        for sentence in read_conllu(args.conllu):
            sentences.append(sentence)
            if len(sentences) >= args.sentences:
                break
        write_conllu(sentences, source)
        if args.enhance:
            job = engine.Job("enhance", lang="en")
        else:
            job = engine.Job("parse", model=args.model, input_format="conllu", options=(("threads", 1),))
        results = {}
        for workers in (1, 2):
            out = Path(tmp) / f"out{workers}.conllu"
            took, words = timed(job, source, workers, args.chunk, out)
            results[workers] = (took, hashlib.sha256(out.read_bytes()).hexdigest())
            print(f"{job.kind}, {workers} worker(s): {len(sentences)} sentences, {words} words in {took:.1f} s "
                  f"= {words / took:.0f} words/s", flush=True)
        print(f"speed-up 1 -> 2 workers: {results[1][0] / results[2][0]:.2f}x; outputs byte-identical: "
              f"{results[1][1] == results[2][1]}")
    if not args.no_record:
        figures = {f"{job.kind}, {len(sentences)} sentences, 2 workers vs 1": f"{results[1][0] / results[2][0]:.2f}x",
                   "outputs identical": "yes" if results[1][1] == results[2][1] else "no"}
        record("scale", "engine_enhance" if args.enhance else "engine", figures, label="measurement",
               command=command_line("eval.scale.engine"), notes=load, with_cpu=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
