// The formula view: a heading, the Metric switch, irlib's substituted formula (KaTeX) and its
// per-rank tables, drawn in the page's own DOM (Streamlit's own KaTeX styles apply, and
// ui/shared/formula.py's FORMULA_CSS). KaTeX (static/vendor/katex, served at /app/static/)
// loads once per tab, with its stylesheet, whose fonts come from the same folder.
//
// Nothing is rewritten that already shows what the data says: a rerun that confirms what the
// preview showed (ui/lessons/playground/preview.py: formula_preview) changes no node.
// All text is set as text; KaTeX renders only the LaTeX Python sent (trust: false).

function loadKatex(src, css) {
  if (css && !document.querySelector(`link[data-irlab-katex]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = css;
    link.dataset.irlabKatex = "";
    document.head.appendChild(link);
  }
  return loadGlobalScript(src, "katex");      // ui/shared/load_script.js
}

function el(tag, cls) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  return node;
}

function setup(parentElement) {
  const root = el("div", "fm-root");
  const heading = el("h3", "fm-heading");
  const label = el("div", "fm-label");
  const choice = el("div", "fm-choice");
  choice.setAttribute("role", "group");
  const formula = el("div", "fm-formula");
  const tables = el("div", "fm-tables");
  const message = el("div", "fm-message");
  message.setAttribute("role", "status");
  message.hidden = true;
  root.append(heading, label, choice, formula, tables, message);
  parentElement.appendChild(root);
  const s = { root, heading, label, choice, formula, tables, message, data: null,
              latex: null, tablesText: null, shown: null, setTriggerValue: null };
  const onPreview = (event) => showPreview(s, event.detail || {});
  window.addEventListener("irlab-preview", onPreview);
  s.destroy = () => {
    window.removeEventListener("irlab-preview", onPreview);
    root.remove();
  };
  root._fmState = s;
  return s;
}

function setText(node, text) {
  const value = text == null ? "" : String(text);
  if (node.textContent !== value) node.textContent = value;
  return value;
}

function setIfChanged(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

// The Metric switch: Streamlit's segmented control, drawn here so the formula can sit under
// it inside the same element. A click marks the option at once and tells Python ("metric").
function drawChoice(s) {
  const c = s.data.choice;
  const options = c && Array.isArray(c.options) ? c.options : [];
  s.label.hidden = s.choice.hidden = options.length === 0;
  if (!options.length) return;
  setText(s.label, c.label);
  if (!s.label.id) s.label.id = `fm-label-${Math.random().toString(36).slice(2)}`;
  setIfChanged(s.choice, "aria-labelledby", s.label.id);
  const group = s.choice;
  while (group.children.length > options.length) group.lastChild.remove();
  while (group.children.length < options.length) {
    const button = el("button", "fm-option");
    button.type = "button";
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-pressed") === "true") return;
      for (const other of group.children) setIfChanged(other, "aria-pressed", String(other === button));
      if (s.setTriggerValue) s.setTriggerValue("metric", button.dataset.value);
    });
    group.appendChild(button);
  }
  options.forEach((option, i) => {
    const button = group.children[i];
    setText(button, option.text);
    if (button.dataset.value !== String(option.value)) button.dataset.value = String(option.value);
    setIfChanged(button, "aria-pressed", String(option.value === c.value));
  });
}

// One formula entry ({latex, tables}): only what differs from what is shown is redrawn.
function drawEntry(s, entry) {
  if (!entry) return;
  if (entry.latex !== s.latex && window.katex) {
    window.katex.render(String(entry.latex || ""), s.formula,
                        { displayMode: true, throwOnError: false, trust: false });
    s.latex = entry.latex;
  }
  const text = JSON.stringify(entry.tables || []);
  if (text === s.tablesText) return;
  s.tablesText = text;
  const made = (entry.tables || []).map((t) => {
    const box = el("div", "fm-table");
    if (t.caption) setText(box.appendChild(el("div", "fm-caption")), t.caption);
    const scroll = box.appendChild(el("div", "fm-scroll"));
    const table = scroll.appendChild(el("table"));
    const head = table.appendChild(el("thead")).appendChild(el("tr"));
    for (const column of t.columns || []) {
      const th = head.appendChild(el("th"));
      th.scope = "col";
      setText(th, column);
    }
    const body = table.appendChild(el("tbody"));
    for (const row of t.rows || []) {
      const tr = body.appendChild(el("tr"));
      for (const cell of row) setText(tr.appendChild(el("td")), cell);
    }
    return box;
  });
  s.tables.replaceChildren(...made);
}

// loadPreview(s): ui/shared/preview_table.js, as the live charts load theirs

// The board announced a state one action away (a card held, a badge clicked): its formula,
// looked up; key null, or a table made for another state: the formula Python last sent.
function showPreview(s, detail) {
  const p = s.preview;
  if (!p || detail.board !== p.board) return;
  const at = detail.key != null && detail.base === p.base && p.keys ? p.keys[detail.key] : undefined;
  afterPaint(s, at === undefined ? s.data.formula : p.entries[at]);
}

// A preview's formula is drawn after the frame that shows the tiles' new numbers: KaTeX's
// few milliseconds would otherwise hold that frame back (with 30 browsers on one machine,
// benchmarks/bench_classroom.py, much longer). Several previews in a row (a held card
// moving) draw only the last.
function afterPaint(s, entry) {
  s.wanted = entry;
  if (s.scheduled) return;
  s.scheduled = true;
  requestAnimationFrame(() => setTimeout(() => {
    s.scheduled = false;
    drawEntry(s, s.wanted);
  }, 0));
}

function draw(s) {
  setText(s.heading, s.data.heading);
  s.heading.hidden = !s.data.heading;
  drawChoice(s);
  s.wanted = s.data.formula;          // a preview still waiting to be drawn gives way
  drawEntry(s, s.data.formula);
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(".fm-root");
  const s = root && root._fmState ? root._fmState : setup(parentElement);
  s.setTriggerValue = setTriggerValue;
  s.data = component.data || {};
  loadPreview(s);
  if (window.katex) draw(s);
  else {
    drawChoice(s);
    setText(s.heading, s.data.heading);
    const src = new URL(s.data.src, window.location.href).href;
    const css = new URL(s.data.css, window.location.href).href;
    loadKatex(src, css).then(() => {
      if (!s.message.hidden) s.message.hidden = true;
      draw(s);
    }).catch(() => {
      s.message.hidden = false;
      setText(s.message, `The formula library did not load from ${src}. Start the app with ` +
        "`streamlit run app.py` so that .streamlit/config.toml turns on static file serving.");
    });
  }
  return () => setTimeout(() => { if (!s.root.isConnected) s.destroy(); }, 0);
}
