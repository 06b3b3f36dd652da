"""``eud serve``: the HTTP server (UDPipe's REST API and eud's own endpoints, see :mod:`eud.server`)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys

EPILOG = """\
examples:
  eud serve                                   # http://127.0.0.1:8080, one parse worker
  eud serve --model en                        # open http://127.0.0.1:8080/ to try it in a browser
  eud serve --port 8001 --workers 2 --max-queue 16 --model en
  curl -F data=@examples/en.txt -F model=en -F tokenizer= -F tagger= -F parser= http://127.0.0.1:8080/process
  curl --data-urlencode data@basic.conllu -d lang=en http://127.0.0.1:8080/enhance
  curl --data-urlencode data@parsed.conllu http://127.0.0.1:8080/render > page.html

Endpoints: / (a page to try it in a browser), /process (UDPipe 2's: data,
model, tokenizer, tagger, parser, input=conllu|horizontal|vertical), /models,
/health, /enhance (data, lang), /evaluate (gold, system), /render (data,
optional gold).  Answers are JSON ({"model", "acknowledgements", "result"}
for /process), /render's and /'s are HTML.
Models load on first use (by language, treebank or shipped folder name) and
stay loaded in each worker.  It binds 127.0.0.1 unless --host says otherwise.
A worker that dies loses no job: queued jobs go to the other workers, the
running one is retried once, and the worker is restarted (logged on stderr).
On SIGTERM it takes no new jobs, gives the running ones --drain-timeout
seconds, answers every request and exits 0.
Needs the server extra: pip install "eud[server]".
"""


def main(argv: list[str] | None = None) -> int:
    """Run ``eud serve``."""
    parser = argparse.ArgumentParser(
        prog="eud serve",
        description="HTTP server: UDPipe's REST API (/process, /models) plus /enhance, /evaluate, /render, /health.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    parser.add_argument("--workers", type=int, default=1, help="parse worker processes (default 1)")
    parser.add_argument("--max-queue", type=int, default=8,
                        help="jobs that may wait beyond the running ones; more get 503 (default 8)")
    parser.add_argument("--max-bytes", type=int, default=10 * 1024 * 1024,
                        help="largest request body in bytes; larger get 413 (default 10 MB)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a job may take before 504 (default 300)")
    parser.add_argument("--model", action="append", default=[], metavar="NAME_OR_DIR",
                        help="load at start and serve this model (repeatable); the first is the default model")
    parser.add_argument("--default-model", default=None, help="model for requests that name none (default: en)")
    parser.add_argument("--allow-model-paths", action="store_true",
                        help="let requests name any model folder, not only shipped ones")
    parser.add_argument("--threads", type=int, default=0, help="torch threads per worker (default: cores / workers)")
    parser.add_argument("--drain-timeout", type=float, default=30.0,
                        help="on SIGTERM, seconds the jobs in flight get to finish before they answer 503 "
                             "(default 30)")
    parser.add_argument("--log-level", default="warning", help="uvicorn's log level (default warning)")
    args = parser.parse_args(argv)
    if args.workers < 1 or args.max_queue < 0 or args.max_bytes < 1 or args.timeout <= 0 or args.drain_timeout < 0:
        parser.error("--workers and --max-bytes must be at least 1, --max-queue at least 0, --timeout positive, "
                     "--drain-timeout not negative")
    try:
        import uvicorn

        from eud.server import ServerConfig, create_app
    except ImportError as err:
        print(f"eud serve: {err.name} is missing; install the server extra: pip install \"eud[server]\"",
              file=sys.stderr)
        return 1
    config = ServerConfig(workers=args.workers, max_queue=args.max_queue, max_bytes=args.max_bytes,
                          timeout=args.timeout, default_model=args.default_model or (args.model or ["en"])[0],
                          threads=args.threads, allow_paths=args.allow_model_paths, preload=args.model,
                          drain_timeout=args.drain_timeout)
    logging.basicConfig(format="eud serve: %(asctime)s %(message)s", level=logging.WARNING)
    print(f"eud serve: http://{args.host}:{args.port} ({args.workers} workers, queue {args.max_queue})",
          file=sys.stderr, flush=True)
    app = create_app(config)

    class Draining(uvicorn.Server):
        """uvicorn's server, which on SIGTERM or Ctrl+C first tells the app to drain its jobs."""

        def handle_exit(self, sig: int, frame: object) -> None:
            app.server.begin_drain()
            super().handle_exit(sig, frame)

    # uvicorn raises the signal again once it has stopped; with this handler that ends in exit code 0.
    signal.signal(signal.SIGTERM, lambda sig, frame: None)
    # The answers of the jobs that finish at the drain's end still need a moment to be written.
    settings = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level, timeout_keep_alive=30,
                              timeout_graceful_shutdown=args.drain_timeout + 5)
    try:
        Draining(settings).run()
    except KeyboardInterrupt:
        pass
    return 0
