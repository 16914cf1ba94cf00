"""Driving the workbench in a real browser: JupyterLab on a loopback port, Debian Chromium
through Playwright.  Used by the browser tests (``tests/browser``) and ``make bench``.

Recipe and pitfalls: ``../shared/notes/jupyter-stack.md`` (never ``playwright install``;
``/usr/bin/chromium`` with the flags below; the lab's news toast switched off by a settings
file; kernels deleted and the server killed at the end).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterLab:
    """``with JupyterLab(root, workdir) as url:`` a headless lab serving ``root``; killed on exit."""

    def __init__(self, root: Path, workdir: Path) -> None:
        self.root, self.w = Path(root), Path(workdir)
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def __enter__(self) -> str:
        w = self.w
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(w / "config"), JUPYTER_RUNTIME_DIR=str(w / "runtime"),
                   JUPYTERLAB_SETTINGS_DIR=str(w / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(w / "workspaces"),
                   BOKEH_RESOURCES="inline")
        settings = w / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True, exist_ok=True)
        (settings / "notification.jupyterlab-settings").write_text(
            '{"fetchNews": "false", "checkForUpdates": false}')
        port = free_port()
        self.log = open(w / "lab.log", "w")  # noqa: SIM115 - closed in __exit__
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
             f"--port={port}", f"--ServerApp.root_dir={self.root}", "--IdentityProvider.token=",
             "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=None",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=self.root, start_new_session=True)
        self.url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):
                try:
                    if urllib.request.urlopen(f"{self.url}/api/status", timeout=2).status == 200:
                        return self.url
                except OSError:
                    time.sleep(0.25)
                if self.proc.poll() is not None:
                    raise RuntimeError(f"JupyterLab exited: {(w / 'lab.log').read_text()[-2000:]}")
            raise RuntimeError("JupyterLab did not start in 60 s")
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc: Any) -> None:
        if self.proc is None:
            return
        try:
            kernels = json.load(urllib.request.urlopen(f"{self.url}/api/kernels", timeout=5))
            for k in kernels:
                req = urllib.request.Request(f"{self.url}/api/kernels/{k['id']}", method="DELETE")
                urllib.request.urlopen(req, timeout=10)
        except OSError:
            pass
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.log.close()
        self.proc = None


def launch_chromium(pw: Any) -> Any:
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


KERNEL_IDLE = ("() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
               " return w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel"
               " && w.sessionContext.session.kernel.status === 'idle'; }")

RUN_IN_KERNEL = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const f = k.requestExecute({code: code, store_history: false, silent: false});
  let out = '';
  f.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'stream') out += msg.content.text;
    if (t === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await f.done;
  return out;
}"""


class LabNotebook:
    """The opened, executed start notebook, with helpers the tests share."""

    def __init__(self, page, shots: Path) -> None:
        self.page = page
        self.shots = shots

    def kernel(self, code: str) -> str:
        """Run code in the notebook's kernel (where ``bench`` and ``state`` live); return its output."""
        out = self.page.evaluate(RUN_IN_KERNEL, code)
        if out.startswith("ERROR") or "\nERROR " in out:
            raise AssertionError(out)
        return out.strip()

    def kjson(self, expr: str):
        return json.loads(self.kernel(f"import json as _j; print(_j.dumps({expr}))"))

    def map_canvas(self):
        cv = self.page.locator(".wb-map canvas").first
        cv.scroll_into_view_if_needed()
        return cv

    def hex_point(self, label: str) -> tuple[float, float]:
        """Page coordinates of a hex centre: from the figure's ranges and frame (asked of the kernel)
        and the canvas box in the page."""
        g = self.kjson(
            f"dict(xy=bench.map.xy({label!r}), x0=bench.map.fig.x_range.start, x1=bench.map.fig.x_range.end,"
            " y0=bench.map.fig.y_range.start, y1=bench.map.fig.y_range.end,"
            " fw=bench.map.fig.frame_width, fh=bench.map.fig.frame_height, b=bench.map.fig.min_border)")
        box = self.map_canvas().bounding_box()
        left = box["x"] + (box["width"] - g["fw"]) / 2
        bottom = box["y"] + box["height"] - g["b"]
        x, y = g["xy"]
        return (left + (x - g["x0"]) / (g["x1"] - g["x0"]) * g["fw"],
                bottom - (y - g["y0"]) / (g["y1"] - g["y0"]) * g["fh"])

    def click_hex(self, label: str) -> None:
        x, y = self.hex_point(label)
        self.page.mouse.click(x, y)

    def message(self) -> str:
        return self.page.locator(".wb-message").inner_text()

    def wait_message(self, text: str, timeout: float = 15_000) -> str:
        try:
            self.page.locator(".wb-message", has_text=text).wait_for(timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - say what the workbench said instead
            raise AssertionError(f"waited for {text!r}; the message line says {self.message()!r}") from exc
        return self.message()

    def wait_fitted(self, height: int | None = None, timeout: float = 30.0) -> dict:
        """Wait until the page has told the kernel its size (``bench.viewport``; ``height``: this
        window height) and the map canvas has the frame the kernel then chose, so clicks
        computed from the kernel's geometry land where the page draws."""
        t0 = time.perf_counter()
        got: dict = {}
        while time.perf_counter() - t0 < timeout:
            got = self.kjson("dict(viewport=bench.viewport, frame=[bench.map.fig.frame_width, "
                             "bench.map.fig.frame_height], border=bench.map.fig.min_border)")
            if got["viewport"] and (height is None or got["viewport"][1] == height):
                box = self.page.locator(".wb-map canvas").first.bounding_box()
                if box and abs(box["width"] - got["frame"][0] - 2 * got["border"]) <= 2:
                    self.page.wait_for_timeout(300)
                    return got
            self.page.wait_for_timeout(250)
        raise AssertionError(f"the map was not fitted to the window: {got}")

    def scroll_to_top(self, selector: str, margin: float = 8) -> dict:
        """Scroll the notebook so the first ``selector`` element starts ``margin`` px under the
        notebook's top edge; return its box.  (JupyterLab's windowed notebook measures cells
        lazily, so one scroll can land short: repeat until it holds still.)"""
        box = None
        for _ in range(6):
            box = self.page.locator(selector).first.bounding_box()
            top = self.page.evaluate("() => document.querySelector('.jp-WindowedPanel-outer')"
                                     ".getBoundingClientRect().top")
            delta = box["y"] - top - margin
            if abs(delta) < 2:
                break
            self.page.evaluate("(d) => { document.querySelector('.jp-WindowedPanel-outer').scrollTop += d; }", delta)
            self.page.wait_for_timeout(400)
        return self.page.locator(selector).first.bounding_box() or box

    def screenshot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.page.locator(".wb-workbench").first.screenshot(path=str(path))
        return path



def open_notebook(page: Any, url: str, name: str, *, run_all: bool = True, done_text: str | None = None,
                  timeout: float = 180_000) -> LabNotebook:
    """Open ``name`` in the lab, wait for its kernel, optionally run all cells and wait for ``done_text``."""
    page.goto(f"{url}/lab/tree/{name}?reset")
    page.wait_for_function(KERNEL_IDLE, timeout=90_000)
    if run_all:
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        if done_text:
            page.locator(".jp-OutputArea-output", has_text=done_text).wait_for(timeout=timeout)
    return LabNotebook(page, Path("."))


@contextmanager
def scenario_notebook(browser: Any, url: str, root: Path, name: str, scenario: str, *,
                      viewport: tuple[int, int] = (1500, 1200)) -> Iterator[LabNotebook]:
    """A workbench notebook on ``scenario`` written into the lab ``root``, opened in a fresh
    browser context, run to its end and with the map fitted to the window; closed afterwards."""
    from workbench.ui.notebook import DONE_MARK, write

    write(root / name, scenario=scenario)
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    nb = open_notebook(ctx.new_page(), url, name, done_text=DONE_MARK)
    nb.page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
    nb.wait_fitted()
    try:
        yield nb
    finally:
        ctx.close()
