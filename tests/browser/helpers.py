"""Start Streamlit apps, drive Chromium, wait for reruns, find the ranking board.

One module for every browser test (and for ad-hoc scripts such as screenshot or
timing runs): ``python -c "from tests.browser.helpers import ..."`` works from
the repo root.

Waiting (tests/browser/waiting.py) follows the app's script runs from its websocket
messages: ``wait_for_app_run`` after an action, ``expect_app_run`` around one that asks
for its run late, ``assert_stays`` where nothing more may happen, ``wait_until`` for a
condition; never a fixed sleep. Drags and swipes (tests/browser/gestures.py) move like
a hand and wait for the board. Both are imported here, so every name comes from this module.

The ranking board is a Components v2 component with ``isolate_styles=True``:
it renders in the main document (no iframe) inside an open shadow root under
``[data-testid="stBidiComponentIsolated"]``. Playwright CSS locators pierce
open shadow roots, so ``page.locator(".rb-card")`` just works.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, Playwright

from tests.browser.chromium_features import disable_features_args
from tests.browser.gestures import (  # noqa: F401  (this module is the one to import from)
    CARD_PLACE_JS,
    drag_card,
    finger_on,
    hold_card_over,
    swipe,
    touch_drag,
)
from tests.browser.waiting import (  # noqa: F401
    APP_IDLE,
    ASSETS_LOADED,
    INITIAL_WAIT_MS,
    NET_SETTLED,
    NET_SPY,
    NEXT_CHANGE_JS,
    TIMEOUT_MS,
    animation_frames,
    app_runs,
    assert_stays,
    expect_app_run,
    wait_for_app_idle,
    wait_for_app_loaded,
    wait_for_app_run,
    wait_for_assets,
    wait_until,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
APPS_DIR = Path(__file__).resolve().parent / "apps"
CHROMIUM = os.environ.get("IRLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


# --------------------------------------------------------------------------- server


def free_port() -> int:
    """An unused TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RunningApp:
    """A started ``streamlit run``; ``url`` is its base address."""

    url: str
    port: int
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


def _healthy(port: int, path: str = "/_stcore/health") -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1) as r:
            return r.read().decode().strip() == "ok"
    except OSError:
        return False


@contextlib.contextmanager
def streamlit_app(
    app: str | Path,
    *,
    theme: str | None = None,
    extra_args: Sequence[str] = (),
    timeout_s: float = 60.0,
    root: Path = REPO_ROOT,
) -> Iterator[RunningApp]:
    """Run ``streamlit run <app>`` on a free port until the block ends.

    ``app`` is a path (absolute, or relative to ``root``, or a file name in
    tests/browser/apps/). cwd and PYTHONPATH are ``root``: the repo, or another checkout of
    it (benchmarks/ab_interaction.py). ``theme`` ("light"/"dark") sets ``--theme.base``.
    """
    root = Path(root).resolve()
    path = Path(app)
    if not path.is_absolute():
        path = root / path if (root / path).exists() else APPS_DIR / path
    if not path.exists():
        raise FileNotFoundError(path)
    port = free_port()
    args = [
        sys.executable, "-m", "streamlit", "run", str(path),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--global.developmentMode", "false",
    ]
    if theme:
        args += ["--theme.base", theme]
    args += list(extra_args)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    with serve(args, port, cwd=root, env=env, timeout_s=timeout_s) as running:
        yield running


@contextlib.contextmanager
def serve(argv: Sequence[str], port: int, *, cwd: Path, env: dict, timeout_s: float = 60.0,
          health_path: str = "/_stcore/health") -> Iterator[RunningApp]:
    """Run ``argv`` until the block ends, once ``http://127.0.0.1:<port><health_path>`` says ok.

    The output goes to a log file (``RunningApp.log()``); the process is terminated (then
    killed) at the end.
    """
    log = tempfile.NamedTemporaryFile("w+", prefix="server-", suffix=".log", delete=False)
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True)
    running = RunningApp(url=f"http://127.0.0.1:{port}", port=port, process=proc, log_path=Path(log.name))
    try:
        deadline = time.monotonic() + timeout_s
        while not _healthy(port, health_path):
            if proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} exited with {proc.returncode}:\n{running.log()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{argv[0]} did not become healthy in {timeout_s}s:\n{running.log()}")
            time.sleep(0.2)     # a starting server sends no event: ask its health URL again
        yield running
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        with contextlib.suppress(OSError):
            os.unlink(log.name)


def readme_run_command(readme: Path = REPO_ROOT / "README.md") -> list[str]:
    """The README's own command to start the app (``streamlit run app.py``), as argv.

    It is the ``streamlit ...`` part of the first code block under "## Run the app".
    """
    text = readme.read_text(encoding="utf-8").split("## Run the app", 1)[1]
    block = text.split("```", 2)[1]
    for part in block.replace("\n", "&&").split("&&"):
        words = part.split()
        if words and words[0] == "streamlit":
            return words
    raise ValueError("README.md: no `streamlit ...` command under '## Run the app'")


@contextlib.contextmanager
def readme_app(timeout_s: float = 60.0, extra_args: Sequence[str] = (), *,
               wrapper: Sequence[str] = (), cwd: Path = REPO_ROOT,
               address: str | None = "127.0.0.1") -> Iterator[RunningApp]:
    """The app started *exactly* as the README says, from the repo root, with no flags.

    Only the port comes from the environment (a free one: other servers may run on this
    machine), and by default the address (127.0.0.1; ``address=None`` listens where the
    README's command does, on every interface); every other ``STREAMLIT_*`` variable is
    removed and HOME is an empty folder, so no user-wide ~/.streamlit/config.toml or
    environment can supply what the project's own ``.streamlit/config.toml`` must.
    ``extra_args`` and ``cwd`` exist for tests that show a check can fail; ``wrapper`` runs
    the command under another (``strace ...``).
    """
    port = free_port()
    home = tempfile.mkdtemp(prefix="irlab-home-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env.update(HOME=home, STREAMLIT_SERVER_PORT=str(port))
    if address:
        env["STREAMLIT_SERVER_ADDRESS"] = address
    env.pop("DISPLAY", None)            # headless, as on a server
    argv = readme_run_command()
    argv[0] = str(Path(sys.executable).with_name(argv[0]))   # this interpreter's `streamlit`
    try:
        with serve([*wrapper, *argv, *extra_args], port, cwd=cwd, env=env,
                   timeout_s=timeout_s) as running:
            yield running
    finally:
        shutil.rmtree(home, ignore_errors=True)


# --------------------------------------------------------------------------- browser


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


def launch_browser(playwright: Playwright, **kwargs) -> Browser:
    """Headless Debian Chromium with the flags that keep it quiet and offline."""
    args = [*CHROMIUM_ARGS, *disable_features_args(), *kwargs.pop("args", ())]
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args, **kwargs)


def open_app(
    browser: Browser,
    url: str,
    *,
    width: int = 1280,
    height: int = 800,
    color_scheme: str = "light",
    query: str = "",
    **context_kwargs,
) -> Page:
    """New context + page at ``url`` (plus ``?query``), waited until the first run ends.

    Close it with ``page.context.close()``. Pass ``is_mobile=True, has_touch=True``
    (and a ``device_scale_factor``) for a phone.
    """
    context = browser.new_context(
        viewport={"width": width, "height": height}, color_scheme=color_scheme, **context_kwargs
    )
    context.add_init_script(NET_SPY)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + (("?" + query.lstrip("?")) if query else ""))
    wait_for_app_loaded(page)
    return page


def script_state(page: Page) -> str | None:
    return page.get_attribute("[data-testid='stApp']", "data-test-script-state")


def text_line(page: Page, prefix: str) -> str:
    """The ``st.text`` line that starts with ``prefix`` (e.g. "order="), without it."""
    loc = page.get_by_test_id("stText").filter(has_text=prefix).first
    return loc.inner_text().strip()[len(prefix):]


# --------------------------------------------------------------------------- board


def board(page: Page, index: int = 0) -> Locator:
    """The nth ranking board's root (inside its shadow DOM)."""
    return page.locator(".rb-root").nth(index)


def board_card(page: Page, *, rank: int | None = None, item_id: str | None = None, index: int = 0) -> Locator:
    """A card by rank (1-based) or by item id."""
    root = board(page, index)
    if item_id is not None:
        return root.locator(f'.rb-card[data-item-id="{item_id}"]')
    if rank is None:
        raise ValueError("give rank or item_id")
    return root.locator(f'.rb-card[data-rank="{rank}"]')


def board_order(page: Page, index: int = 0) -> list[str]:
    """Item ids in the order the board currently shows them."""
    return board(page, index).locator(".rb-card").evaluate_all("cs => cs.map(c => c.dataset.itemId)")


def board_announcement(page: Page, index: int = 0) -> str:
    """Text of the board's aria-live region."""
    return (board(page, index).locator("[aria-live]").text_content() or "").strip()


def main_scroll_top(page: Page) -> float:
    """Scroll offset of Streamlit's main scroll container."""
    return page.evaluate("() => (document.querySelector('[data-testid=stMain]') || document.scrollingElement).scrollTop")


# --------------------------------------------------------------------------- live charts

CURVES_JS = """() => [...document.querySelectorAll('.lc-root .js-plotly-plot')].map((gd) =>
    [...gd.querySelectorAll('.scatterlayer > .trace')].map((trace) => [
        trace.querySelector('.js-line').getAttribute('d'),
        [...trace.querySelectorAll('.points > .point')].map((p) => p.getAttribute('transform'))]))"""

# Counts plotly.js's own redraws; ui/shared/live_chart/live_chart.js moves the points without one.
COUNT_PLOTLY_JS = """() => { window.__plotlyCalls = 0;
    for (const name of ['animate', 'react', 'newPlot', 'restyle', 'update']) {
        const original = window.Plotly[name];
        window.Plotly[name] = (...args) => { window.__plotlyCalls += 1; return original(...args); };
    } }"""


def drawn_curves(page: Page) -> list[list[list[float]]]:
    """Per chart, per curve: the numbers of its line path and its markers' positions (px)."""
    return [[[round(float(n), 1) for n in re.findall(r"-?\d+(?:\.\d+)?", str(curve))]
             for curve in chart] for chart in page.evaluate(CURVES_JS)]


#: The smallest type a 200-seat hall reads on a 1920x1080 projector (issue 35).
HALL_PX = 20
#: Every visible piece of text in the page's main area (HTML and the charts' SVG) with its
#: computed font size in CSS pixels.
TEXT_SIZES = """(selector) => {
  const out = [];
  const visit = (root) => {      // the components' shadow roots too (the board, the charts)
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      if (node.shadowRoot) visit(node.shadowRoot);
      const field = node.tagName === 'INPUT' && node.type === 'text';   // a picker's value
      if (node.nodeType !== Node.TEXT_NODE && !field) continue;
      // shown text hidden from screen readers (a widget's label, the K cut) is read too
      const text = (field ? node.value : node.textContent).replace(/[\\s\\u200b]+/g, ' ').trim();
      const el = field ? node : node.parentElement;
      // an icon's name is a glyph, not text
      if (!text || !el || el.closest('.stTooltipIcon, .katex-mathml, [data-testid=stIconMaterial]'))
        continue;
      const box = el.getBoundingClientRect(), style = getComputedStyle(el);
      if (box.width < 1 || box.height < 1 || style.visibility === 'hidden'
          || Number(style.opacity) === 0) continue;
      out.push([parseFloat(style.fontSize), text.slice(0, 60)]);
    }
  };
  visit(document.querySelector(selector));
  return out;
}"""


def small_text(page: Page, root: str = "[data-testid=stMain]", least: float = HALL_PX):
    """The visible text under ``root`` smaller than ``least`` CSS px: (size, text) pairs."""
    return [(size, text) for size, text in page.evaluate(TEXT_SIZES, root) if size < least]


#: Every word under the elements ``selector`` matches that the browser laid out on more than
#: one line: a word split mid-letter (a line may break after a hyphen: "Noise-" and
#: "cancelling" are two words here). Elements of class ``long`` (a SHA-256) are left out.
SPLIT_WORDS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => !el.classList.contains('long')).flatMap((el) => {
    const out = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      for (const m of node.textContent.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((b) => Math.round(b.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
    return out; })"""


def split_words(page: Page, selector: str) -> list[str]:
    """The words under ``selector`` broken across lines (see :data:`SPLIT_WORDS`)."""
    return page.evaluate(SPLIT_WORDS, selector)
