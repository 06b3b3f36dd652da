"""``eud serve`` as a real uvicorn server on loopback: UDPipe's API, eud's endpoints, limits and a worker crash."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import FIXTURES, REPO

from eud.commands.enhance import main as enhance_main
from eud.conllu import parse_conllu
from eud.evaluate import evaluate_files

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
pytest.importorskip("torch")
psutil = pytest.importorskip("psutil")

EN = REPO / "models" / "en_ewt"
if not (EN / "config.json").is_file():
    pytest.skip("models/en_ewt is not there", allow_module_level=True)

SENTENCES = ["John ate an apple and Mary a pear.", "The dog barked at the mailman.", "It rained all day, so we stayed in."]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running:
    """A ``python -m eud serve`` subprocess on a free loopback port."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, EUD_NO_PROGRESS="1")
        self.log = io.BytesIO()
        self.proc = subprocess.Popen([sys.executable, "-m", "eud", "serve", "--port", str(self.port), *options],
                                     cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=lambda: self.log.write(self.proc.stdout.read()), daemon=True).start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"eud serve exited: {self.log.getvalue().decode()}")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.3)
        raise RuntimeError("eud serve did not answer /health within 120 s")

    def stop(self) -> list:
        """Stop the server; return the worker processes still alive 10 s later (there should be none)."""
        workers = self.workers()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _, alive = psutil.wait_procs(workers, timeout=10)
        for process in alive:
            process.kill()
        return alive

    def workers(self) -> list:
        """The parse worker processes (children of the server that run Python)."""
        return [p for p in psutil.Process(self.proc.pid).children(recursive=True)
                if "resource_tracker" not in " ".join(p.cmdline())]


@pytest.fixture(scope="module")
def server():
    running = Running("--workers", "1", "--max-queue", "64", "--model", "en")
    yield running
    assert running.stop() == [], "the server left worker processes behind"


@pytest.fixture(scope="module")
def tight():
    """A server with small limits: 4 kB requests, no queue beyond the one running job."""
    running = Running("--workers", "1", "--max-queue", "0", "--max-bytes", "4096")
    yield running
    assert running.stop() == [], "the server left worker processes behind"


def post(server: Running, path: str, timeout: float = 120, **fields: str) -> httpx.Response:
    return httpx.post(server.url + path, data=fields, timeout=timeout)


def test_health_and_models(server):
    health = httpx.get(server.url + "/health").json()
    assert health["status"] == "ok" and health["workers"] == 1
    assert "en_ewt" in health["loaded"]  # --model en loads at start
    models = httpx.get(server.url + "/models").json()
    assert models["default_model"] == "en_ewt"
    assert models["models"]["en_ewt"] == ["tokenizer", "tagger", "parser"]


def test_process_raw_text_like_udpipe(server):
    answer = post(server, "/process", data=" ".join(SENTENCES), model="en", tokenizer="", tagger="", parser="")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == {"model", "acknowledgements", "result"} and body["model"] == "en_ewt"
    sentences = parse_conllu(body["result"])
    assert [s.text for s in sentences] == SENTENCES
    assert all(len(s.enhanced) >= len(s.words) for s in sentences)  # parsed: every word has a head
    assert sentences[1].word(2).upos == "NOUN" and sentences[1].word(3).deprel == "root"


def test_process_tokenizer_options_like_udpipe(server):
    data = "Hello  there. Still the same line\n\tA second line ,  with a tab ."

    def result(tokenizer: str) -> list:
        answer = post(server, "/process", data=data, tokenizer=tokenizer)
        assert answer.status_code == 200, answer.text
        return list(parse_conllu(answer.json()["result"]))

    # Default: the text's own sentence ends, its whitespace in MISC.
    plain = result("")
    assert [w.form for w in plain[0].words] == ["Hello", "there", "."]
    assert plain[0].word(1).misc == "SpacesAfter=\\s\\s"
    # presegmented: a sentence a line; ranges: each token's offsets in the data.
    lines = result("presegmented;ranges")
    assert [s.text for s in lines] == ["Hello there. Still the same line", "A second line , with a tab ."]
    for sentence in lines:
        for w in sentence.words:
            start, end = map(int, dict(a.split("=") for a in w.misc.split("|"))["TokenRange"].split(":"))
            assert data[start:end] == w.form
    assert "SpacesAfter=\\n\\t" in lines[0].words[-1].misc
    # normalized_spaces: only SpaceAfter=No is left.
    assert all("Spaces" not in w.misc for s in result("normalized_spaces") for w in s.words)
    refused = post(server, "/process", data=data, tokenizer="ranges;dont_know")
    assert refused.status_code == 400 and "'dont_know'" in refused.json()["error"]


def test_process_input_formats_and_get(server):
    horizontal = "The dog barked .\nIt was late ."
    vertical = "The\ndog\nbarked\n.\n\nIt\nwas\nlate\n.\n"
    results = []
    for fields in ({"input": "horizontal", "data": horizontal}, {"input": "vertical", "data": vertical}):
        answer = post(server, "/process", tagger="", parser="", **fields)
        assert answer.status_code == 200, answer.text
        results.append([[w.form for w in s.words] for s in parse_conllu(answer.json()["result"])])
    assert results[0] == results[1] == [["The", "dog", "barked", "."], ["It", "was", "late", "."]]
    # UDPipe clients also use GET with query parameters; without tagger/parser nothing is annotated
    answer = httpx.get(server.url + "/process", params={"data": horizontal, "input": "horizontal"}, timeout=60)
    sentence = parse_conllu(answer.json()["result"])[0]
    assert sentence.word(1).upos == "_" and sentence.word(1).head is None


def test_process_conllu_keeps_tokens_and_comments(server):
    text = (FIXTURES / "render_gapping.conllu").read_text(encoding="utf-8")
    answer = post(server, "/process", data=text, tagger="", parser="")
    out = parse_conllu(answer.json()["result"])[0]
    assert out.comments == ["# sent_id = gapping-1", "# text = John ate an apple and Mary a pear."]
    assert [w.form for w in out.words] == ["John", "ate", "an", "apple", "and", "Mary", "a", "pear", "."]
    assert out.word(8).misc == "SpaceAfter=No"


def test_conllu_with_crlf_line_ends_is_read_as_lf(server):
    """HTML forms send a textarea with CR LF line ends: /process and /render read such CoNLL-U as LF."""
    text = (FIXTURES / "render_gapping.conllu").read_text(encoding="utf-8")
    lf = post(server, "/process", data=text, tagger="", parser="")
    crlf = post(server, "/process", data=text.replace("\n", "\r\n"), tagger="", parser="")
    assert crlf.status_code == lf.status_code == 200, crlf.text
    assert crlf.json()["result"] == lf.json()["result"] and "\r" not in crlf.json()["result"]
    page = post(server, "/render", data=text.replace("\n", "\r\n"))
    assert page.status_code == 200 and page.text == post(server, "/render", data=text).text


def test_short_load_all_correct(server):
    """24 requests from 6 clients at once: every answer 200 with the right sentences, parsed."""
    def one(k: int) -> tuple[int, list[str]]:
        texts = SENTENCES[: 1 + k % 3]
        answer = post(server, "/process", data=" ".join(texts), tokenizer="", tagger="", parser="")
        if answer.status_code != 200:
            return answer.status_code, []
        sentences = parse_conllu(answer.json()["result"])
        assert all(w.head is not None for s in sentences for w in s.words)
        return 200, [s.text for s in sentences]

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(one, range(24)))
    assert [status for status, _ in results] == [200] * 24
    assert all(texts == SENTENCES[: 1 + k % 3] for k, (_, texts) in enumerate(results))


@pytest.mark.parametrize("fixture", ["enhance_coordination.conllu", "gapping_en.conllu", "enhance_control.conllu"])
def test_enhance_is_byte_identical_to_the_command(server, tmp_path, fixture):
    path = FIXTURES / fixture
    expected = tmp_path / "out.conllu"
    assert enhance_main([str(path), "--lang", "en", "-o", str(expected)]) == 0
    answer = post(server, "/enhance", data=path.read_text(encoding="utf-8"), lang="en")
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"].encode("utf-8") == expected.read_bytes()


def test_evaluate_matches_the_scorer(server):
    gold, system = FIXTURES / "eval_gold.conllu", FIXTURES / "eval_system.conllu"
    answer = post(server, "/evaluate", gold=gold.read_text(encoding="utf-8"), system=system.read_text(encoding="utf-8"))
    assert answer.status_code == 200, answer.text
    metrics = answer.json()["metrics"]
    expected = evaluate_files(gold, system)
    for name in ("LAS", "ELAS", "EULAS"):
        assert metrics[name]["f1"] == pytest.approx(expected[name].f1)


def test_render_page(server):
    data = (FIXTURES / "render_system.conllu").read_text(encoding="utf-8")
    gold = (FIXTURES / "render_gapping.conllu").read_text(encoding="utf-8")
    answer = post(server, "/render", data=data, gold=gold)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert answer.text.count("<svg") == 1 and answer.text.count('class="arc enhanced missing"') == 4


def test_bad_conllu_is_400_naming_line(server):
    bad = "1\tJohn\tJohn\tPROPN\t_\t_\t0\troot\t_\t_\n2\tate\teat\n\n"
    for path, fields in (("/process", {"tagger": ""}), ("/enhance", {"lang": "en"}), ("/render", {})):
        answer = post(server, path, data=bad, **fields)
        assert answer.status_code == 400
        body = answer.json()
        assert body["line"] == 2 and "data:2" in body["error"] and body["problem"]
    answer = post(server, "/enhance", data="", lang="xx_nowhere")
    assert answer.status_code == 400 and "xx_nowhere" in answer.json()["error"]
    assert post(server, "/process", model="nosuchmodel", data="x", input="horizontal").status_code == 400
    assert post(server, "/process", data="x", input="xml").status_code == 400
    assert post(server, "/process").json() == {"error": "missing field 'data'"}


def test_413_over_max_bytes(tight):
    big = "word " * 2000
    answer = post(tight, "/process", data=big, input="horizontal")
    assert answer.status_code == 413 and "4096" in answer.json()["error"]

    def chunks():  # no Content-Length: the server counts the streamed body
        for _ in range(10):
            yield b"data=" + b"x" * 1000

    answer = httpx.post(tight.url + "/process", content=chunks(), timeout=30,
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 413
    assert httpx.get(tight.url + "/health").status_code == 200


def test_503_past_the_queue(tight):
    """Capacity one job: of several concurrent parses some are refused at once with Retry-After, none fail."""
    text = " ".join(SENTENCES * 12)[:4000]

    def one(_: int) -> httpx.Response:
        return post(tight, "/process", data=text, tokenizer="", tagger="", parser="")

    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(one, range(5)))
    codes = sorted(a.status_code for a in answers)
    assert set(codes) <= {200, 503} and codes.count(200) >= 1 and codes.count(503) >= 1, codes
    refused = next(a for a in answers if a.status_code == 503)
    assert int(refused.headers["retry-after"]) >= 1 and "busy" in refused.json()["error"]


def test_worker_crash_does_not_stop_the_server(tight):
    assert post(tight, "/process", data="Warm up.", tokenizer="", tagger="", parser="").status_code == 200
    text = " ".join(SENTENCES * 12)[:4000]
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(post, tight, "/process", data=text, tokenizer="", tagger="", parser="")
        time.sleep(0.5)
        workers = tight.workers()
        assert workers, "no worker process found"
        for worker in workers:
            worker.kill()
        answer = pending.result()
    # The job is retried on the restarted worker (or had finished before the kill): never lost.
    assert answer.status_code == 200, answer.text
    assert len(parse_conllu(answer.json()["result"])) > 1
    # A worker killed while idle (the job may have finished first) is noticed and replaced a moment later.
    # While no worker is ready /health says so with a 503, which a load balancer acts on.
    deadline = time.monotonic() + 60
    while True:
        reply = httpx.get(tight.url + "/health")
        health = reply.json()
        assert reply.status_code == {"ok": 200, "degraded": 503}[health["status"]], health
        if health["restarts"] >= 1 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert health["restarts"] >= 1, health
    answer = post(tight, "/process", data=SENTENCES[0], tokenizer="", tagger="", parser="")
    assert answer.status_code == 200 and parse_conllu(answer.json()["result"])[0].text == SENTENCES[0]


def test_binds_loopback_by_default(server):
    listening = [c.laddr for c in psutil.Process(server.proc.pid).net_connections(kind="tcp")
                 if c.status == psutil.CONN_LISTEN]
    assert listening and all(addr.ip == "127.0.0.1" for addr in listening), listening
