"""Open a page in real headless Chromium over the DevTools protocol (``--remote-debugging-pipe``)
and record what a person would notice: uncaught exceptions, console errors, failed or
outgoing network requests, and a full-page screenshot.

The pipe is Chromium's own: it reads JSON commands from fd 3 and writes replies and
events to fd 4, each message ending with a NUL byte.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageVisit:
    screenshot: bytes = b""
    errors: list[str] = field(default_factory=list)  # exceptions, console errors, log errors
    requests: list[str] = field(default_factory=list)  # every URL the page asked for
    failed: list[str] = field(default_factory=list)
    evaluated: object = None


class _Pipe:
    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self.next_id = 0
        self.events: list[dict] = []
        self.inbox: queue.Queue = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.inbox.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                self.inbox.put(json.loads(message))

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.write_fd, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._get(deadline, method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, event: str, timeout: float = 30.0) -> dict:
        for seen in self.events:
            if seen.get("method") == event:
                return seen
        deadline = time.monotonic() + timeout
        while True:
            msg = self._get(deadline, event)
            self.events.append(msg)
            if msg.get("method") == event:
                return msg

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                msg = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            if msg is None:
                return
            self.events.append(msg)

    def _get(self, deadline: float, what: str) -> dict:
        try:
            msg = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError(f"Chromium did not answer {what} in time") from None
        if msg is None:
            raise RuntimeError(f"Chromium closed the pipe while waiting for {what}")
        return msg


def visit(page: Path, width: int = 1280, evaluate: str = "", browser: str | None = None,
          timeout: float = 60.0) -> PageVisit:
    """Load ``page`` (a local file), screenshot it whole, and report what went wrong."""
    browser = browser or find_browser()
    if browser is None:
        raise FileNotFoundError("no Chromium on PATH (tools/setup-system.sh installs it)")
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()

    def wire_fds() -> None:  # runs in the child: Chromium expects fds 3 and 4
        high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4
        high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.dup2(high_r, 3)  # dup2 targets are inheritable across exec
        os.dup2(high_w, 4)

    with tempfile.TemporaryDirectory(prefix="cudaport-chromium-") as profile:
        args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--hide-scrollbars",
                f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, preexec_fn=wire_fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        pipe = _Pipe(to_chrome_w, from_chrome_r)
        try:
            return _drive(pipe, page, width, evaluate, timeout)
        finally:
            try:
                pipe.call("Browser.close", timeout=5)
            except Exception:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            os.close(to_chrome_w)
            os.close(from_chrome_r)


def _drive(pipe: _Pipe, page: Path, width: int, evaluate: str, timeout: float) -> PageVisit:
    target = pipe.call("Target.createTarget", {"url": "about:blank"}, timeout=timeout)
    session = pipe.call("Target.attachToTarget",
                        {"targetId": target["targetId"], "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        pipe.call(f"{domain}.enable", session=session)
    pipe.call("Emulation.setDeviceMetricsOverride",
              {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False},
              session=session)
    pipe.events.clear()
    pipe.call("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
    pipe.wait_for("Page.loadEventFired", timeout=timeout)
    pipe.drain(0.5)  # late console messages and timers
    result = PageVisit()
    if evaluate:
        value = pipe.call("Runtime.evaluate", {"expression": evaluate, "returnByValue": True},
                          session=session)
        result.evaluated = value.get("result", {}).get("value")
    metrics = pipe.call("Page.getLayoutMetrics", session=session)
    height = int(metrics.get("cssContentSize", metrics.get("contentSize", {})).get("height", 800))
    pipe.call("Emulation.setDeviceMetricsOverride",
              {"width": width, "height": max(200, min(height, 12000)), "deviceScaleFactor": 1,
               "mobile": False}, session=session)
    shot = pipe.call("Page.captureScreenshot", {"format": "png"}, session=session)
    result.screenshot = base64.b64decode(shot["data"])
    for event in pipe.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            result.errors.append(f"uncaught exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            result.errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            result.errors.append(f"log error: {entry.get('text')} {entry.get('url', '')}".strip())
        elif method == "Network.requestWillBeSent":
            result.requests.append(params.get("request", {}).get("url", ""))
        elif method == "Network.loadingFailed":
            result.failed.append(params.get("errorText", ""))
    return result
