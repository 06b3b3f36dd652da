"""``eud serve`` under faults, as a real server on loopback: a worker killed with SIGKILL, a poison input, SIGTERM.

The server runs the small Tamil character model (models/ta_ttb, the quickest to load) with two
workers.  The poison input uses the server's test-only hook: a worker that gets a job whose data
holds the text in ``EUD_TEST_FATAL_TEXT`` kills itself with SIGKILL, as the OOM killer would.
"""

from __future__ import annotations

import math
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import REPO

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
pytest.importorskip("torch")
psutil = pytest.importorskip("psutil")

from eud.conllu import parse_conllu
from eud.server import FATAL_TEXT_VARIABLE
from eud.server_pool import RECENT
from eval.server.soak import TAMIL, Served, soak

if not (REPO / "models" / "ta_ttb" / "config.json").is_file():
    pytest.skip("models/ta_ttb is not there", allow_module_level=True)

POISON = "விஷம்_சோதனை_7"  # the text that kills a worker (test-only hook)


def lines(n: int, shift: int = 0) -> list[str]:
    return [TAMIL[(i + shift) % len(TAMIL)] for i in range(n)]


def parse(served: Served, data: list[str], timeout: float = 300) -> httpx.Response:
    return httpx.post(served.url + "/process", timeout=timeout,
                      data={"data": "\n".join(data), "input": "horizontal", "tagger": "", "parser": ""})


def assert_parsed(answer: httpx.Response, sent: list[str]) -> None:
    assert answer.status_code == 200, answer.text
    sentences = parse_conllu(answer.json()["result"])
    assert [[w.form for w in s.words] for s in sentences] == [line.split() for line in sent]
    assert all(w.head is not None and w.deprel != "_" for s in sentences for w in s.words)


def wait_for(served: Served, condition, timeout: float = 60) -> dict:
    """Poll /health until ``condition(health)`` holds; the health that satisfied it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        health = served.health()
        if condition(health):
            return health
        time.sleep(0.05)
    raise AssertionError(f"/health never satisfied the condition: {served.health()}")


@pytest.fixture(scope="module")
def faulty():
    served = Served("--workers", "2", "--max-queue", "6", "--model", "ta_ttb", env={FATAL_TEXT_VARIABLE: POISON})
    yield served
    assert served.stop() == 0, served.text()


def test_health_reports_workers_queue_and_jobs(faulty):
    health = faulty.health()
    assert health["status"] == "ok" and health["workers"] == 2 and health["workers_alive"] == 2
    assert health["queued"] == 0 and health["running"] == 0 and health["in_flight"] == 0
    assert health["loaded"] == ["ta_ttb"] and health["model_load_s"] > 0
    pids = [w["pid"] for w in health["worker_info"]]
    assert len(set(pids)) == 2 and all(psutil.pid_exists(pid) for pid in pids)
    done = health["jobs_done"]
    assert_parsed(parse(faulty, lines(3)), lines(3))
    health = faulty.health()
    assert health["jobs_done"] == done + 1 and health["job_time_s"] > 0


def test_killed_worker_loses_no_request(faulty):
    """Six long jobs on two workers; one worker is killed while it runs one and others wait: all six answer 200."""
    before = faulty.health()
    texts = [lines(250 + 10 * k, shift=k) for k in range(6)]
    with ThreadPoolExecutor(6) as pool:
        pending = [pool.submit(parse, faulty, text) for text in texts]
        health = wait_for(faulty, lambda h: h["running"] == 2 and h["queued"] >= 2)
        victim = next(w["pid"] for w in health["worker_info"] if w["busy"])
        os.kill(victim, signal.SIGKILL)
        answers = [p.result() for p in pending]
    for answer, text in zip(answers, texts, strict=True):
        assert_parsed(answer, text)
    after = faulty.health()
    assert after["worker_deaths"] == before["worker_deaths"] + 1
    assert after["retried"] == before["retried"] + 1 and after["poison"] == before["poison"]
    assert f"(pid {victim}) died (signal 9) running job #" in faulty.text()
    assert faulty.wait_workers(timeout=180)
    assert victim not in faulty.worker_pids()
    assert "replaced: pid" in faulty.text()


def test_poison_input_answers_one_500_naming_it(faulty):
    """A job that kills its worker is retried once; when it kills the second too, it alone answers 500."""
    assert faulty.wait_workers(timeout=180)
    before = faulty.health()
    poison = [f"இது {POISON} ஆகும் ."]
    texts = [lines(120, shift=k) for k in range(3)]
    with ThreadPoolExecutor(4) as pool:
        bad = pool.submit(parse, faulty, poison)
        good = [pool.submit(parse, faulty, text) for text in texts]
        answer = bad.result()
        for pending, text in zip(good, texts, strict=True):
            assert_parsed(pending.result(), text)
    assert answer.status_code == 500, answer.text
    body = answer.json()
    assert body["job"].startswith("#") and body["job"] in body["error"] and "killed 2 parse workers" in body["error"]
    after = faulty.health()
    assert after["poison"] == before["poison"] + 1 and after["worker_deaths"] == before["worker_deaths"] + 2
    assert f"job {body['job']} fails (poison input)" in faulty.text()
    assert_parsed(parse(faulty, lines(2)), lines(2))  # the server goes on
    assert faulty.wait_workers(timeout=180)


def test_retry_after_follows_the_queue(faulty):
    """Retry-After is jobs in flight x recent job time / workers alive, so it grows with the queue."""
    assert faulty.wait_workers(timeout=180)
    idle = faulty.health()
    assert idle["in_flight"] == 0 and idle["retry_after_s"] == 1
    # The advice uses the mean time of the recent jobs.  Earlier tests' jobs can be so quick on a fast
    # CPU that 8 jobs in flight still round to the floor of 1 s, so first fill the window of recent
    # jobs with jobs the size of this test's.
    for k in range(RECENT):
        assert parse(faulty, lines(600, shift=50 + k)).status_code == 200
    texts = [lines(600, shift=k) for k in range(11)]
    with ThreadPoolExecutor(11) as pool:
        pending = [pool.submit(parse, faulty, text) for text in texts]
        loaded = wait_for(faulty, lambda h: h["in_flight"] == 8)  # 2 workers + queue 6: the rest refused
        answers = [p.result() for p in pending]
    expected = loaded["in_flight"] * loaded["job_time_s"] / loaded["workers_alive"]
    assert abs(loaded["retry_after_s"] - math.ceil(expected)) <= 1 and loaded["retry_after_s"] > 1
    refused = [a for a in answers if a.status_code == 503]
    assert len(refused) == 3 and all("busy" in a.json()["error"] for a in refused)
    assert all(int(a.headers["retry-after"]) >= 2 for a in refused), [a.headers["retry-after"] for a in refused]
    for answer, text in zip(answers, texts, strict=True):
        if answer.status_code != 503:
            assert_parsed(answer, text)
    assert faulty.health()["retry_after_s"] == 1


def test_sigterm_answers_every_request_and_exits_0():
    """SIGTERM with five jobs in flight on one worker: each gets an answer (200 or 503), the server exits 0."""
    served = Served("--workers", "1", "--max-queue", "8", "--model", "ta_ttb", "--drain-timeout", "1")
    workers = [psutil.Process(pid) for pid in served.worker_pids()]
    # Long enough that five cannot all finish within the 1 s drain, even on a fast CPU.
    texts = [lines(1200, shift=k) for k in range(5)]
    try:
        with ThreadPoolExecutor(5) as pool:
            pending = [pool.submit(parse, served, text) for text in texts]
            wait_for(served, lambda h: h["in_flight"] == 5)
            start = time.monotonic()
            served.proc.send_signal(signal.SIGTERM)
            answers = [p.result() for p in pending]  # a transport error here is a request dropped unanswered
        code = served.proc.wait(timeout=60)
        took = time.monotonic() - start
    finally:
        served.stop()
    assert code == 0, served.text()
    assert took < 1 + 10, took  # the drain's bound, and a moment to answer and stop the worker
    statuses = [a.status_code for a in answers]
    assert set(statuses) <= {200, 503} and 503 in statuses, statuses
    for answer, text in zip(answers, texts, strict=True):
        if answer.status_code == 200:
            assert_parsed(answer, text)
        else:
            assert "stop" in answer.json()["error"] and int(answer.headers["retry-after"]) >= 1
    assert "stopping: no new jobs; 5 in flight get up to 1 s" in served.text()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == []


def test_sigterm_finishes_the_jobs_in_flight_within_the_drain():
    """With time enough to drain, every job in flight at SIGTERM answers 200, no new one is taken, exit 0."""
    served = Served("--workers", "1", "--max-queue", "8", "--model", "ta_ttb", "--drain-timeout", "120")
    texts = [lines(300, shift=k) for k in range(3)]
    try:
        with ThreadPoolExecutor(3) as pool:
            pending = [pool.submit(parse, served, text) for text in texts]
            wait_for(served, lambda h: h["in_flight"] == 3)
            served.proc.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            try:  # a new request is not taken: refused at the socket, or answered 503
                late = httpx.get(served.url + "/health", timeout=10).status_code
            except httpx.TransportError:
                late = None
            answers = [p.result() for p in pending]
        code = served.proc.wait(timeout=120)
    finally:
        served.stop()
    assert late in (None, 503), late
    for answer, text in zip(answers, texts, strict=True):
        assert_parsed(answer, text)
    assert code == 0, served.text()


def test_soak_quick_with_a_killed_worker():
    """The CI version of ``python -m eval.server.soak``: 4 clients x 5 requests, 2 workers, one killed."""
    figures = soak(clients=4, requests=5, workers=2, model="ta_ttb", log=False)
    assert figures["ok"] == 20 and figures["failed"] == 0, figures["failures"]
    assert figures["over_limit_status"] == 413 and figures["malformed_status"] == 400
    assert figures["server_counts"]["worker_deaths"] == 1 and figures["server_counts"]["jobs_done"] == 20
    assert figures["latency_p99_under_kill_s"] <= figures["model_load_s"] + 2
    assert figures["server_exit_code"] == 0
