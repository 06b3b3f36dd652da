"""A real headless Chromium driven over the DevTools protocol (tests and doc screenshots).

Starts Debian's ``chromium`` with a throw-away profile, opens a page, and
collects what the page logged: console errors, uncaught exceptions and
failed loads.  ``evaluate`` runs JavaScript in the page (to count SVG
elements), ``screenshot`` writes a PNG of the whole page; ``type``,
``press``, ``choose_files`` and ``viewport`` act as a user on a phone or a
desktop would, through DevTools' input events.

The websocket client sends no ``Origin`` header: Chromium refuses DevTools
connections that carry one it was not told to allow (``--remote-allow-origins``).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Self

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--remote-debugging-port=0"]


def chromium_path() -> str | None:
    """The chromium binary, or None when it is not installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium process with one page; use as a context manager."""

    def __init__(self, binary: str | None = None, timeout: float = 30.0) -> None:
        import websocket  # websocket-client

        self.binary = binary or chromium_path()
        if not self.binary:
            raise RuntimeError("chromium is not installed")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="eud-chromium-")
        self.proc = subprocess.Popen([self.binary, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            browser_ws = self._devtools_url()
            port = re.search(r":(\d+)/", browser_ws).group(1)
            self.ws = websocket.create_connection(self._page_ws(port), timeout=timeout, suppress_origin=True)
        except Exception:
            self.proc.kill()
            self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self._next = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log", "DOM"):
            self.call(f"{domain}.enable")

    def _devtools_url(self) -> str:
        deadline = time.monotonic() + self.timeout
        assert self.proc.stderr is not None
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited with code {self.proc.returncode} before listening")
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                return match.group(1)
        raise RuntimeError("chromium did not start its DevTools server in time")

    def _page_ws(self, port: str) -> str:
        import urllib.request

        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
                pages = [t for t in json.load(answer) if t.get("type") == "page"]
            if pages:
                return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.1)
        raise RuntimeError("chromium opened no page")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result, keeping the events that arrive meanwhile."""
        self._next += 1
        self.ws.send(json.dumps({"id": self._next, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str) -> dict[str, Any]:
        """Wait for an event (already received or still to come)."""
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            self.events.append(message)
            if message.get("method") == method:
                return message
        raise TimeoutError(method)

    def open(self, url: str) -> None:
        """Navigate to a URL (a path becomes a file:// URL) and wait until it has loaded."""
        if "://" not in url:
            url = Path(url).resolve().as_uri()
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and log errors (failed loads) since the last ``open``."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                found.append(params.get("exceptionDetails", {}).get("text", "exception"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(params["entry"].get("text", "error"))
        return found

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text"))
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float | None = None) -> Any:
        """Poll a JavaScript expression until it is truthy; its value (TimeoutError after ``timeout`` s)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"{expression} stayed false for {timeout or self.timeout} s")

    def type(self, selector: str, text: str) -> None:
        """Focus an element and type ``text`` into it as keyboard input."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        self.call("Input.insertText", text=text)

    def press(self, key: str = "Enter", modifiers: int = 0) -> None:
        """Press and release one key in the focused element (modifiers: 1 Alt, 2 Ctrl, 4 Meta, 8 Shift)."""
        codes = {"Enter": 13, "Tab": 9, "Escape": 27}
        text = "\r" if key == "Enter" else ""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, modifiers=modifiers,
                      windowsVirtualKeyCode=codes.get(key, 0), **({"text": text} if kind == "keyDown" and text else {}))

    def choose_files(self, selector: str, paths: list[str | os.PathLike]) -> None:
        """Set the files of an ``<input type=file>`` as if the user had picked them."""
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        self.call("DOM.setFileInputFiles", nodeId=node, files=[str(Path(p).resolve()) for p in paths])

    def viewport(self, width: int, height: int = 800, mobile: bool = False, scale: float = 1) -> None:
        """Emulate a screen of ``width`` x ``height`` CSS pixels (a phone with ``mobile``)."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale,
                  mobile=mobile)

    def screenshot(self, path: str | os.PathLike, width: int = 1200, selector: str | None = None) -> None:
        """Write a PNG of the whole page (or of one element) at ``width`` CSS pixels."""
        self.viewport(width)
        if selector:
            box = self.evaluate(f"(() => {{const r = document.querySelector({json.dumps(selector)})"
                                ".getBoundingClientRect(); return [r.x, r.y + window.scrollY, r.width, r.height];})()")
            clip = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
        else:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            # The content size is at least the viewport; the body's bottom is where the page really ends.
            bottom = self.evaluate("document.body.getBoundingClientRect().bottom + window.scrollY + 16")
            clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], bottom), "scale": 1}
        data = self.call("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        """Stop chromium and remove its profile."""
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
