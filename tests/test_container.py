"""The container image: build it with podman, run it, call /health and /process (``-m container``; minutes)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.container
httpx = pytest.importorskip("httpx")

IMAGE = "localhost/eud-test"


def podman(*args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    return subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def container():
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed (apt-get install -y podman buildah runc; see docker/README.md)")
    base = os.environ.get("EUD_CONTAINER_BASE") or (
        "localhost/pybase" if podman("image", "exists", "localhost/pybase").returncode == 0 else "python:3.11-slim")
    build = ["build", "--build-arg", f"BASE={base}", "-t", IMAGE, "-f", "docker/Dockerfile"]
    if Path("/opt/wheels").is_dir():  # a local torch CPU wheel instead of PyTorch's index
        build += ["-v", "/opt/wheels:/wheels:ro"]
    if Path("/etc/ssl/certs/ca-certificates.crt").is_file():
        build += ["-v", "/etc/ssl/certs/ca-certificates.crt:/host-ca.crt:ro", "--build-arg", "PIP_CERT=/host-ca.crt"]
    start = time.monotonic()
    result = subprocess.run(["podman", *build, "."], cwd=REPO, capture_output=True, text=True, timeout=3600, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    print(f"image built in {time.monotonic() - start:.0f} s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = podman("run", "-d", "--rm", "-p", f"127.0.0.1:{port}:8080", IMAGE)
    assert run.returncode == 0, run.stderr
    cid = run.stdout.strip()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, podman("logs", cid).stderr[-2000:]
            time.sleep(1)
        yield url
    finally:
        podman("stop", "-t", "5", cid)


def test_health(container):
    health = httpx.get(container + "/health").json()
    assert health["status"] == "ok" and health["workers"] == 1


def test_process_parses_raw_text(container):
    answer = httpx.post(container + "/process", timeout=300, data={
        "data": "John ate an apple and Mary a pear.", "model": "en", "tokenizer": "", "tagger": "", "parser": ""})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["model"] == "en_ewt"
    lines = [line for line in body["result"].splitlines() if line and not line.startswith("#")]
    assert [line.split("\t")[1] for line in lines if "." not in line.split("\t")[0]] == \
        ["John", "ate", "an", "apple", "and", "Mary", "a", "pear", "."]
    assert all(line.split("\t")[6] != "_" for line in lines if "." not in line.split("\t")[0])
