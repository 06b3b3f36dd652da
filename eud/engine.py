"""Corpus-scale parsing and enhancing on a Dask distributed cluster (``--workers N`` or ``--cluster ADDRESS``).

Why Dask and not Ray: eud's work is a plain map over chunks of sentences
with one loaded model per process.  Dask's ``distributed`` does that with
futures, per-task retries and worker plugins, is a pure-Python install of a
few MB (Ray's wheel is over 60 MB with a C++ core and its own object store),
starts a local cluster in about a second, and joins an existing cluster
from nothing but a scheduler address.  See docs/engine.md.

The driver (this process) reads the inputs one after another, cuts them
into chunks of ``chunk`` sentences and submits each chunk as a task; every
worker loads the model once (a :class:`LoadModel` worker plugin, and
:class:`eud.pipeline.Pipeline`'s per-process cache) and returns the chunk as
CoNLL-U text.  Results are written strictly in input order, at most
``window`` chunks being in flight.  A chunk whose task fails is retried
(``retries``); if it still fails it is reported by file and sentence
numbers, its file is not written (no half-written file), the other files go
on, and the run ends with the failures listed.  Raw text is segmented on a
worker (the segmenter belongs to the model), one task per file.
"""

from __future__ import annotations

import glob
import os
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from distributed import WorkerPlugin

from eud.conllu import format_sentence, open_text, read_conllu
from eud.graph import Sentence

INPUT_SUFFIXES = (".conllu", ".conll", ".txt", ".xz", ".gz", ".bz2")


@dataclass(frozen=True)
class Job:
    """What to do with every chunk: ``parse`` with a model, or ``enhance`` with a language profile."""

    kind: str  # "parse" or "enhance"
    model: str = ""  # parse: model folder, treebank or language code
    lang: str | None = None  # parse: language of a multilingual model; enhance: the profile's code
    profile: str | None = None  # enhance: a profile TOML file instead of lang
    repair: bool = True
    input_format: str | None = None  # parse: conllu, tokenized, text, presegmented (None: guessed per file)
    options: tuple[tuple[str, Any], ...] = ()  # parse: Pipeline.load keywords (graph_mode, precision, ...)
    errors: str = "strict"


@dataclass
class ChunkFailure:
    """A chunk that failed after its retries: where it is and why."""

    path: str
    first: int  # 1-based sentence numbers within the file
    last: int
    sent_id: str | None
    line: int | None
    error: str

    def __str__(self) -> str:
        where = f"{self.path}: sentences {self.first}-{self.last}"
        if self.line:
            where += f" (from line {self.line}"
            where += f", sent_id {self.sent_id})" if self.sent_id else ")"
        return f"{where}: {self.error}"


@dataclass
class Report:
    """What a run did: per input file its output and sentence count, and the failures."""

    written: dict[str, str] = field(default_factory=dict)  # input -> output ("-" for the stream)
    sentences: int = 0
    words: int = 0
    failures: list[ChunkFailure] = field(default_factory=list)


# -- inputs ------------------------------------------------------------------


def expand_inputs(specs: list[str]) -> list[str]:
    """Files named by each spec: a file as is, a directory's corpus files (sorted), or a glob's matches (sorted).

    Raises FileNotFoundError for a spec that names nothing.
    """
    files: list[str] = []
    for spec in specs:
        if spec == "-" or os.path.isfile(spec):
            files.append(spec)
        elif os.path.isdir(spec):
            found = sorted(str(p) for p in Path(spec).iterdir() if p.is_file() and p.name.endswith(INPUT_SUFFIXES))
            if not found:
                raise FileNotFoundError(f"{spec}: a directory with no .conllu/.txt files")
            files.extend(found)
        else:
            found = sorted(p for p in glob.glob(spec, recursive=True) if os.path.isfile(p))
            if not found:
                raise FileNotFoundError(f"{spec}: no such file, directory or matching glob")
            files.extend(found)
    return files


def output_name(path: str) -> str:
    """The output file name for an input: its name without compression and corpus suffixes, plus ``.conllu``."""
    name = Path(path).name
    for suffix in (".xz", ".gz", ".bz2"):
        name = name.removesuffix(suffix)
    for suffix in (".conllu", ".conll", ".txt"):
        name = name.removesuffix(suffix)
    return name + ".conllu"


# -- on the workers -------------------------------------------------------------


def _pipeline(job: Job) -> Any:
    from eud.pipeline import Pipeline

    options = dict(job.options)
    if job.lang and job.model != job.lang:
        options["lang"] = job.lang
    return Pipeline.load(job.model, **options)


def _enhancer(job: Job) -> Any:
    if job.profile:
        from eud.enhance import Enhancer
        from eud.enhance.profiles import load_profile

        return Enhancer(load_profile(job.profile), repair=job.repair)
    from eud.pipeline import enhancer

    return enhancer(job.lang or "", repair=job.repair)


def process_chunk(job: Job, sentences: list[Sentence]) -> str:
    """Parse or enhance one chunk on a worker and return it as CoNLL-U text."""
    if job.kind == "parse":
        _pipeline(job).parse_sentences(sentences)
    else:
        rules = _enhancer(job)
        sentences = rules.enhance_all(sentences)
    return "".join(format_sentence(s) for s in sentences)


def segment_file(job: Job, path: str) -> list[Sentence]:
    """Raw or tokenised text of one file as unparsed sentences (on a worker, which has the model's segmenter)."""
    return list(_pipeline(job).read(path, job.input_format or "text", errors=job.errors))


class LoadModel(WorkerPlugin):
    """Worker plugin: load the job's model (or profile) when a worker starts, so no chunk waits for it."""

    idempotent = True

    def __init__(self, job: Job) -> None:
        self.job = job
        # One plugin per job: a worker that loaded another model before must load this one too.
        self.name = f"eud-load-model-{job!r}"

    def setup(self, worker: Any) -> None:
        """Load once per worker process."""
        if self.job.kind == "parse":
            _pipeline(self.job)
        else:
            _enhancer(self.job)

    def teardown(self, worker: Any) -> None:
        """Nothing to free: the process goes away."""


# -- the driver -----------------------------------------------------------------


def local_client(workers: int, threads: int = 0) -> Any:
    """A Dask client on a fresh local cluster of ``workers`` single-threaded worker processes.

    Its dashboard takes a free port (``client.dashboard_link``), not Dask's 8787, so that it never
    collides with a cluster already running on the machine.
    """
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=40, host="127.0.0.1")
    return Client(cluster)


def _file_chunks(job: Job, path: str, chunk: int, client: Any) -> Iterator[tuple[int, list[Sentence]]]:
    """(number of the first sentence, sentences) for each chunk of one input file."""
    fmt = job.input_format
    if job.kind == "parse" and fmt is None:
        from eud.pipeline import guess_format

        fmt = guess_format(path)
    if job.kind == "parse" and fmt != "conllu":
        if path == "-":
            raise ValueError("text from stdin cannot go to a cluster: give a file")
        sentences = client.submit(segment_file, job, os.path.abspath(path), pure=False, retries=1).result()
    else:
        sentences = read_conllu(path)
    batch: list[Sentence] = []
    first = 1
    for sentence in sentences:
        batch.append(sentence)
        if len(batch) >= chunk:
            yield first, batch
            first += len(batch)
            batch = []
    if batch:
        yield first, batch


@dataclass
class _Output:
    """One output being written: a temporary file renamed into place at the end, or the shared stream."""

    target: str
    stream: IO[str] | None = None
    tmp: str | None = None
    failed: bool = False

    def write(self, text: str) -> None:
        if self.failed:
            return
        if self.stream is None:
            self.tmp = f"{self.target}.tmp{os.getpid()}"
            self.stream = open_text(self.tmp, "w")
        self.stream.write(text)

    def finish(self) -> bool:
        """Close and move into place; False (and nothing left behind) if a chunk failed."""
        if self.stream is None and not self.failed:
            self.write("")  # an empty input gives an empty output
        assert self.stream is not None or self.failed
        if self.stream is not None:
            self.stream.close()
        if self.tmp is None:
            return not self.failed
        if self.failed:
            os.unlink(self.tmp)
            return False
        os.replace(self.tmp, self.target)
        return True


def run(job: Job, inputs: list[str], client: Any, *, output: str = "-", output_dir: str | None = None,
        chunk: int = 500, retries: int = 2, window: int | None = None) -> Report:
    """Process ``inputs`` on the cluster behind ``client``; write one file per input into ``output_dir``, or all to
    ``output`` (a file or ``-``), in input order.  Failed chunks are listed in the report, never dropped silently.
    """
    from distributed import wait

    report = Report()
    if output_dir is not None:
        names = [output_name(p) for p in inputs]
        clash = {n for n in names if names.count(n) > 1}
        if clash:
            raise ValueError(f"two inputs would write the same output file: {', '.join(sorted(clash))}")
        os.makedirs(output_dir, exist_ok=True)
    nworkers = max(1, len(client.scheduler_info().get("workers", {})))
    window = window or 3 * nworkers + 1
    try:
        client.register_plugin(LoadModel(job))
    except Exception as err:  # whatever the workers raised while loading
        raise ValueError(f"the workers could not load the model or profile: {type(err).__name__}: {err}") from err
    shared = None
    if output_dir is None:
        shared = _Output(output, stream=open_text(output, "w") if output == "-" else None)
    pending: deque = deque()

    def drain(limit: int) -> None:
        while len(pending) > limit:
            path, first, sentences, out, future = pending.popleft()
            wait([future])
            if future.status == "finished":
                out.write(future.result())
                report.sentences += len(sentences)
                report.words += sum(len(s.words) for s in sentences)
                continue
            err = future.exception()
            report.failures.append(ChunkFailure(path, first, first + len(sentences) - 1, sentences[0].sent_id,
                                                sentences[0].line, f"{type(err).__name__}: {err}"))
            out.failed = True

    out: _Output | None = None
    try:
        for path in inputs:
            out = shared or _Output(os.path.join(output_dir or ".", output_name(path)))
            for first, sentences in _file_chunks(job, path, chunk, client):
                future = client.submit(process_chunk, job, sentences, pure=False, retries=retries)
                pending.append((path, first, sentences, out, future))
                drain(window)
            if shared is None:
                drain(0)
                if out.finish():
                    report.written[path] = out.target
        drain(0)
    except BaseException:  # unreadable input, interrupt: leave no half-written file behind
        if out is not None and out.target != "-":
            out.failed = True
            out.finish()
        raise
    if shared is not None:
        if shared.target == "-":
            assert shared.stream is not None
            shared.stream.flush()
            shared.stream = None  # stdout stays open
            report.written.update({p: "-" for p in inputs} if not report.failures else {})
        elif shared.finish():
            report.written.update({p: shared.target for p in inputs})
    return report
