"""Real Jupyter servers and a browser for the tests of this folder.

``jupyter_servers`` starts a ``jupyter lab`` and a ``jupyter notebook`` server
(each on a free port, token off, autosave off so that nothing is written back,
every cell in the DOM) serving one temporary folder; a test copies or writes
the notebooks it needs into that folder (``jupyter_servers.copy``) and opens
them at ``jupyter_servers.notebook_url(app, name)``; the apps are "JupyterLab"
and "Notebook 7".
``browser`` is Debian's Chromium driven by Playwright. Without Chromium the
tests are skipped loudly, except in CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
JUPYTER = Path(sys.executable).with_name("jupyter")
# JupyterLab settings for the test servers: every cell in the DOM (no windowing,
# so that cells near the end are rendered), never save the notebook, no news.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": '{"windowingMode": "none"}',
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": '{"autosave": false}',
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": '{"fetchNews": "false"}',
}
APPS = {"JupyterLab": ("lab", "lab/tree/"), "Notebook 7": ("notebook", "notebooks/")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, log: Path, timeout: float = 45) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped (exit {process.returncode}):\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "api/status", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"the server at {url} did not answer within {timeout} s:\n{log.read_text()[-2000:]}")


@dataclass
class Servers:
    root: Path  # the folder both servers serve
    tmp: Path  # for logs and screenshots
    bases: dict  # app name -> the server's address ("http://127.0.0.1:PORT/")

    def notebook_url(self, app: str, name: str, workspace: str = "") -> str:
        """The notebook's address; in JupyterLab, in a workspace of its own if one is named
        (so that no notebook that another test opened is restored beside it)."""
        if app == "JupyterLab" and workspace:
            return f"{self.bases[app]}lab/workspaces/{workspace}/tree/{name}"
        return self.bases[app] + APPS[app][1] + name

    def copy(self, notebook: Path) -> str:
        """Copy ``notebook`` into the served folder; return its name there."""
        shutil.copy(notebook, self.root / notebook.name)
        return notebook.name


def require_chromium() -> None:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is not installed (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(f"!!! LIVE JUPYTER TESTS NOT RUN: {message} !!!")


@pytest.fixture(scope="session")
def jupyter_servers(tmp_path_factory):
    require_chromium()
    tmp = tmp_path_factory.mktemp("jupyter")
    root = tmp / "root"
    root.mkdir()
    settings = tmp / "settings"
    for name, text in SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(text)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"))
    started, bases = [], {}
    try:
        for name, (app, _) in APPS.items():
            port = free_port()
            log = tmp / f"{app}.log"
            command = [str(JUPYTER), app, "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
                       "--ServerApp.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}",
                       "--ServerApp.open_browser=False"]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                command.append("--allow-root")
            with open(log, "w") as handle:
                process = subprocess.Popen(command, env=env, stdout=handle, stderr=subprocess.STDOUT)
            started.append((process, log))
            bases[name] = f"http://127.0.0.1:{port}/"
        for (process, log), base in zip(started, bases.values()):
            wait_until_up(base, process, log)
        yield Servers(root=root, tmp=tmp, bases=bases)
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="session")
def browser(jupyter_servers):
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()

