// The student's anonymous id for class rooms (ui/rooms/voter.py, pages/join.py). It lives in
// this browser, never in the address: a link copied into the class chat or opened on a
// neighbour's phone must not carry who answered. localStorage makes a reload, a lesson and
// back, and a second tab on the same phone the same student.
const KEY = "irlab-voter";
const VALID = /^[A-Za-z0-9_-]{16,64}$/;   // the same check as voter.py's VOTER_ID

// crypto.getRandomValues, not crypto.randomUUID: randomUUID exists only in secure contexts,
// and phones open the class server as plain http://<machine>:8501.
function freshId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The id kept in window[storageName], made there when missing or damaged; null when that
// storage throws (blocked, some private modes, full): even reading window.localStorage can.
function kept(storageName) {
  try {
    const storage = window[storageName];
    const found = storage.getItem(KEY);
    if (found && VALID.test(found)) return found;
    const made = freshId();
    storage.setItem(KEY, made);
    return storage.getItem(KEY) === made ? made : null;
  } catch (error) {
    return null;
  }
}

// Last resort when neither storage works: an id for this page load only (module scope), so a
// reload there is a new student (who can answer again; the rate limits still apply).
let thisPageLoad = null;

function voterId() {
  const id = kept("localStorage") || kept("sessionStorage");
  if (id) return id;
  thisPageLoad = thisPageLoad || freshId();
  return thisPageLoad;
}

const told = new WeakSet();   // elements that already sent the id: one rerun per mount

export default function (component) {
  const { parentElement, setStateValue } = component;
  if (told.has(parentElement)) return;
  told.add(parentElement);
  setStateValue("id", voterId());
}
