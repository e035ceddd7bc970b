// Live Plotly charts: a Streamlit Components v2 module (no build step).
//
// st.plotly_chart builds a new chart from scratch whenever the figure changes (its element
// id hashes the figure), which costs ~40 ms per chart on every drag. Here each chart is made
// once; a rerun that only changes the values moves the points (moveValues below), any other
// goes through Plotly.react. One component holds all of a page's charts, side by side
// where they fit: Streamlit calls each component's code in its own turn after a rerun, so
// two components would update one frame apart.
// plotly.js itself (static/vendor/plotly, served at /app/static/) loads once per tab.
//
// Streamlit calls this function again on every data change without running the previous
// cleanup, so the charts and their state live on the root element and are reused.

function loadPlotly(src) {
  return loadGlobalScript(src, "Plotly");     // ui/shared/load_script.js
}

// Streamlit's theme reaches components as --st-* CSS variables (light and dark). Reading
// them forces a style pass over the page, so it happens only when the theme changes.
function readTheme(root) {
  const css = getComputedStyle(root);
  const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--st-text-color", "#31333f"),
    grid: v("--st-border-color-light", v("--st-border-color", "rgba(128,128,128,0.25)")),
    font: v("--st-font", "sans-serif"),
    hover: v("--st-secondary-background-color", "#f0f2f6"),
  };
}

// The presenter view's charts in type a back row reads on a 1920x1080 projector: ticks, axis
// titles and the legend at 20 px (the laptop view's 14 px were unreadable from a hall's back).
const LARGE_FONT = 20;
function themed(layout, theme, width, large) {
  const axis = (a) => ({ gridcolor: theme.grid, zerolinecolor: theme.grid, linecolor: theme.grid,
                         automargin: true, ...(a || {}) });
  return {
    ...layout,
    // A known width spares plotly.js from measuring the page on every update.
    autosize: false,
    width,
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { family: theme.font, color: theme.text, ...(layout.font || {}),
            ...(large ? { size: LARGE_FONT } : {}) },
    hoverlabel: { bgcolor: theme.hover, font: { color: theme.text }, ...(layout.hoverlabel || {}) },
    xaxis: axis(layout.xaxis),
    yaxis: axis(layout.yaxis),
    // Keep zoom and legend clicks across reruns; they reset only when the figure's
    // uirevision changes.
    uirevision: layout.uirevision ?? "keep",
  };
}

const CONFIG = {
  // No toolbar: zooming eight points teaches nothing, and on phones it covers the curves.
  displayModeBar: false,
  responsive: false,            // a ResizeObserver below follows the column, not the window
  showSendToCloud: false,       // nothing leaves the machine (ui/shared/charts.py: plotly_config)
  plotlyServerURL: "",
};

function makeCell(s) {
  const cell = { drawn: false, frame: null, width: 0, height: 0, asked: 0 };
  cell.plot = document.createElement("div");
  cell.plot.className = "lc-plot";
  cell.plot.setAttribute("role", "img");
  s.grid.appendChild(cell.plot);
  cell.resize = new ResizeObserver((entries) => {
    const width = Math.round(entries[entries.length - 1].contentRect.width);
    if (width > 0) fit(s, cell, width);
  });
  cell.resize.observe(cell.plot);
  return cell;
}

// The window changed size (a laptop going onto a projector, a phone turned): a drawn chart
// takes its column's new width and, in the presenter view, the height for the new screen
// (plotHeight), and plotly.js lays its legend and labels out again for them.
function fit(s, cell, width = cell.width) {
  const height = cell.asked ? plotHeight(s, cell.asked) : cell.height;
  if (width === cell.width && height === cell.height) return;
  cell.width = width;
  cell.height = height;
  if (!cell.drawn || !window.Plotly) return;
  cell.plot.style.height = `${height}px`;
  window.Plotly.relayout(cell.plot, { width, height });
  // the chart now has this size: a rerun bringing the same look moves its points instead
  // of drawing it all again (drawOne's frame: look|range|width|height|...)
  if (cell.frame) {
    const parts = cell.frame.split("|");
    parts[2] = String(width);
    parts[3] = String(height);
    cell.frame = parts.join("|");
  }
}

function dropCell(cell) {
  cell.resize.disconnect();
  if (window.Plotly) window.Plotly.purge(cell.plot);
  cell.plot.remove();
}

function setup(parentElement) {
  const make = (cls) => {
    const node = document.createElement("div");
    node.className = cls;
    return node;
  };
  const root = make("lc-root");
  const body = make("lc-body");
  const numbers = make("lc-numbers");
  const note = make("lc-note");
  const tiles = make("lc-tiles");
  const grid = make("lc-grid");
  const footer = make("lc-note lc-footer");
  const message = make("lc-message");
  message.setAttribute("role", "status");
  message.hidden = true;
  const lines = make("lc-lines");            // the note and the footer share a line if they fit
  const choice = make("lc-choice");          // and the switch, at the line's end
  choice.setAttribute("role", "group");
  choice.hidden = true;
  lines.append(note, footer, choice);
  numbers.append(tiles);
  body.append(numbers, grid);
  const strip = make("lc-strip");
  strip.setAttribute("aria-hidden", "true");  // the tiles' numbers again: read once, there
  root.append(body, lines, message, strip);
  parentElement.appendChild(root);
  const s = { root, note, tiles, strip, grid, footer, choice, message, data: null, cells: [],
              setTriggerValue: null, theme: null, themeKey: null };
  const onPreview = (event) => showPreview(s, event.detail || {});
  window.addEventListener("irlab-preview", onPreview);
  // The strip is for while the tiles are out of sight below (the board above them): on a
  // phone they start a screen or more under the board's first cards.
  const away = new IntersectionObserver((entries) => {
    const entry = entries[entries.length - 1];    // several may queue up: the newest counts
    const box = entry.boundingClientRect;
    toggleClass(root, "lc-tiles-away", entry.intersectionRatio < 0.99 && box.bottom > 0);
  }, { threshold: [0, 0.99] });
  away.observe(tiles);
  // A change of the window's height alone changes no chart's width: the ResizeObserver stays
  // quiet, but the presenter view's height follows the screen's.
  const onResize = () => s.cells.forEach((cell) => fit(s, cell));
  window.addEventListener("resize", onResize);
  // The presenter view of an own example fits its charts to the screen's rest under the board
  // (fittedHeight): the board, drawn by another component, may come or grow after them.
  const page = document.querySelector('[data-testid="stMainBlockContainer"]');
  const above = new ResizeObserver(() => {
    if (s.root.classList.contains("lc-present")) onResize();
  });
  if (page) above.observe(page);
  s.destroy = () => {
    away.disconnect();
    above.disconnect();
    window.removeEventListener("irlab-preview", onPreview);
    window.removeEventListener("resize", onResize);
    s.cells.forEach(dropCell);
    s.cells = [];
    root.remove();
  };
  root._lcState = s;
  return s;
}

// Attribute and class writes only when the value changes: each write is style, layout and
// paint work for the browser again.
function setIfChanged(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function toggleClass(node, name, on) {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

// Whether moveValues must write a node's points: not placed by it yet, set since by plotly.js,
// or half a pixel or more from where it put them.
function moved(node, name, xy) {
  const last = node._lcPlaced;
  if (!last || last.name !== name || node.getAttribute(name) !== last.text ||
      last.xy.length !== xy.length) return true;
  return xy.some(([px, py], j) => Math.abs(px - last.xy[j][0]) >= 0.5 || Math.abs(py - last.xy[j][1]) >= 0.5);
}

function placed(node, name, text, xy) {
  node.setAttribute(name, text);
  node._lcPlaced = { name, text, xy };
}

// The caption lines and the metric tiles: text only (textContent), drawn before the charts
// and in the same task, so the numbers and the curves change in the same frame.
function setText(node, text) {
  const value = text == null ? "" : String(text);
  if (node.textContent !== value) node.textContent = value;
  return value;
}

function drawText(s, shown) {
  const tiles = Array.isArray(s.data.tiles) ? s.data.tiles : [];
  const values = shown ? shown.tiles : tiles.map((t) => t.value);
  toggleClass(s.root, "lc-large", s.data.size === "large" || s.data.size === "present");
  toggleClass(s.root, "lc-present", s.data.size === "present");
  toggleClass(s.root, "lc-preview", Boolean(shown));
  s.note.hidden = !setText(s.note, shown ? shown.note : s.data.note);
  s.footer.hidden = !setText(s.footer, s.data.footer);
  s.tiles.hidden = tiles.length === 0;
  if (Number.isFinite(s.data.tileWidth)) s.tiles.style.setProperty("--lc-tile-width", `${s.data.tileWidth}px`);
  while (s.tiles.children.length > tiles.length) s.tiles.lastChild.remove();
  while (s.tiles.children.length < tiles.length) {
    const tile = document.createElement("div");
    tile.className = "lc-tile";
    tile.setAttribute("data-testid", "lcTile");
    const label = document.createElement("div");
    label.className = "lc-tile-label";
    const value = document.createElement("div");
    value.className = "lc-tile-value";
    tile.append(label, value);
    s.tiles.appendChild(tile);
  }
  tiles.forEach((t, i) => {
    const [label, value] = s.tiles.children[i].children;
    setText(label, t.label);
    setText(value, values[i]);
  });
  drawStrip(s, tiles, values);
}

// A switch at the end of the lines under the charts (the playground: what its second chart
// shows), its label for screen readers only: the line has no room for it on a laptop. A click
// marks the option at once and tells Python (the "choice" trigger), whose rerun draws the
// chart and confirms the mark.
function drawChoice(s) {
  const c = s.data.choice;
  const options = c && Array.isArray(c.options) ? c.options : [];
  s.choice.hidden = options.length === 0;
  if (s.choice.hidden) return;
  const group = s.choice;
  setIfChanged(group, "aria-label", String(c.label || ""));
  while (group.children.length > options.length) group.lastChild.remove();
  while (group.children.length < options.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "lc-choice-option";
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-pressed") === "true") return;
      for (const other of group.children) {
        setIfChanged(other, "aria-pressed", String(other === button));
      }
      if (s.setTriggerValue) s.setTriggerValue("choice", button.dataset.value);
    });
    group.appendChild(button);
  }
  options.forEach((option, i) => {
    const button = group.children[i];
    setText(button, option.text);
    setIfChanged(button, "data-value", String(option.value));
    setIfChanged(button, "aria-pressed", String(option.value === c.value));
  });
}

// The tiles' numbers once more, in a strip pinned to the bottom of a phone's screen
// (live_chart.css) while the tiles are out of sight: a card held or just dropped at the top of
// the board shows its numbers there. The same values as the tiles, looked up the same way; a
// number that differs from the board's before the change is marked.
function drawStrip(s, tiles, values) {
  const strip = s.strip;
  while (strip.children.length > tiles.length) strip.lastChild.remove();
  while (strip.children.length < tiles.length) {
    const cell = document.createElement("div");
    cell.className = "lc-strip-cell";
    const label = document.createElement("span");
    label.className = "lc-strip-label";
    const value = document.createElement("span");
    value.className = "lc-strip-value";
    cell.append(label, value);
    strip.appendChild(cell);
  }
  tiles.forEach((t, i) => {
    const cell = strip.children[i];
    setText(cell.children[0], t.label);
    setText(cell.children[1], values[i]);
    toggleClass(cell, "lc-changed", String(values[i]) !== String(t.value));
  });
}

// loadPreview(s): ui/shared/preview_table.js (the neighbour table, inflated once per rerun)


// A board announced the state the learner is looking at (a card held over another rank, a
// judgment just clicked): show its numbers, looked up in the table Python sent
// (ui/lessons/playground/preview.py), in this same task, so they change in the frame the card does. key null,
// or a table made for another state: back to the numbers of the state Python last ran.
function showPreview(s, detail) {
  const p = s.preview;
  if (!p || detail.board !== p.board) return;
  const at = detail.key != null && detail.base === p.base && p.keys ? p.keys[detail.key] : undefined;
  const shown = at === undefined ? null : p.entries[at];
  drawText(s, shown);
  if (!window.Plotly) return;
  (s.data.charts || []).forEach((chart, i) => {
    const cell = s.cells[i];
    if (!cell || !cell.drawn) return;
    // an entry gives a trace's y values, or {x, y} where the points move along both axes
    // (the precision–recall graph)
    const traces = shown ? shown.charts[i].map((t) => (Array.isArray(t) ? { y: t } : t))
      : chart.figure.data;
    // and the DCG chart's y range where a judgment moves it: moved now, so that the rerun
    // that confirms the preview finds the axis in place and redraws nothing
    const range = shown ? shown.ranges && shown.ranges[i] : yRange(chart.figure);
    cell.wanted = null;
    if (range && !sameRange(range, cell.range)) rescaleAfterPaint(window.Plotly, cell, traces, range);
    else moveOrAnimate(window.Plotly, cell, traces);
  });
}

// A new axis redraws the chart (Plotly.update, tens of milliseconds): after the frame that
// shows the tiles' new numbers, so as not to hold it back; only the last of several previews,
// and not if a rerun has drawn the chart since (drawOne clears cell.wanted).
function rescaleAfterPaint(Plotly, cell, traces, range) {
  cell.wanted = { traces, range };
  if (cell.scheduled) return;
  cell.scheduled = true;
  requestAnimationFrame(() => setTimeout(() => {
    cell.scheduled = false;
    const wanted = cell.wanted;
    cell.wanted = null;
    if (!wanted || !cell.plot.isConnected) return;
    if (sameRange(wanted.range, cell.range)) moveOrAnimate(Plotly, cell, wanted.traces);
    else rescale(Plotly, cell, wanted.traces, wanted.range);
  }, 0));
}

function yRange(figure) {
  const axis = figure && figure.layout && figure.layout.yaxis;
  return axis && Array.isArray(axis.range) ? axis.range : null;
}

function sameRange(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
    a.every((v, j) => Math.abs(v - b[j]) < 1e-9);
}

// A new y range and new values at once (Plotly.update: one redraw of the chart); then the
// points are placed by moveValues, which notes where, so a rerun bringing the same values
// writes nothing.
function rescale(Plotly, cell, traces, range) {
  cell.range = range.slice();
  cell.frame = frameOf(cell.frame, range);
  const data = { y: traces.map((t) => t.y) };
  if (traces.some((t) => Array.isArray(t.x))) data.x = traces.map((t, j) => t.x || cell.plot.data[j].x);
  Plotly.update(cell.plot, data, { "yaxis.range": range.slice() })
    .then(() => moveValues(cell.plot, traces));
}

// A chart's frame (drawOne) with another y range.
function frameOf(frame, range) {
  const parts = String(frame || "").split("|");
  parts[1] = JSON.stringify(range);
  return parts.join("|");
}

// Move a drawn chart's lines and markers to new values, the way plotly.js would draw them:
// y, and x where a trace gives it (the precision–recall graph's points move along both
// axes; a curve over K gives the same x again). Even Plotly.animate redoes plotly.js's
// defaults and calc for every trace first: ~12 ms of a badge click's ~70 ms on the 2-core
// development machine, against under 1 ms here (benchmarks/ab_interaction.py). The pixels
// come from plotly.js's own axis scales (c2p), and the new values go into the chart's data
// and calcdata too, so hover labels, point clicks, legend clicks and later Plotly.react calls
// all see them. These are plotly.js internals (the vendored 4.1.1;
// tests/browser/test_playground.py and test_preview.py compare the result with a fresh plot):
// anything else, such as a curve hidden from the legend, an axis without a fixed range that
// the values move along, a line that is not straight segments or a filled area, returns
// false before changing anything, and the caller lets plotly.js do it.
function moveValues(gd, traces) {
  const { _fullData: full, _fullLayout: layout, calcdata } = gd;
  const xa = layout && layout.xaxis;
  const ya = layout && layout.yaxis;
  if (!full || !calcdata || !xa || !ya || typeof xa.c2p !== "function" ||
      typeof ya.c2p !== "function" || full.length !== traces.length) return false;
  if (gd._transitioning || (gd._promises && gd._promises.length)) return false;  // plotly.js busy
  if (ya.autorange) return false;       // new values may need a new range: plotly.js decides
  const moves = [];
  for (const group of gd.querySelectorAll(".scatterlayer > .trace")) {
    const cd = group.__data__;                       // the trace's calcdata, bound by d3
    const i = cd && cd[0] && cd[0].trace ? cd[0].trace.index : -1;
    const y = traces[i] && traces[i].y;
    const trace = full[i];
    if (!Array.isArray(y) || !trace || cd !== calcdata[i] || cd.length !== y.length) return false;
    // x only where it moves (a curve over K gives the same K again, on an axis that may
    // range itself), and then along an axis with a fixed range, as y
    const given = traces[i].x;
    const x = Array.isArray(given) &&
      (given.length !== cd.length || given.some((v, j) => v !== cd[j].x)) ? given : null;
    if (x && (x.length !== cd.length || xa.autorange)) return false;
    const mode = String(trace.mode || "");
    const lines = mode.includes("lines");
    const markers = mode.includes("markers");
    if ((lines && (trace.line || {}).shape !== "linear") || (trace.fill && trace.fill !== "none")) {
      return false;
    }
    const xy = cd.map((point, j) => [xa.c2p(x ? x[j] : point.x), ya.c2p(y[j])]);
    const points = markers ? group.querySelectorAll(".points > .point") : [];
    const line = lines ? group.querySelector(".js-line") : null;
    if ((lines && !line) || points.length !== (markers ? cd.length : 0) ||
        !xy.every(([px, py]) => Number.isFinite(px) && Number.isFinite(py))) return false;
    moves.push({ i, cd, x, y, xy, points, line });
  }
  if (moves.length !== traces.length) return false;
  const at = ([px, py]) => `${Math.round(px * 100) / 100},${Math.round(py * 100) / 100}`;
  for (const { i, cd, x, y, xy, points, line } of moves) {
    gd.data[i].y = y;
    full[i].y = y;
    if (x) {
      gd.data[i].x = x;
      full[i].x = x;
    }
    cd.forEach((point, j) => {
      point.y = y[j];
      if (x) point.x = x[j];
    });
    // Only what moved: the rerun brings the values the preview showed (rounded there to a
    // fraction of a pixel), and every attribute written is style, layout and paint work
    // again (a class of 30 browsers on one machine).
    if (line && moved(line, "d", xy)) placed(line, "d", `M${xy.map(at).join("L")}`, xy);
    points.forEach((node, j) => {
      if (moved(node, "transform", [xy[j]])) placed(node, "transform", `translate(${at(xy[j])})`, [xy[j]]);
    });
  }
  return true;
}

// New values for a drawn chart: moved in place, or if that cannot be done, by plotly.js
// (Plotly.animate with redraw: false, still cheaper than Plotly.react).
function moveOrAnimate(Plotly, cell, traces) {
  if (moveValues(cell.plot, traces)) return;
  Plotly.animate(cell.plot, {
    data: traces.map((t) => (Array.isArray(t.x) ? { x: t.x, y: t.y } : { y: t.y })),
    traces: traces.map((_, i) => i),
  }, { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" });
}

// The presenter view's taller charts on a projector; on a shorter screen (a 1366x768 laptop
// driving the projector) about the laptop view's height, so the lines under them stay in view
// (live_chart.css shrinks the tiles to match).
const SHORT_SCREEN = 900;
const SHORT_SCREEN_PLOT = 232;
function plotHeight(s, height) {
  if (s.root.classList.contains("lc-present")) return fittedHeight(s, height);
  const short = s.root.classList.contains("lc-large") && window.innerHeight < SHORT_SCREEN;
  return short ? Math.min(height, SHORT_SCREEN_PLOT) : height;
}

// The presenter view of a lecturer's own example (size "present"): a board of 3 to 12 results
// above, so the charts take the screen's rest under the tiles, at most the height asked for,
// at least FIT_MIN; the lines under them too where the rest has room for both.
const FIT_MIN = 150;
const FIT_MARGIN = 4;
function shortName(trace) {
  if (typeof trace.name !== "string") return trace;
  const name = trace.name.replace(/@K$/, "").split(/: | \(/)[0];
  return name === trace.name ? trace : { ...trace, name };
}
function fittedHeight(s, height) {
  const main = document.querySelector('[data-testid="stMain"]');
  const top = s.grid.getBoundingClientRect().top + (main ? main.scrollTop : 0);
  const lines = s.note.parentElement;
  const below = lines && lines.offsetHeight ? lines.offsetHeight + 8 : 0;
  const rest = window.innerHeight - top;
  // the lines under the fold if both have no room: then not a sliver of them in view
  const fits = rest - below - FIT_MARGIN >= FIT_MIN ? rest - below - FIT_MARGIN : rest - 2;
  return Math.round(Math.max(FIT_MIN, Math.min(height, fits)));
}

function drawOne(Plotly, s, cell, chart) {
  const { figure, label } = chart;
  if (!cell.width) cell.width = Math.round(cell.plot.clientWidth) || 600;
  setIfChanged(cell.plot, "aria-label", label || "chart");
  cell.asked = figure.layout.height || 380;
  const height = plotHeight(s, cell.asked);
  cell.height = height;
  cell.plot.style.height = `${height}px`;
  // Most updates (a drag, a badge click) change only the curves' values; chart.look digests
  // all the rest (ui/shared/live_chart.py: figure_look). Then the axes, legend and labels stay: move
  // the points in place, or if that cannot be done, let plotly.js move them
  // (Plotly.animate with redraw: false, still cheaper than Plotly.react).
  const large = s.data.size === "large" || s.data.size === "present";
  const present = s.data.size === "present";
  const range = yRange(figure);
  const frame = [chart.look, JSON.stringify(range), cell.width, height, s.themeKey, large,
                 present].join("|");
  const same = cell.drawn && frame === cell.frame;
  cell.range = range && range.slice();
  cell.wanted = null;                 // a preview's rescale still waiting gives way
  if (same) {
    moveOrAnimate(Plotly, cell, figure.data);
  } else {
    // the presenter view of an own example: charts as short as 150 px, whose legend keeps to
    // one line at 20 px: its names without "@K" (the axis's title says "at K") and without
    // what follows a colon or a bracket (the precision–recall chart's explanations)
    const data = present ? figure.data.map(shortName) : figure.data;
    Plotly.react(cell.plot, data, { ...themed(figure.layout, s.theme, cell.width, large), height },
                 CONFIG);
  }
  cell.frame = frame;
  // What a click on a point reports: its x (K), or where x is not K (the precision–recall
  // graph) its customdata; a point without one reports nothing.
  cell.clickBy = figure.click === "customdata" ? "customdata" : "x";
  if (!cell.drawn) {
    cell.drawn = true;
    // Python validates the value before using it.
    cell.plot.on("plotly_click", (event) => {
      const point = event && event.points && event.points[0];
      const value = point ? point[cell.clickBy] : undefined;
      if (typeof value === "number" && s.setTriggerValue) s.setTriggerValue("click", { x: value });
    });
  }
}

function draw(Plotly, s) {
  const { charts, themeKey } = s.data;
  if (!s.theme || themeKey !== s.themeKey) {
    s.theme = readTheme(s.root);
    s.themeKey = themeKey;
  }
  while (s.cells.length > charts.length) dropCell(s.cells.pop());
  while (s.cells.length < charts.length) s.cells.push(makeCell(s));
  charts.forEach((chart, i) => drawOne(Plotly, s, s.cells[i], chart));
}

// keepAddress(query): ui/shared/address/address.js, prepended by ui/shared/live_chart.py.

// Streamlit also runs a superseded call's cleanup while the charts are still on the page (two
// reruns' data in quick succession; see the board, ui/shared/board/board.js): take them down only
// once they have left it, or the next call would draw both charts again from scratch.
function destroyIfGone(s) {
  setTimeout(() => { if (!s.root.isConnected) s.destroy(); }, 0);
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  // Python sends [data] (a list skips Streamlit's dataframe scan of every key)
  const data = Array.isArray(component.data) ? component.data[0] : component.data;
  const root = parentElement.querySelector(".lc-root");
  const s = root && root._lcState ? root._lcState : setup(parentElement);
  s.setTriggerValue = setTriggerValue;
  s.data = data || {};
  loadPreview(s);
  keepAddress(s.data.address);
  drawText(s);
  drawChoice(s);
  if (!Array.isArray(s.data.charts) || s.data.charts.length === 0) {
    while (s.cells.length) dropCell(s.cells.pop());
    return () => destroyIfGone(s);
  }
  const src = new URL(s.data.src, window.location.href).href;
  loadPlotly(src)
    .then((Plotly) => {
      if (!s.message.hidden) s.message.hidden = true;
      draw(Plotly, s);
    })
    .catch(() => {
      s.message.hidden = false;
      s.message.textContent = `The chart library did not load from ${src}. Start the app with ` +
        "`streamlit run app.py` so that .streamlit/config.toml turns on static file serving.";
    });
  return () => destroyIfGone(s);
}
