"""A pool of worker processes that loses no job when a worker dies: the parse workers behind ``eud serve``.

``concurrent.futures.ProcessPoolExecutor`` marks the whole pool broken when
one worker dies (SIGKILL, the OOM killer) and fails every job queued on it.
A parse has no side effects, so nothing forces that loss; this pool keeps one
shared queue and one thread per worker process instead:

* jobs wait in the pool's queue, never inside a worker, so a dead worker holds
  at most the one job it was running;
* that job goes back to the head of the queue and runs on another worker
  (a live one, or the dead one's replacement); if it kills that worker too it
  fails with :class:`WorkerDied`, naming the job, so that a poison input
  cannot kill workers in a loop;
* the dead worker is replaced by a fresh process, which runs ``init`` (loads
  the models) before it takes a job, so the live workers carry the queue
  meanwhile;
* every death, requeue, retry and give-up is logged.

Workers are spawned (torch never meets a fork) and exit when the process that
started them is gone.  Job timing is kept so that callers can estimate the
wait of a new job (:meth:`WorkerPool.wait_estimate`).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("eud.server")

RECENT = 32  # jobs whose time makes the estimate of the next one
MAX_DEATHS = 2  # a job that has killed this many workers fails


class WorkerDied(Exception):
    """A job failed because it killed the workers that ran it (twice: a poison input); ``job`` names it."""

    def __init__(self, message: str, job: str) -> None:
        super().__init__(message)
        self.job = job


class PoolStopped(Exception):
    """A job could not run because the pool was stopped (the server is shutting down)."""


@dataclass
class Job:
    """One call of the pool's function: its arguments, its future and how many workers died running it."""

    number: int
    args: tuple
    label: str
    future: Future = field(default_factory=Future)
    deaths: int = 0
    taken: bool = False  # a worker has taken it once (its future is running)


def _watch_parent(parent: int) -> None:
    """In a worker: exit when the process that started it is gone (a killed server must not leave workers)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="eud-watch-parent").start()


def _worker_main(conn: Any, parent: int, run: Callable, init: Callable | None, init_args: tuple) -> None:
    """A worker process: ``init`` once, then run jobs from ``conn`` until it closes or sends ``None``.

    Messages to the pool: ``("ready", info)``, ``("start", number)`` when a job begins, ``("done",
    number, result, seconds)`` or ``("error", number, exception, seconds)``.
    """
    _watch_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    info = init(*init_args) if init is not None else {}
    conn.send(("ready", info))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        number, args = message
        conn.send(("start", number))
        start = time.perf_counter()
        try:
            result = run(*args)
        except Exception as err:  # noqa: BLE001  (sent back to the caller's future)
            conn.send(("error", number, err, time.perf_counter() - start))
        else:
            conn.send(("done", number, result, time.perf_counter() - start))


class _Worker:
    """One worker slot: a process (replaced when it dies) and the thread that feeds it jobs."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: Any = None
        self.conn: Any = None
        self.ready = False
        self.busy: Job | None = None
        self.info: dict = {}
        self.replaced = False  # is the process a replacement for a dead one?
        self.thread = threading.Thread(target=self.loop, daemon=True, name=f"eud-worker-{index}")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def spawn(self) -> bool:
        """Start a fresh process and wait for its ``ready``; False if it died first or the pool stopped."""
        pool = self.pool
        ours, theirs = pool.context.Pipe()
        process = pool.context.Process(target=_worker_main, daemon=True, name=f"eud-worker-{self.index}",
                                       args=(theirs, os.getpid(), pool.run, pool.init, pool.init_args))
        process.start()
        theirs.close()  # so that our end reads EOF when the process dies
        self.replaced = self.process is not None
        self.process, self.conn, self.ready = process, ours, False
        started = time.perf_counter()
        while not pool.stopping:
            if ours.poll(0.2):
                try:
                    _, info = ours.recv()
                except (EOFError, OSError):
                    break
                self.info = dict(info or {}, start_s=round(time.perf_counter() - started, 2))
                self.ready = True
                if self.replaced:
                    log.warning("worker %d replaced: pid %s ready in %.1f s", self.index, process.pid,
                                self.info["start_s"])
                pool.worker_ready(self)
                return True
            if not process.is_alive():
                break
        if not pool.stopping:
            process.join(1)
            log.warning("worker %d (pid %s) died while starting (exit code %s)", self.index, process.pid,
                        process.exitcode)
        return False

    def loop(self) -> None:
        """Keep a live process in this slot and feed it jobs until the pool stops."""
        pool = self.pool
        failures = 0
        while not pool.stopping:
            if not self.alive() or not self.ready:
                if self.process is not None:
                    if self.ready:  # it died between jobs
                        self.ready = False
                        pool.count("deaths")
                        log.warning("worker %d (pid %s) died while idle (%s); restarting it", self.index,
                                    self.process.pid, self.exit_status())
                    self.conn.close()
                    pool.count("restarts")
                if not self.spawn():
                    failures += 1
                    time.sleep(min(5.0, 0.5 * failures))
                    continue
                failures = 0
            job = pool.take(self)
            if job is None:
                continue
            self.run(job)
        self.shutdown()

    def run(self, job: Job) -> None:
        """Run one job on this slot's process; on the process's death, hand the job back to the pool."""
        pool = self.pool
        self.busy = job
        started = False
        try:
            self.conn.send((job.number, job.args))
            while True:
                kind, *rest = self.conn.recv()
                if kind == "start":
                    started = True
                    continue
                _, value, seconds = rest
                pool.finished(self, job, kind, value, seconds)
                return
        except (EOFError, OSError):
            how = self.exit_status()
            self.ready = False
            pool.count("deaths")
            if pool.stopping:
                pool.fail(job, PoolStopped("the server is stopping"))
            elif not started:  # it died before it read the job: the job did nothing wrong
                log.warning("worker %d (pid %s) died (%s) before starting job %s; requeued", self.index,
                            self.process.pid, how, job.label)
                pool.requeue(job, front=True)
            else:
                pool.died(self, job, how)
        finally:
            self.busy = None

    def exit_status(self) -> str:
        """How this slot's (dead) process ended: ``signal 9``, ``exit code 1``."""
        self.process.join(1)
        code = self.process.exitcode
        return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"

    def shutdown(self) -> None:
        """End this slot's process (asked politely, then terminated)."""
        if self.process is None:
            return
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(0.5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
        self.conn.close()


class WorkerPool:
    """``workers`` processes that run ``run(*args)`` for each submitted job; see the module docstring.

    ``init(*init_args)`` runs once in each process before it takes jobs and returns a dict of facts
    about it (e.g. the models it loaded and how long that took), shown by :meth:`stats`.
    ``run``, ``init`` and the arguments must pickle (module-level functions).
    """

    def __init__(self, workers: int, run: Callable, *, init: Callable | None = None, init_args: tuple = ()) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.run, self.init, self.init_args = run, init, init_args
        self.queue: collections.deque[Job] = collections.deque()
        self.cond = threading.Condition()
        self.stopping = False
        self.numbers = 0
        self.counts = collections.Counter()
        self.times: collections.deque[float] = collections.deque(maxlen=RECENT)
        self.workers = [_Worker(self, i) for i in range(workers)]
        self.ready_event = threading.Event()
        self.lock = threading.Lock()

    # -- the caller's side ------------------------------------------------------

    def start(self) -> None:
        """Start the worker processes (they get ready in the background; see :meth:`wait_ready`)."""
        for worker in self.workers:
            worker.thread.start()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until every worker has run ``init`` once (False on timeout)."""
        return self.ready_event.wait(timeout)

    def submit(self, *args: Any, label: str = "") -> Future:
        """Queue a job; its future gets ``run(*args)``'s result or exception, or :class:`WorkerDied`."""
        with self.cond:
            if self.stopping:
                raise PoolStopped("the server is stopping")
            self.numbers += 1
            job = Job(self.numbers, args, f"#{self.numbers} {label}".strip())
            self.queue.append(job)
            self.cond.notify()
        return job.future

    def fail_all(self, error: Exception) -> int:
        """Fail every queued and running job with ``error`` (a drain that ran out of time); how many."""
        with self.cond:
            jobs = list(self.queue) + [w.busy for w in self.workers if w.busy is not None]
            self.queue.clear()
        failed = 0
        for job in jobs:
            failed += self.fail(job, error)
        return failed

    def stop(self) -> None:
        """Stop taking jobs, fail the queued ones with :class:`PoolStopped` and end the processes."""
        with self.cond:
            self.stopping = True
            queued = list(self.queue)
            self.queue.clear()
            self.cond.notify_all()
        for job in queued:
            self.fail(job, PoolStopped("the server is stopping"))
        for worker in self.workers:
            worker.thread.join(2)
        for worker in self.workers:  # still running a job: end the process, its job fails with PoolStopped
            if worker.thread.is_alive() and worker.process is not None:
                worker.process.terminate()
            worker.thread.join(10)

    def queued(self) -> int:
        return len(self.queue)

    def running(self) -> int:
        return sum(w.busy is not None for w in self.workers)

    def alive(self) -> int:
        """Workers whose process is alive and ready for jobs."""
        return sum(w.ready and w.alive() for w in self.workers)

    def job_time(self) -> float | None:
        """The mean time of the recent jobs, in seconds (None before the first)."""
        with self.lock:
            return sum(self.times) / len(self.times) if self.times else None

    def wait_estimate(self, extra: int = 0, default_job_time: float = 1.0) -> float:
        """Seconds until the queue (plus ``extra`` more jobs) has drained, at the recent job time."""
        mean = self.job_time() or default_job_time
        jobs = self.queued() + self.running() + extra
        return jobs * mean / max(1, self.alive())

    def stats(self) -> dict:
        """The pool's state for ``/health``: workers alive, queue, jobs done and the events counted."""
        mean = self.job_time()
        return {"workers_alive": self.alive(), "queued": self.queued(), "running": self.running(),
                "jobs_done": self.counts["done"], "jobs_failed": self.counts["failed"],
                "worker_deaths": self.counts["deaths"], "restarts": self.counts["restarts"],
                "requeued": self.counts["requeued"], "retried": self.counts["retried"],
                "poison": self.counts["poison"],
                "job_time_s": round(mean, 3) if mean is not None else None,
                "worker_info": [{"pid": w.pid, "ready": w.ready and w.alive(), "busy": w.busy is not None,
                                 **w.info} for w in self.workers]}

    # -- the workers' side ------------------------------------------------------

    def count(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def take(self, worker: _Worker) -> Job | None:
        """The next job for a worker (None after a short wait, so the worker can check its process)."""
        with self.cond:
            while not self.queue and not self.stopping:
                if not self.cond.wait(0.5) or not worker.alive():
                    return None
            if self.stopping:
                return None
            while self.queue:
                job = self.queue.popleft()
                if job.future.done():
                    continue  # failed while it waited (a drain that ran out of time)
                if job.taken or job.future.set_running_or_notify_cancel():
                    job.taken = True
                    return job  # a requeued job is already running; a cancelled one (timed out) is dropped
            return None

    def worker_ready(self, worker: _Worker) -> None:
        if all(w.ready for w in self.workers):
            self.ready_event.set()
        if worker.info.get("errors"):
            log.warning("worker %d (pid %s): %s", worker.index, worker.pid, "; ".join(worker.info["errors"]))

    def requeue(self, job: Job, *, front: bool) -> None:
        with self.cond:
            if front:
                self.queue.appendleft(job)
            else:
                self.queue.append(job)
            self.cond.notify()
        self.count("requeued")

    def died(self, worker: _Worker, job: Job, how: str) -> None:
        """The worker's process died running ``job``: retry it once elsewhere, then give up on it."""
        job.deaths += 1
        if job.deaths >= MAX_DEATHS:
            self.count("poison")
            log.error("worker %d (pid %s) died (%s) running job %s, which had already killed a worker; "
                      "job %s fails (poison input)", worker.index, worker.pid, how, job.label, job.label)
            self.fail(job, WorkerDied(f"job {job.label} killed {job.deaths} parse workers; it is not retried "
                                      "again (an input that crashes the parser)", job.label))
        else:
            self.count("retried")
            log.warning("worker %d (pid %s) died (%s) running job %s; the job is retried on another worker, "
                        "the worker restarted", worker.index, worker.pid, how, job.label)
            self.requeue(job, front=True)

    def finished(self, worker: _Worker, job: Job, kind: str, value: Any, seconds: float) -> None:
        if kind == "done":
            with self.lock:
                self.times.append(seconds)
                self.counts["done"] += 1
            with contextlib.suppress(InvalidStateError):  # already failed by a drain that ran out of time
                job.future.set_result(value)
        else:
            self.count("failed")
            self.fail(job, value)

    def fail(self, job: Job, error: Exception) -> bool:
        """Set a job's exception unless it already has an outcome; whether it was set."""
        if job.future.done():
            return False
        if not job.future.running() and not job.future.set_running_or_notify_cancel():
            return False  # cancelled while queued
        try:
            job.future.set_exception(error)
        except InvalidStateError:  # set concurrently by another thread
            return False
        return True
