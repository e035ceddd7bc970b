// Ranking board: a Streamlit Components v2 module (no build step).
// ui/shared/board.py replaces the marker below with static/vendor/sortablejs/Sortable.min.js
// at registration time; the UMD bundle sees `module` and exports through it,
// so nothing is loaded from the network and no global is created.
const Sortable = (() => {
  const module = { exports: {} };
  const exports = module.exports; // eslint-disable-line no-unused-vars
  /*__SORTABLE_JS__*/
  return module.exports;
})();

// SortableJS's copy of a held card, under the pointer or the finger (its "fallback")
const HELD = "rb-held";
const POINTER_EVENTS = ["touchmove", "touchend", "touchcancel", "mousemove", "mouseup"];

const OUTCOMES = {
  TP: "TP · returned & relevant",
  FP: "FP · returned, not relevant",
  FN: "FN · missed, relevant",
  TN: "TN · not returned, not relevant",
};

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// Writes only what changed: a rerun repaints every card, and each attribute or text written
// again is style and layout work for the browser (a class of 30 shares the machine's cores).
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
// An outcome tag: its code and its words in two spans (the same text), so a narrow card shows
// the code alone (board.css: .rb-words).
function setOutcome(node, oc) {
  const text = OUTCOMES[oc] || "";
  if (node.textContent === text) return;
  const cut = text.indexOf(" · ");
  if (cut < 0) { node.textContent = text; return; }
  const words = el("span", "rb-words");
  words.textContent = text.slice(cut);
  node.replaceChildren(text.slice(0, cut), words);
}
function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

function gradeWords(s, grade) {
  if (s.mode === "binary") return grade > 0 ? "relevant" : "not relevant";
  return `grade ${grade}`;
}

function makeCard(id) {
  const card = el("div", "rb-card", { role: "listitem", tabindex: "0", "data-item-id": id });
  const head = el("div", "rb-head");
  const rank = el("span", "rb-rank", { "aria-hidden": "true" });
  const up = el("button", "rb-up", { type: "button" });
  const down = el("button", "rb-down", { type: "button" });
  up.textContent = "▲";
  down.textContent = "▼";
  const moves = el("span", "rb-moves");
  moves.append(up, down);
  head.append(rank, moves);
  const pic = el("div", "rb-pic");
  const img = el("img", "rb-img", { draggable: "false", alt: "" });
  const ph = el("span", "rb-ph", { "aria-hidden": "true" });
  pic.append(img, ph);
  const title = el("div", "rb-title");
  const badge = el("button", "rb-badge", { type: "button" });
  const picker = el("div", "rb-picker", { role: "group" });
  picker.hidden = true;
  for (let g = 0; g <= 4; g++) {
    const b = el("button", "rb-grade", { type: "button", "data-grade": String(g), "aria-label": `Grade ${g}` });
    b.textContent = String(g);
    picker.append(b);
  }
  const outcome = el("div", "rb-outcome");
  outcome.hidden = true;
  card.append(head, pic, title, badge, picker, outcome);
  card._rb = { rank, up, down, img, ph, title, badge, picker, outcome };
  return card;
}

// Bring the DOM in line with s.order / s.grades, touching only what changed.
function paint(s) {
  const { list, cards, divider } = s;
  const focused = list.getRootNode().activeElement;
  for (const [id, card] of cards) {
    if (!s.order.includes(id)) { card.remove(); cards.delete(id); }
  }
  const n = s.order.length;
  // More than eight results (a lecturer's own example): two rows on a wide board (board.css).
  if (list.classList.contains("rb-many") !== n > 8) list.classList.toggle("rb-many", n > 8);
  if (list.style.getPropertyValue("--rb-cols") !== String(Math.ceil(n / 2))) list.style.setProperty("--rb-cols", String(Math.ceil(n / 2)));
  const wanted = [];
  s.order.forEach((id, i) => {
    wanted.push(cards.get(id));
    if (s.k != null && i + 1 === s.k && s.k < n) wanted.push(divider);
  });
  if (s.k == null || s.k >= n) divider.remove();
  setText(divider.firstChild, s.k != null ? `top K = ${s.k}` : "");
  wanted.forEach((node, i) => {
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
  });
  // Moving a node drops its focus; give it back.
  if (focused && list.contains(focused) && list.getRootNode().activeElement !== focused) focused.focus();
  s.order.forEach((id, i) => paintCard(s, id, i));
}

// One card's rank, texts, badge and outcome tag from s (a badge click repaints only its card).
function paintCard(s, id, i) {
  const n = s.order.length;
  const card = s.cards.get(id);
  const p = card._rb;
  const item = s.items.get(id) || { id, title: id, image: "", alt: "" };
  const grade = Number(s.grades[id] || 0);
  const rank = i + 1;
  const words = gradeWords(s, grade);
  const oc = s.outcomes.get(id) || "";
  setAttr(card, "data-rank", String(rank));
  setAttr(card, "data-grade", String(grade));
  const below = s.k != null && rank > s.k;
  if (card.classList.contains("rb-below") !== below) card.classList.toggle("rb-below", below);
  let label = `Rank ${rank}: ${item.title}, ${words}`;
  if (OUTCOMES[oc]) label += `, ${OUTCOMES[oc].replace(" · ", ": ")}`;
  setAttr(card, "aria-label", label);
  setText(p.rank, String(rank));
  setText(p.title, item.title);
  setAttr(p.title, "title", item.title);          // the whole title, where a card cuts it
  // No picture (a lecturer's own text results): the title takes the picture's place.
  if (card.classList.contains("rb-text") === Boolean(item.image)) card.classList.toggle("rb-text", !item.image);
  if (item.image) {
    setAttr(p.img, "src", item.image);
    setAttr(p.img, "alt", item.alt || item.title);
    setHidden(p.img, false);
    setHidden(p.ph, true);
  } else {
    p.img.removeAttribute("src");
    setHidden(p.img, true);
    setHidden(p.ph, false);
    setText(p.ph, ((item.title || "").match(/[\p{L}\p{N}]/u) || ["?"])[0].toUpperCase());
  }
  if (p.up.disabled !== (rank === 1)) p.up.disabled = rank === 1;
  if (p.down.disabled !== (rank === n)) p.down.disabled = rank === n;
  setAttr(p.up, "aria-label", `Move ${item.title} up`);
  setAttr(p.down, "aria-label", `Move ${item.title} down`);
  const b = p.badge;
  setAttr(b, "data-grade", String(grade));
  if (s.mode === "binary") {
    setText(b, grade > 0 ? "✓ relevant" : "✗ not relevant");
    setAttr(b, "aria-label", `${item.title}: ${words}. Click to toggle.`);
    b.removeAttribute("aria-expanded");
    setHidden(p.picker, true);
  } else {
    setText(b, `grade ${grade}`);
    setAttr(b, "aria-label", `${item.title}: grade ${grade} of 4. Click to change.`);
    setAttr(b, "aria-expanded", String(!p.picker.hidden));
  }
  setAttr(b, "class", `rb-badge rb-g${s.mode === "binary" ? (grade > 0 ? 4 : 0) : grade}`);
  setAttr(p.picker, "aria-label", `Grade for ${item.title}`);
  for (const gb of p.picker.children) setAttr(gb, "aria-pressed", String(Number(gb.dataset.grade) === grade));
  setHidden(p.outcome, !OUTCOMES[oc]);
  setOutcome(p.outcome, oc);
  setAttr(p.outcome, "class", `rb-outcome rb-o-${oc || "none"}`);
}

function announce(s, msg) {
  clearTimeout(s.liveTimer);
  if (s.live.textContent !== msg) { s.live.textContent = msg; return; }
  // Same words again: clear first so screen readers announce it again.
  s.live.textContent = "";
  s.liveTimer = setTimeout(() => { s.live.textContent = msg; }, 50);
}

// The live charts show the numbers of a state one action away before Python's rerun: tell
// them which one (ui/lessons/playground/preview.py has the key format), or null to go back to the current state.
// Only while the board still shows the state Python computed the table for.
function signature(s) {
  return `${s.order.join(",")}|${s.order.map((id) => Number(s.grades[id] || 0)).join(",")}`;
}

// Returns the outcome tags of that state when the table has them (else undefined).
function preview(s, key) {
  const p = s.preview;
  if (!p || !p.board) return undefined;
  const tags = key != null && p.base === s.previewBase && p.outcomes ? p.outcomes[key] : undefined;
  window.dispatchEvent(new CustomEvent("irlab-preview", {
    detail: { board: p.board, base: p.base, key: tags ? key : null },
  }));
  return tags;
}

// The cards in the order the list shows them, without SortableJS's copy of a held card.
function shownOrder(list) {
  return [...list.children]
    .filter((c) => c.classList.contains("rb-card") && !c.classList.contains(HELD))
    .map((c) => c.dataset.itemId);
}

// Ranks, the K cut and the outcome tags of an order the cards are not (yet) in: while a card is
// held, the order a drop would make. Every number on the board then says where the drop lands,
// the held card's own too (SortableJS's copy under the pointer carries its rank), and the K cut
// moves to its place. Tags that the preview table does not have are hidden, not left stale.
function paintPlaces(s, order, tags) {
  const held = s.list.querySelector(`.${HELD}`);
  if (held) setAttr(held, "aria-hidden", "true");    // a picture of the card, not a ninth one
  order.forEach((id, i) => {
    const card = s.cards.get(id);
    if (!card) return;
    const oc = (tags && tags[i]) || "";
    const below = s.k != null && i + 1 > s.k;
    for (const node of held && held.dataset.itemId === id ? [card, held] : [card]) {
      setText(node.querySelector(".rb-rank"), String(i + 1));
      const outcome = node.querySelector(".rb-outcome");
      setHidden(outcome, !OUTCOMES[oc]);
      setOutcome(outcome, oc);
      setAttr(outcome, "class", `rb-outcome rb-o-${oc || "none"}`);
      if (node.classList.contains("rb-below") !== below) node.classList.toggle("rb-below", below);
    }
  });
  const last = s.k != null && s.k < order.length ? s.cards.get(order[s.k - 1]) : null;
  if (last && last.nextSibling !== s.divider) s.list.insertBefore(s.divider, last.nextSibling);
}

// The looked-up tags of the state the board now shows (a badge clicked, a card moved) become
// its outcomes, in the cards' labels for screen readers too: a rerun that confirms them then
// finds every card as it would paint it and writes nothing (tests/browser/test_rerun_confirms.py).
function takeOutcomes(s, tags) {
  s.outcomes = new Map(s.order.map((id, i) => [id, tags[i] || ""]));
  s.order.forEach((id, i) => paintCard(s, id, i));
}

function send(s) {
  s.seq += 1;
  s.sentAt = Date.now();
  s.setTriggerValue("change", { order: s.order.slice(), grades: { ...s.grades }, seq: s.seq });
}

function titleOf(s, id) {
  return (s.items.get(id) || { title: id }).title;
}

function move(s, card, delta, focusEl) {
  const id = card.dataset.itemId;
  const i = s.order.indexOf(id);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= s.order.length) return;
  s.previewBase = signature(s);
  s.order.splice(i, 1);
  s.order.splice(j, 0, id);
  paint(s);
  const tags = preview(s, `move:${i}:${j}`);
  if (tags) takeOutcomes(s, tags);
  const target = focusEl && !focusEl.disabled ? focusEl : card;
  target.focus();
  announce(s, `${titleOf(s, id)} moved to rank ${j + 1}`);
  send(s);
}

function setGrade(s, card, grade) {
  const id = card.dataset.itemId;
  if (Number(s.grades[id] || 0) === grade) return;
  s.previewBase = signature(s);
  s.grades[id] = grade;
  paintCard(s, id, s.order.indexOf(id));
  const tags = preview(s, `grade:${s.order.indexOf(id)}:${grade}`);
  if (tags) takeOutcomes(s, tags);
  const t = titleOf(s, id);
  announce(s, s.mode === "binary" ? `${t} marked ${grade ? "relevant" : "not relevant"}` : `${t} graded ${grade}`);
  send(s);
}

function togglePicker(s, card, open) {
  const p = card._rb;
  const show = open ?? p.picker.hidden;
  for (const c of s.cards.values()) {
    c._rb.picker.hidden = true;
    if (s.mode === "graded") c._rb.badge.setAttribute("aria-expanded", "false");
  }
  p.picker.hidden = !show;
  p.badge.setAttribute("aria-expanded", String(show));
  if (show) (p.picker.querySelector('[aria-pressed="true"]') || p.picker.firstChild).focus();
}

function onClick(s, e) {
  const t = e.target.closest("button");
  const card = e.target.closest(".rb-card");
  if (!t || !card) return;
  if (t.classList.contains("rb-up")) move(s, card, -1, t);
  else if (t.classList.contains("rb-down")) move(s, card, 1, t);
  else if (t.classList.contains("rb-badge")) {
    if (s.mode === "binary") setGrade(s, card, Number(s.grades[card.dataset.itemId] || 0) > 0 ? 0 : 1);
    else togglePicker(s, card);
  } else if (t.classList.contains("rb-grade")) {
    setGrade(s, card, Number(t.dataset.grade));
    togglePicker(s, card, false);
    card._rb.badge.focus();
  }
}

function onKey(s, e) {
  const card = e.target.closest(".rb-card");
  if (!card) return;
  let handled = true;
  if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowLeft")) move(s, card, -1, e.target);
  else if (e.altKey && (e.key === "ArrowDown" || e.key === "ArrowRight")) move(s, card, 1, e.target);
  else if (e.altKey || e.ctrlKey || e.metaKey) handled = false;
  else if (s.mode === "graded" && /^[0-4]$/.test(e.key)) {
    setGrade(s, card, Number(e.key));
    if (!card._rb.picker.hidden) { togglePicker(s, card, false); card._rb.badge.focus(); }
  } else if (e.key === "Escape" && !card._rb.picker.hidden) {
    togglePicker(s, card, false);
    card._rb.badge.focus();
  } else if (e.target === card && (e.key === " " || e.key === "Enter" || e.key === "r" || e.key === "R")) {
    if (s.mode === "binary") setGrade(s, card, Number(s.grades[card.dataset.itemId] || 0) > 0 ? 0 : 1);
    else togglePicker(s, card);
  } else handled = false;
  if (handled) { e.preventDefault(); e.stopPropagation(); }
}

// Where a drag ends. "back": no move, when it was cancelled (Escape) or the mouse let go
// outside the board. A finger never cancels: on a phone the board is taller than the screen and
// a drag often ends past it, so let go below the board the card goes "last", above it "first",
// anywhere else "here" (where its place holder is). (SortableJS's revertOnSpill cannot tell: it
// looks the drop point up with document.elementFromPoint, which stops at the shadow root's host.)
function dropPlace(list, event, escaped) {
  if (escaped) return "back";
  if (!event) return "here";
  const touch = event.changedTouches && event.changedTouches[0];
  const point = touch || event;
  if (!Number.isFinite(point.clientX) || !Number.isFinite(point.clientY)) return "here";
  const r = list.getBoundingClientRect();
  if (touch || event.pointerType === "touch") {
    return point.clientY > r.bottom ? "last" : point.clientY < r.top ? "first" : "here";
  }
  const outside = point.clientX < r.left || point.clientX > r.right ||
                  point.clientY < r.top || point.clientY > r.bottom;
  return outside ? "back" : "here";
}

// The board drags with SortableJS's own copy of the card under the pointer (forceFallback), for
// the mouse as for a finger: the browser's drag image is a picture taken at pickup and would keep
// the card's old rank. So the board scrolls the page itself: while a card is held near the top
// (under the header bar) or the bottom of the page's scrolling area (above the pinned numbers,
// ui/shared/live_chart), the area scrolls, faster nearer the edge; SortableJS places the card under the
// still pointer as it does every 50 ms. A phone shows two of the board's four rows.
const EDGE = 90;          // px from the area's top and bottom edges
const SCROLL_STEP = 14;   // px a frame at the very edge

function scrollingArea(node) {
  for (let n = node; n && n !== document.documentElement; n = n.parentNode || n.host) {
    if (n.nodeType !== 1) continue;
    const y = getComputedStyle(n).overflowY;
    if ((y === "auto" || y === "scroll") && n.scrollHeight > n.clientHeight) return n;
  }
  return document.scrollingElement || document.documentElement;
}

// The top of what is pinned over the foot of the screen (Practice's check strip on a phone,
// the playground's numbers): the board scrolls from EDGE above it, where the finger still sees
// the cards, not from under it. The components' shadow roots are looked into; the held card's
// own copy and the board itself are not what is pinned.
function pinnedTop(s) {
  const x = window.innerWidth / 2, y = window.innerHeight - 2;
  let top = window.innerHeight;
  const look = (root) => {
    for (const hit of root.elementsFromPoint(x, y)) {
      if (s.root.contains(hit)) continue;
      if (hit.shadowRoot && hit.shadowRoot !== root) look(hit.shadowRoot);
      for (let n = hit; n && n !== document.documentElement; n = n.parentNode || n.host) {
        if (n.nodeType !== 1) continue;
        const position = getComputedStyle(n).position;
        if (position === "sticky" || position === "fixed") {
          const r = n.getBoundingClientRect();
          if (r.top > window.innerHeight / 2) top = Math.min(top, r.top);
          break;
        }
      }
    }
  };
  look(document);
  return top;
}

// A finger held below the board drops the card last, above it first (dropPlace): say so while
// it is held there, as over the board. The held card shows its rank to be, and the numbers
// beside the board (ui/lessons/playground/preview.py) the order the drop will make. "here": as SortableJS has it.
function spill(s) {
  const held = s.list.querySelector(`.${HELD}`);
  if (!held || !s.pointer || !s.touch) return;
  const r = s.list.getBoundingClientRect();
  const y = s.pointer.clientY;
  const place = y > r.bottom ? "last" : y < r.top ? "first" : "here";
  if (place === s.spill) return;
  s.spill = place;
  const id = held.dataset.itemId;
  let order = shownOrder(s.list);
  if (place !== "here") {
    order = order.filter((c) => c !== id);
    if (place === "first") order.unshift(id); else order.push(id);
  }
  const i = s.order.indexOf(id), j = order.indexOf(id);
  const key = i === j ? null : `move:${i}:${j}`;
  const tags = preview(s, key);
  paintPlaces(s, order, key ? tags : s.order.map((c) => s.outcomes.get(c) || ""));
  held.classList.toggle("rb-spill", place !== "here");
  setAttr(held, "data-spill", place === "last" ? "goes last" : place === "first" ? "goes first" : "");
}

function autoScroll(s) {
  s.scrollFrame = 0;
  if (!s.dragging || !s.pointer) return;
  spill(s);
  const area = s.scrollArea;
  const box = area === document.scrollingElement ? { top: 0, bottom: window.innerHeight }
    : area.getBoundingClientRect();
  // Streamlit's header bar lies over the top of the area
  const header = document.querySelector('[data-testid="stHeader"]');
  const top = Math.max(box.top, 0, header ? header.getBoundingClientRect().bottom : 0) + EDGE;
  const bottom = Math.min(box.bottom, window.innerHeight, s.pinnedTop) - EDGE;
  const y = s.pointer.clientY;
  const depth = y < top ? -(top - y) / EDGE : y > bottom ? (y - bottom) / EDGE : 0;
  const step = Math.sign(depth) * Math.max(1, Math.round(Math.min(1, Math.abs(depth)) * SCROLL_STEP));
  if (depth) area.scrollTop += step;
  s.scrollFrame = requestAnimationFrame(() => autoScroll(s));
}

function setup(parentElement) {
  const root = el("div", "rb-root");
  const list = el("div", "rb-list", { role: "list" });
  const divider = el("div", "rb-cut", { "aria-hidden": "true" });
  divider.append(el("span", "rb-cut-label"));
  const live = el("div", "rb-live", { "aria-live": "polite", role: "status" });
  root.append(list, live);
  parentElement.appendChild(root);
  const s = { root, list, divider, live, cards: new Map(), seq: 0, sentAt: 0, dragging: false, queued: null };
  const onClickL = (e) => onClick(s, e);
  const onKeyL = (e) => onKey(s, e);
  // the pointer's last place while a button or a finger is down, for autoScroll and Escape
  const onPointerL = (e) => {
    const up = ["touchend", "touchcancel", "mouseup"].includes(e.type);
    const hover = e.type === "mousemove" && !s.pointer;      // no button down
    s.pointer = up || hover ? null : e.touches ? e.touches[0] : e;
    if (!up && !hover) s.touch = !!e.touches || e.pointerType === "touch";
  };
  // Escape puts a held card back at once, as the browser's own drag and drop does
  const onEscapeL = (e) => {
    if (e.key !== "Escape" || !s.dragging) return;
    e.preventDefault();
    s.escaped = true;
    const { clientX = 0, clientY = 0 } = s.pointer || {};
    const at = { bubbles: true, clientX, clientY };
    document.dispatchEvent(new PointerEvent("pointerup", { ...at, pointerType: "mouse" }));
    document.dispatchEvent(new MouseEvent("mouseup", at));
  };
  list.addEventListener("click", onClickL);
  list.addEventListener("keydown", onKeyL);
  for (const type of ["touchstart", "mousedown"]) list.addEventListener(type, onPointerL, { passive: true });
  for (const type of POINTER_EVENTS) window.addEventListener(type, onPointerL, { passive: true, capture: true });
  window.addEventListener("keydown", onEscapeL, true);
  s.sortable = Sortable.create(list, {
    animation: 150,
    draggable: ".rb-card",
    filter: "button, .rb-picker",
    preventOnFilter: false,
    delay: 180,
    delayOnTouchOnly: true,
    touchStartThreshold: 5,
    ghostClass: "rb-ghost",
    chosenClass: "rb-chosen",
    forceFallback: true,
    fallbackClass: HELD,
    fallbackTolerance: 3,
    scroll: false,                 // autoScroll above
    onStart: () => {
      s.dragging = true;
      s.escaped = false;
      s.previewBase = signature(s);
      s.scrollArea = scrollingArea(s.root);
      s.pinnedTop = pinnedTop(s);
      s.spill = "here";
      s.scrollFrame = requestAnimationFrame(() => autoScroll(s));
    },
    // The card is held over another rank: show that order's numbers and places now.
    onChange: (evt) => {
      s.spill = "here";
      const order = shownOrder(list);
      const id = evt.item.dataset.itemId;
      const i = s.order.indexOf(id);
      const j = order.indexOf(id);
      const key = i === j ? null : `move:${i}:${j}`;
      const tags = preview(s, key);
      paintPlaces(s, order, key ? tags : s.order.map((c) => s.outcomes.get(c) || ""));
    },
    onEnd: (evt) => {
      s.dragging = false;
      cancelAnimationFrame(s.scrollFrame);
      const id = evt.item.dataset.itemId;
      const before = s.order;
      const place = dropPlace(list, evt.originalEvent, s.escaped);
      const shown = shownOrder(list);
      let order = place === "back" ? before : shown;
      if (place === "first" || place === "last") {
        order = order.filter((c) => c !== id);
        if (place === "first") order.unshift(id); else order.push(id);
      }
      const changed = order.join("\u0000") !== before.join("\u0000");
      if (changed) { s.order = order; send(s); }
      // data of a rerun that came while the card was held: apply drops it if it is older
      // than the change just sent
      const queued = s.queued;
      s.queued = null;
      if (queued) apply(s, queued);
      paint(s);
      // Dropped: the numbers stay on the new order until Python confirms; cancelled: back.
      const tags = preview(s, changed ? `move:${before.indexOf(id)}:${s.order.indexOf(id)}` : null);
      if (changed) {
        if (tags) takeOutcomes(s, tags);
        else paintPlaces(s, s.order, tags);
        announce(s, `${titleOf(s, id)} moved to rank ${s.order.indexOf(id) + 1}`);
      } else if (place === "back" && shown.indexOf(id) !== before.indexOf(id)) {
        announce(s, `${titleOf(s, id)} not moved: ${s.escaped ? "cancelled" : "let go outside the board"}`);
      }
    },
  });
  s.destroy = () => {
    list.removeEventListener("click", onClickL);
    list.removeEventListener("keydown", onKeyL);
    for (const type of ["touchstart", "mousedown"]) list.removeEventListener(type, onPointerL, { passive: true });
    for (const type of POINTER_EVENTS) window.removeEventListener(type, onPointerL, { passive: true, capture: true });
    window.removeEventListener("keydown", onEscapeL, true);
    cancelAnimationFrame(s.scrollFrame);
    if (s.sortable) s.sortable.destroy();
    s.sortable = null;
    root.remove();
  };
  root._rbState = s;
  return s;
}

function apply(s, data) {
  // A change we sent that Python has not echoed yet wins over older data
  // (for a few seconds, in case the event was lost on the way).
  if (s.hasData && typeof data.seq === "number" && data.seq < s.seq && Date.now() - s.sentAt < 4000) return;
  s.hasData = true;
  if (typeof data.seq === "number") s.seq = Math.max(s.seq, data.seq);
  s.mode = data.mode === "graded" ? "graded" : "binary";
  s.k = Number.isInteger(data.k) && data.k > 0 ? data.k : null;
  // image null: this rerun left the pictures out (ui/shared/board.py send_images); keep ours.
  const known = s.items || new Map();
  s.items = new Map((data.items || []).map((it) => {
    const id = String(it.id);
    const kept = it.image === null && known.has(id) ? known.get(id).image : it.image;
    return [id, { ...it, image: kept || "" }];
  }));
  s.order = (data.order || []).map(String);
  s.grades = { ...(data.grades || {}) };
  s.outcomes = new Map(Object.entries(data.outcomes || {}));
  s.preview = data.preview || null;
  for (const id of s.order) if (!s.cards.has(id)) s.cards.set(id, makeCard(id));
  setAttr(s.root, "data-mode", s.mode);
  // "present": the presenter view of a lecturer's own example, "large" and more (board.css)
  const large = data.size === "large" || data.size === "present";
  for (const [name, on] of [["rb-fixed", Boolean(data.fixedHeight)], ["rb-large", large],
                            ["rb-present", data.size === "present"],
                            ["rb-small", data.size === "small"],
                            ["rb-compact", data.size === "compact"]]) {
    if (s.root.classList.contains(name) !== on) s.root.classList.toggle(name, on);
  }
  paint(s);
}

// Streamlit calls this again on every data change, so all state lives on the root element
// and is reused. The cleanup we return is not only run when the board leaves the page: when
// new data comes while the previous call is still loading (two reruns' data in quick
// succession), Streamlit runs that superseded call's cleanup at once, with the board still
// on the page. Taking the board down then dropped the focused card — and with it every key
// pressed next (tests/browser/test_preview.py, the keyboard test). So the board is taken
// down only once it has really left the page.
export default function (component) {
  const { parentElement, setTriggerValue } = component;
  // Python sends [data] (a list skips Streamlit's dataframe scan of every key)
  const data = Array.isArray(component.data) ? component.data[0] : component.data;
  let root = parentElement.querySelector(".rb-root");
  const s = root && root._rbState ? root._rbState : setup(parentElement);
  s.setTriggerValue = setTriggerValue;
  if (s.dragging) s.queued = data || {};
  else apply(s, data || {});
  return () => setTimeout(() => { if (!s.root.isConnected) s.destroy(); }, 0);
}
