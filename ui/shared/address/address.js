// The share link: keep the address bar's query string at the one Python computed.
// replaceState, not pushState: a drag is not a page to go back to, so Back and Forward
// step through pages. Shared by the address component and the live charts (ui/shared/address.py).
//
// Each page's last address is also kept in this tab's sessionStorage, so that after a reload
// a page reached from the sidebar (a bare address: Streamlit's links carry no query) comes
// back as this tab left it (ui/shared/address.py: restore_from_tab). Not the first write after such
// a bare arrival: that is the page's defaults, about to be replaced by the kept address.
const KEPT = "irlab-address:";

function keepAddress(query) {
  if (typeof query !== "string") return;
  const search = query ? `?${query}` : "";
  const arrivedBare = window.location.search === "";
  if (window.location.search !== search) {
    const { pathname, hash } = window.location;
    window.history.replaceState(window.history.state, "", pathname + search + hash);
  }
  if (!arrivedBare) {
    try {
      window.sessionStorage.setItem(KEPT + window.location.pathname, query);
    } catch (error) {
      // storage blocked or full: the address bar still holds the state
    }
  }
}

// The address this tab last kept for this page, or null.
function keptAddress() {
  try {
    return window.sessionStorage.getItem(KEPT + window.location.pathname);
  } catch (error) {
    return null;
  }
}

// A step of Back: the entry the page is on keeps ``before`` (the board the user left), a new
// entry holds ``after``. Runs once per step (``token``): whether the page's own keepAddress
// wrote ``after`` first or not, the result is the same two entries (ui/shared/address.py:
// push_address).
function pushAddress(before, after, token) {
  const done = (window.__irlabPushed = window.__irlabPushed || new Set());
  if (!token || done.has(token) || typeof before !== "string" || typeof after !== "string") {
    return;
  }
  done.add(token);
  const { pathname, hash } = window.location;
  const at = (query) => pathname + (query ? `?${query}` : "") + hash;
  window.history.replaceState(window.history.state, "", at(before));
  window.history.pushState(window.history.state, "", at(after));
  keepAddress(after);
}
