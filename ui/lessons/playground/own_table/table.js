// The own example's table (ui/lessons/playground/example_table.py): a query box and one line
// of inputs per result. What is typed stays in the browser, on the table's own DOM node and in
// a tab-wide store, until "Show on the board" sends the query and every row at once, read from
// the inputs at the click. No keystroke or cell reruns the page, and no rerun can drop an edit
// (Streamlit's data editor lost quick edits: example_table.py says how, issue 44). New data
// from Python replaces what is typed only when its `version` changes (a file loaded); any
// other rerun, a picture upload say, leaves every input as it is. User text is only ever set
// as a value or textContent.

const GRADES = ["0", "1", "2", "3", "4"];

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function store() {
  return (globalThis.__irlabOwnTable ||= {});
}

function remember(s) {
  store()[s.storeKey] = { version: s.version, query: s.query.value, rows: readRows(s) };
}

function readRows(s) {
  return [...s.body.querySelectorAll(".ot-row")].map((row) => ({
    title: row.querySelector(".ot-title").value,
    grade: row.querySelector(".ot-grade").value,
    picture: row.querySelector(".ot-picture").value,
  }));
}

function fillPictures(select, names, current) {
  const want = [""].concat(names);
  if (current && !want.includes(current)) want.push(current);  // kept, even if not uploaded
  const have = [...select.options].map((o) => o.value);
  if (have.join("\u0000") !== want.join("\u0000")) {
    select.replaceChildren();
    for (const name of want) {
      const option = el("option");
      option.value = name;
      option.textContent = name || "no picture";
      select.append(option);
    }
  }
  select.value = current || "";
}

function renumber(s) {
  const rows = [...s.body.querySelectorAll(".ot-row")];
  rows.forEach((row, i) => {
    const n = i + 1;
    row.querySelector(".ot-rank").textContent = String(n);
    row.querySelector(".ot-grade").setAttribute("aria-label", `Rank ${n}: grade`);
    row.querySelector(".ot-title").setAttribute("aria-label", `Rank ${n}: title`);
    row.querySelector(".ot-picture").setAttribute("aria-label", `Rank ${n}: picture`);
    row.querySelector(".ot-delete").setAttribute("aria-label", `Delete rank ${n}`);
  });
  s.add.disabled = rows.length >= s.maxRows;
  s.count.textContent = `${rows.length} result${rows.length === 1 ? "" : "s"}`;
}

function addRow(s, value) {
  const row = el("div", "ot-row");
  const rank = el("span", "ot-rank", { "aria-hidden": "true" });
  const grade = el("select", "ot-grade");
  const blank = el("option");
  blank.value = "";
  blank.textContent = "–";
  grade.append(blank);
  for (const g of GRADES) {
    const option = el("option");
    option.value = g;
    option.textContent = g;
    grade.append(option);
  }
  grade.value = value.grade === null || value.grade === undefined ? "" : String(value.grade);
  const title = el("input", "ot-title", { type: "text", autocomplete: "off", spellcheck: "true" });
  title.value = value.title || "";
  const picture = el("select", "ot-picture");
  fillPictures(picture, s.pictures, value.picture || "");
  const del = el("button", "ot-delete", { type: "button", title: "Delete this result" });
  del.textContent = "✕";
  row.append(rank, grade, title, picture, del);
  s.body.append(row);
  return row;
}

function setRows(s, query, rows) {
  s.query.value = query || "";
  s.body.replaceChildren();
  for (const value of rows) addRow(s, value);
  renumber(s);
}

function showPictures(s) {
  // the Picture column only once there is a picture to choose (or a row names one)
  const named = readRows(s).some((r) => r.picture);
  s.root.classList.toggle("ot-with-pictures", s.pictures.length > 0 || named);
  for (const row of s.body.querySelectorAll(".ot-row")) {
    const select = row.querySelector(".ot-picture");
    fillPictures(select, s.pictures, select.value);
  }
}

function send(s) {
  remember(s);
  s.sent += 1;
  s.setTriggerValue("apply", { query: s.query.value, rows: readRows(s), sent: s.sent });
}

function setup(parentElement) {
  const root = el("div", "ot-root");
  const queryLabel = el("label", "ot-query-label");
  const queryText = el("span");
  queryText.textContent = "Query";
  const query = el("input", "ot-query", { type: "text", autocomplete: "off" });
  queryLabel.append(queryText, query);
  const head = el("div", "ot-row ot-head", { "aria-hidden": "true" });
  for (const [cls, text] of [["ot-rank", "#"], ["ot-grade-h", "Grade"], ["ot-title-h", "Title"],
                             ["ot-picture-h", "Picture"], ["ot-delete-h", ""]]) {
    const cell = el("span", cls);
    cell.textContent = text;
    head.append(cell);
  }
  const body = el("div", "ot-body", { role: "group", "aria-label": "Results, rank 1 first" });
  const bar = el("div", "ot-bar");
  const add = el("button", "ot-add", { type: "button" });
  add.textContent = "+ Add a result";
  const count = el("span", "ot-count", { "aria-live": "polite" });
  const apply = el("button", "ot-apply", { type: "button" });
  apply.textContent = "✓ Show on the board";
  bar.append(apply, add, count);
  root.append(queryLabel, head, body, bar);
  parentElement.appendChild(root);
  const s = { root, query, body, add, apply, count, sent: 0, pictures: [], maxRows: 12 };
  root._otState = s;

  root.addEventListener("input", () => remember(s));
  root.addEventListener("change", () => { remember(s); showPictures(s); });
  add.addEventListener("click", () => {
    const row = addRow(s, { title: "", grade: null, picture: "" });
    renumber(s);
    remember(s);
    row.querySelector(".ot-title").focus();
  });
  body.addEventListener("click", (e) => {
    const del = e.target.closest(".ot-delete");
    if (!del) return;
    const row = del.closest(".ot-row");
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber(s);
    remember(s);
    (next ? next.querySelector(".ot-title") : add).focus();
  });
  // Enter in a title goes to the next row's title, as in a spreadsheet; in the query, to the
  // first title. Nothing is sent before the button.
  root.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.isComposing) return;
    if (e.target === query) {
      e.preventDefault();
      const first = body.querySelector(".ot-title");
      if (first) first.focus();
    } else if (e.target.classList.contains("ot-title")) {
      e.preventDefault();
      const next = e.target.closest(".ot-row").nextElementSibling;
      if (next) next.querySelector(".ot-title").focus();
    }
  });
  apply.addEventListener("click", () => send(s));
  return s;
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  const data = component.data || {};
  const root = parentElement.querySelector(".ot-root");
  const s = root && root._otState ? root._otState : setup(parentElement);
  s.setTriggerValue = setTriggerValue;
  s.pictures = Array.isArray(data.pictures) ? data.pictures.map(String) : [];
  s.maxRows = data.maxRows || 12;
  s.storeKey = String(data.store || "");
  s.query.maxLength = data.maxQuery || 80;
  if (s.version !== data.version) {
    // first drawn, or a new table from Python (a file loaded): what this tab typed on the
    // same version (the popover closed and opened again) wins over the version's start
    const kept = store()[s.storeKey];
    const typed = s.version === undefined && kept && kept.version === data.version;
    s.version = data.version;
    if (typed) setRows(s, kept.query, kept.rows);
    else setRows(s, data.query, data.rows || []);
    remember(s);
  } else {
    renumber(s);
  }
  showPictures(s);
  return () => {};
}
