"""``--workers N`` / ``--cluster ADDRESS`` for ``eud parse`` and ``eud enhance``: the options and the run (see :mod:`eud.engine`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

HELP = """\
cluster runs (pip install "eud[engine]"; Dask distributed):
  --workers N starts a local cluster of N worker processes, --cluster ADDRESS
  uses a running Dask scheduler (tcp://host:8786).  INPUT may then be a file,
  a directory (its .conllu/.txt files) or a quoted glob ('corpus/*.txt').
  -o DIR/ (an existing directory, or a name ending in /) writes one .conllu per
  input; otherwise all outputs go, in input order, to one file or stdout.
  Each worker loads the model once; chunks of --chunk sentences are retried
  and, if they still fail, reported by file and sentence (exit code 1)."""


def add_cluster_options(parser: argparse.ArgumentParser, *, chunk: bool = False) -> None:
    """Add --workers and --cluster (and --chunk, for a command without one) to a subcommand's parser."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, metavar="N", help="run on a local Dask cluster of N worker processes")
    group.add_argument("--cluster", metavar="ADDRESS", help="run on an existing Dask cluster (scheduler address)")
    parser.add_argument("--retries", type=int, default=2, help="with --workers/--cluster: retries of a failed chunk")
    if chunk:
        parser.add_argument("--chunk", type=int, default=500,
                            help="with --workers/--cluster: sentences per task (default 500)")


def wants_cluster(args: argparse.Namespace) -> bool:
    """Did the user ask for a cluster run?"""
    return args.workers is not None or bool(args.cluster)


def run_on_cluster(prog: str, args: argparse.Namespace, chunk: int, **job: Any) -> int:
    """Run an :class:`eud.engine.Job` (``job`` are its fields) over ``args.input`` on the cluster the options name."""
    try:
        from eud import engine
    except ImportError as err:
        print(f"{prog}: {err.name} is missing; install the engine extra: pip install \"eud[engine]\"", file=sys.stderr)
        return 1
    if args.workers is not None and args.workers < 1:
        print(f"{prog}: --workers must be at least 1", file=sys.stderr)
        return 2
    job = engine.Job(**job)
    try:
        inputs = engine.expand_inputs([args.input])
    except FileNotFoundError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    output_dir = None
    if args.output != "-" and (os.path.isdir(args.output) or args.output.endswith(("/", os.sep))):
        output_dir = args.output
    elif len(inputs) > 1 and args.output != "-":
        print(f"{prog}: {len(inputs)} inputs go to one stream: {args.output}", file=sys.stderr)
    t0 = time.time()
    from distributed import Client

    client = Client(args.cluster) if args.cluster else engine.local_client(args.workers)
    try:
        workers = len(client.scheduler_info().get("workers", {}))
        report = engine.run(job, inputs, client, output=args.output, output_dir=output_dir, chunk=chunk,
                            retries=args.retries)
    except (ValueError, OSError) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 1
    finally:
        cluster = client.cluster
        client.close()
        if cluster is not None:
            cluster.close()
    for failure in report.failures:
        print(f"{prog}: failed after {args.retries} retries: {failure}", file=sys.stderr)
    if report.failures:
        missing = [p for p in inputs if p not in report.written]
        print(f"{prog}: not written: {', '.join(missing)}", file=sys.stderr)
        return 1
    if not getattr(args, "quiet", False):
        took = time.time() - t0
        print(f"{prog}: {len(inputs)} files, {report.sentences} sentences, {report.words} words in {took:.1f} s "
              f"({report.words / max(took, 1e-9):.0f} words/s) on {workers} workers", file=sys.stderr)
    return 0
