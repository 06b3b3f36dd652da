"""The HTTP server behind ``eud serve``: UDPipe 2's REST API, plus /enhance, /evaluate and /render.

An ASGI app (Starlette) that uvicorn runs.  Endpoints take their input the
way UDPipe's ``/process`` does, as query or form fields (urlencoded or
multipart), and answer JSON:

* ``GET|POST /process``: ``data``, ``model``, ``tokenizer``, ``tagger``,
  ``parser``, ``input`` (``conllu``, ``horizontal``, ``vertical``) →
  ``{"model", "acknowledgements", "result"}``.  As in UDPipe, ``tokenizer``
  (present) means ``data`` is raw text, and its value may name UDPipe's options
  ``presegmented`` (a sentence a line), ``ranges`` (``TokenRange`` in MISC) and
  ``normalized_spaces`` (no ``SpacesAfter``), separated by ``;``; without ``tagger`` and
  ``parser`` the sentences come back segmented but not annotated; with
  either, eud's joint model predicts every column and the enhanced graph.
* ``GET /models``: ``{"models": {name: [components]}, "default_model"}``.
* ``GET /health``: ``{"status", "workers_alive", "queued", "running", "jobs_done", "retry_after_s", ...}``;
  ``status`` is ``ok`` (200), or, with a 503 that a load balancer reads, ``degraded`` (no worker
  ready: they are starting or restarting) or ``draining`` (the server got SIGTERM and takes no
  new jobs).
* ``POST /enhance``: ``data`` (CoNLL-U) and ``lang`` → ``result``, the bytes
  ``eud enhance --lang`` writes.
* ``POST /evaluate``: ``gold`` and ``system`` (CoNLL-U) → the scores, as
  ``eud evaluate --json`` gives them for one pair.
* ``GET|POST /render``: ``data`` (and ``gold`` to compare) → the HTML page
  ``eud render`` writes.
* ``GET /``: a page for people (``eud/web/demo.html``): a text box, the
  server's models, the graph from ``/render`` and the CoNLL-U from ``/process``.

Parse jobs run in ``workers`` separate processes (each loads the ``--model``
models at start, others on first use, and keeps them), fed from one queue by
:class:`eud.server_pool.WorkerPool`: when a worker dies (SIGKILL, the OOM
killer) no queued job is lost, the job it was running is retried once on
another worker, and a job that kills a second worker answers 500 naming it
(a poison input); the dead worker is replaced.  Jobs beyond ``workers +
max_queue`` in flight are refused at once with 503 and a ``Retry-After`` that
estimates the wait: jobs in flight × the recent job time / workers alive.  A
job that takes longer than ``timeout`` seconds answers 504.  After
:meth:`Server.begin_drain` (``eud serve`` calls it on SIGTERM) new jobs get
503, and the jobs in flight have ``drain_timeout`` seconds to finish before
they answer 503 too, so no request is dropped without an answer.  Requests over ``max_bytes``
answer 413 before their body is read.  Malformed CoNLL-U answers 400 with the
line and the problem.  Errors are JSON: ``{"error": message, ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from eud.conllu import ConlluError, format_sentence, parse_conllu
from eud.registry import ModelNotFound, find_model, models_dir, shipped_models
from eud.server_pool import PoolStopped, WorkerDied, WorkerPool, log

INPUTS = ("conllu", "horizontal", "vertical")
# UDPipe's tokenizer options that eud honours: one sentence a line; TokenRange in MISC; only SpaceAfter=No.
TOKENIZER_OPTIONS = ("presegmented", "ranges", "normalized_spaces")
MB = 1024 * 1024
# Test-only: a worker that gets a job whose data contains this environment variable's text kills itself
# with SIGKILL, as the OOM killer would (the tests' poison input).  Never set it in production.
FATAL_TEXT_VARIABLE = "EUD_TEST_FATAL_TEXT"


@dataclass
class ServerConfig:
    """The limits and models of one server (what ``eud serve``'s options set)."""

    workers: int = 1
    max_queue: int = 8
    max_bytes: int = 10 * MB
    timeout: float = 300.0
    default_model: str = "en"
    threads: int = 0  # torch threads per worker; 0: cores / workers
    allow_paths: bool = False  # may ``model`` name a folder outside the shipped models?
    preload: list[str] = field(default_factory=list)
    drain_timeout: float = 30.0  # seconds the jobs in flight get to finish after SIGTERM


class ClientError(Exception):
    """A request the server refuses: HTTP status and the JSON body to send."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": message, **extra}


# -- the jobs, run in worker processes (module-level so they pickle) ----------


def _vertical_to_lines(data: str) -> list[str]:
    """UDPipe's vertical format (a token a line, a blank line between sentences) as one sentence a line."""
    lines, tokens = [], []
    for line in data.splitlines():
        token = line.strip()
        if token:
            tokens.append(token)
        elif tokens:
            lines.append(" ".join(tokens))
            tokens = []
    if tokens:
        lines.append(" ".join(tokens))
    return lines


def parse_job(model: str, data: str, mode: str, annotate: bool, threads: int,
              options: tuple[str, ...] = ()) -> tuple[str, Any]:
    """Run one /process job in a worker: ``("ok", (model folder name, CoNLL-U))`` or ``("bad", error body)``.

    ``options`` are UDPipe's tokenizer options (:data:`TOKENIZER_OPTIONS`), for raw text.
    """
    from eud import spaces
    from eud.pipeline import Pipeline

    fatal = os.environ.get(FATAL_TEXT_VARIABLE)
    if fatal and fatal in data:
        os.kill(os.getpid(), signal.SIGKILL)
    try:
        pipe = Pipeline.load(model, threads=threads)
        if mode == "raw":
            segmenter = pipe.segmenter
            read = segmenter.segment_lines if "presegmented" in options else segmenter.segment
            sentences = list(read(data))
            if "ranges" in options:
                from eud.segment.text import DROPPED

                spaces.add_token_ranges(data, sentences, DROPPED)
            if "normalized_spaces" in options:
                spaces.normalize(sentences)
        elif mode == "conllu":
            sentences = parse_conllu(data, name="data")
        else:
            from eud.segment import read_tokenized

            lines = _vertical_to_lines(data) if mode == "vertical" else data.splitlines()
            sentences = list(read_tokenized(lines))
        if annotate and sentences:
            pipe.parse_sentences(sentences)
        return "ok", (pipe.folder.name, "".join(format_sentence(s) for s in sentences))
    except ConlluError as err:
        return "bad", {"error": str(err), "line": err.line, "problem": err.message}
    except (ModelNotFound, ValueError) as err:
        return "bad", {"error": str(err)}


def tokenizer_options(value: str) -> tuple[str, ...]:
    """UDPipe's ``tokenizer`` value (options separated by ``;``) as option names; unknown ones are a 400."""
    names = tuple(o.split("=", 1)[0].strip() for o in value.split(";") if o.strip())
    unknown = [n for n in names if n not in TOKENIZER_OPTIONS]
    if unknown:
        raise ClientError(400, f"tokenizer option {unknown[0]!r} is not supported; eud knows "
                               f"{', '.join(TOKENIZER_OPTIONS)}")
    return names


def load_models(models: list[str], threads: int) -> dict:
    """In each worker, before its first job: load the ``--model`` models; what loaded and how long it took."""
    from eud.pipeline import Pipeline

    start = time.perf_counter()
    loaded, errors = [], []
    for model in models:
        try:
            loaded.append(Pipeline.load(model, threads=threads).folder.name)
        except (ModelNotFound, ValueError, OSError) as err:
            errors.append(f"{model}: {err}")
    return {"loaded": loaded, "errors": errors, "model_load_s": round(time.perf_counter() - start, 2)}


# -- the app --------------------------------------------------------------------


class Server:
    """The app's state: config, the worker pool, the admission counter and the drain after SIGTERM."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.in_flight = 0
        self.loaded: set[str] = set()
        self.started = time.time()
        self.threads = config.threads or max(1, (os.cpu_count() or 1) // max(1, config.workers))
        self.pool: WorkerPool | None = None
        self.draining = False
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, preload: list[str] = ()) -> None:
        """Start the worker processes (spawned, so torch never meets a fork); each loads ``preload`` first."""
        self.pool = WorkerPool(self.config.workers, parse_job, init=load_models,
                               init_args=(list(preload), self.threads))
        self.pool.start()

    def stop(self) -> None:
        """Stop the workers: queued jobs fail with 503, the processes end."""
        if self.pool is not None:
            self.pool.stop()
            self.pool = None

    def resolve_model(self, name: str) -> str:
        """The model folder for a request's ``model`` field, refusing paths unless allowed."""
        name = name.strip() or self.config.default_model
        try:
            folder = find_model(name)
        except ModelNotFound as err:
            raise ClientError(400, str(err)) from None
        if not self.config.allow_paths and folder.resolve().parent != models_dir().resolve() \
                and name not in self.config.preload:
            raise ClientError(400, f"{name}: only shipped models are served (start with --allow-model-paths "
                                   "or --model to serve a folder)")
        return str(folder)

    def retry_after(self) -> int:
        """Seconds a refused client should wait: the jobs in flight × the recent job time / workers alive."""
        mean = self.pool.job_time() if self.pool else None
        alive = self.pool.alive() if self.pool else 0
        return max(1, math.ceil(self.in_flight * (mean or 1.0) / max(1, alive)))

    def begin_drain(self) -> None:
        """Take no new jobs; the ones in flight get ``drain_timeout`` s, then answer 503 (safe in a signal handler)."""
        if self.loop is not None and not self.draining:
            self.loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        if self.draining:
            return
        self.draining = True
        log.warning("stopping: no new jobs; %d in flight get up to %g s to finish (--drain-timeout)",
                    self.in_flight, self.config.drain_timeout)
        self.loop.call_later(self.config.drain_timeout, self._drain_expired)

    def _drain_expired(self) -> None:
        if self.pool is not None:
            failed = self.pool.fail_all(PoolStopped(f"the server stopped before this job finished "
                                                    f"(--drain-timeout {self.config.drain_timeout:g} s); retry"))
            if failed:
                log.warning("drain timeout: %d unfinished jobs answered 503", failed)

    async def admit(self, job: Callable[[], Awaitable[Any]]) -> Any:
        """Run a job if there is room in the queue, else refuse it with 503 and Retry-After."""
        if self.draining:
            raise ClientError(503, "the server is stopping; retry (on another instance)",
                              retry_after=self.retry_after())
        if self.in_flight >= self.config.workers + self.config.max_queue:
            raise ClientError(503, f"the server is busy ({self.in_flight} jobs in flight, limit "
                                   f"{self.config.workers + self.config.max_queue}); retry later",
                              retry_after=self.retry_after())
        self.in_flight += 1
        try:
            return await asyncio.wait_for(job(), timeout=self.config.timeout)
        except TimeoutError:
            raise ClientError(504, f"the job took longer than {self.config.timeout:g} s") from None
        finally:
            self.in_flight -= 1

    async def run_parse(self, model: str, data: str, mode: str, annotate: bool,
                        options: tuple[str, ...] = ()) -> tuple[str, str]:
        """One parse job in the worker pool (retried once elsewhere if its worker dies)."""
        label = f"({mode}, {len(data)} characters, model {Path(model).name})"
        try:
            future = self.pool.submit(model, data, mode, annotate, self.threads, options, label=label)
            status, value = await asyncio.wrap_future(future)
        except WorkerDied as err:
            raise ClientError(500, str(err), job=err.job) from None
        except PoolStopped as err:
            raise ClientError(503, str(err), retry_after=self.retry_after()) from None
        if status == "bad":
            raise ClientError(400, value.pop("error"), **value)
        self.loaded.add(value[0])
        return value

    def health(self) -> dict:
        """What ``/health`` reports: the pool's state (workers alive, queue, jobs done) and the limits."""
        stats = self.pool.stats() if self.pool else {"workers_alive": 0}
        status = "draining" if self.draining else "ok" if stats["workers_alive"] else "degraded"
        loaded = set(self.loaded)
        for info in stats.get("worker_info", []):
            loaded.update(info.get("loaded", []))
        load_times = [i["model_load_s"] for i in stats.get("worker_info", []) if "model_load_s" in i]
        return {"status": status, **stats, "loaded": sorted(loaded), "in_flight": self.in_flight,
                "retry_after_s": self.retry_after(), "model_load_s": max(load_times, default=None),
                "workers": self.config.workers, "max_queue": self.config.max_queue,
                "uptime_s": round(time.time() - self.started, 1)}


async def fields(request: Request, max_bytes: int) -> dict[str, str]:
    """Query and form fields of a request as strings (uploaded files are read as UTF-8 text)."""
    out: dict[str, str] = dict(request.query_params)
    if request.method == "POST":
        content_type = request.headers.get("content-type", "")
        if content_type.startswith("multipart/form-data"):
            form = await request.form(max_part_size=max_bytes)
        elif content_type.startswith("application/x-www-form-urlencoded"):
            form = await request.form()
        else:
            form = None
        if form is not None:
            for key, value in form.multi_items():
                if isinstance(value, str):
                    out[key] = value
                else:
                    raw = await value.read()
                    try:
                        out[key] = raw.decode("utf-8")
                    except UnicodeDecodeError as err:
                        raise ClientError(400, f"field {key}: not UTF-8 ({err.reason} at byte {err.start})") from None
            await form.close()
    return out


def _need(values: dict[str, str], name: str) -> str:
    if name not in values:
        raise ClientError(400, f"missing field {name!r}")
    return values[name]


def _lf(text: str) -> str:
    """CoNLL-U sent over HTTP with CR LF line ends (as HTML forms send a textarea) made LF."""
    return text.replace("\r\n", "\n")


def _conllu(text: str, name: str) -> list:
    try:
        return parse_conllu(_lf(text), name=name)
    except ConlluError as err:
        raise ClientError(400, str(err), line=err.line, problem=err.message) from None


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The ASGI app for a config (uvicorn runs it; tests may too)."""
    from eud import __version__

    server = Server(config or ServerConfig())
    limit = server.config.max_bytes

    def endpoint(handler: Callable[[Request, dict[str, str]], Awaitable[Response]]) -> Callable:
        async def run(request: Request) -> Response:
            try:
                return await handler(request, await fields(request, limit))
            except ClientError as err:
                headers = {"Retry-After": str(err.body.pop("retry_after"))} if "retry_after" in err.body else None
                return JSONResponse(err.body, status_code=err.status, headers=headers)
            except Exception as err:  # noqa: BLE001  (a bug must not kill the server: it answers 500)
                return JSONResponse({"error": f"internal error: {type(err).__name__}: {err}"}, status_code=500)

        return run

    async def process(request: Request, values: dict[str, str]) -> Response:
        data = _need(values, "data")
        mode = "raw" if "tokenizer" in values else values.get("input", "conllu")
        if mode not in INPUTS + ("raw",):
            raise ClientError(400, f"input={mode!r}: use one of {', '.join(INPUTS)} (or give tokenizer)")
        if values.get("output", "conllu") != "conllu":
            raise ClientError(400, "only output=conllu is supported")
        if mode == "conllu":
            data = _lf(data)
            _conllu(data, "data")  # refuse bad input here, before it takes a worker
        options = tokenizer_options(values.get("tokenizer", ""))
        model = server.resolve_model(values.get("model", ""))
        annotate = "tagger" in values or "parser" in values
        name, result = await server.admit(lambda: server.run_parse(model, data, mode, annotate, options))
        thanks = f"eud {__version__}: enhanced Universal Dependencies; model card: models/{name}/MODEL.md"
        return JSONResponse({"model": name, "acknowledgements": [thanks], "result": result})

    async def enhance(request: Request, values: dict[str, str]) -> Response:
        data, lang = _need(values, "data"), _need(values, "lang")
        from eud.enhance.profiles import ProfileError
        from eud.pipeline import enhancer

        try:
            rules = enhancer(lang)
        except ProfileError as err:
            raise ClientError(400, str(err)) from None

        def run() -> str:
            return "".join(format_sentence(s) for s in rules.enhance_all(list(_conllu(data, "data"))))

        result = await server.admit(lambda: asyncio.to_thread(run))
        return JSONResponse({"lang": lang, "result": result})

    async def evaluate(request: Request, values: dict[str, str]) -> Response:
        gold, system = _need(values, "gold"), _need(values, "system")
        from eud.evaluate import ScoringError, evaluate_sentences

        def run() -> dict:
            try:
                return evaluate_sentences(_conllu(gold, "gold"), _conllu(system, "system")).to_dict()
            except ScoringError as err:
                raise ClientError(400, str(err)) from None

        return JSONResponse(await server.admit(lambda: asyncio.to_thread(run)))

    async def render(request: Request, values: dict[str, str]) -> Response:
        data = _need(values, "data")
        gold = values.get("gold")
        from eud.render import render_page

        def run() -> str:
            try:
                return render_page(_conllu(data, "data"), _conllu(gold, "gold") if gold else None,
                                   title=values.get("title", "eud"))
            except ValueError as err:
                if isinstance(err, ConlluError):
                    raise
                raise ClientError(400, str(err)) from None

        return HTMLResponse(await server.admit(lambda: asyncio.to_thread(run)))

    async def models(request: Request, values: dict[str, str]) -> Response:
        shipped = shipped_models()
        listing = {name: ["tokenizer", "tagger", "parser"] if (models_dir() / name / "segmenter").is_dir()
                   else ["tagger", "parser"] for name in shipped}
        default = find_model(server.config.default_model).name if shipped else None
        return JSONResponse({"models": listing, "languages": shipped, "default_model": default})

    async def health(request: Request, values: dict[str, str]) -> Response:
        body = {**server.health(), "version": __version__}
        # A load balancer reads the status: 503 while draining or with no worker alive.
        return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503)

    async def demo(request: Request, values: dict[str, str]) -> Response:
        from importlib.resources import files

        page = (files("eud") / "web" / "demo.html").read_text(encoding="utf-8")
        return HTMLResponse(page.replace("{{max_bytes}}", str(limit)))

    routes = [
        Route("/", endpoint(demo), methods=["GET"]),
        Route("/process", endpoint(process), methods=["GET", "POST"]),
        Route("/models", endpoint(models), methods=["GET"]),
        Route("/health", endpoint(health), methods=["GET"]),
        Route("/enhance", endpoint(enhance), methods=["GET", "POST"]),
        Route("/evaluate", endpoint(evaluate), methods=["POST"]),
        Route("/render", endpoint(render), methods=["GET", "POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.loop = asyncio.get_running_loop()
        # Every worker loads the --model models before it takes a job, so the first request does not wait.
        server.start([server.resolve_model(name) for name in server.config.preload])
        await asyncio.to_thread(server.pool.wait_ready)
        errors = [e for info in server.pool.stats()["worker_info"] for e in info.get("errors", [])]
        if errors:
            server.stop()
            raise RuntimeError("; ".join(errors))
        yield
        await asyncio.to_thread(server.stop)

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    limited = SizeLimit(app, limit)
    limited.server = server  # for ``eud serve``'s SIGTERM handler
    return limited


class SizeLimit:
    """ASGI middleware: 413 for a request whose body (declared or streamed) or query string exceeds ``limit`` bytes."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if len(scope.get("query_string", b"")) > self.limit or (declared and declared.isdigit()
                                                                and int(declared) > self.limit):
            await self._refuse(send)
            return
        # Read the body here (it is at most ``limit`` bytes), so that a chunked upload is refused at the limit too.
        chunks, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body"):
                break
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Callable) -> None:
        body = json.dumps({"error": f"request larger than {self.limit} bytes (--max-bytes)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

