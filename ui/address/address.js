// The share link: keep the address bar's query string at the one Python computed.
// replaceState, not pushState: a drag is not a page to go back to, so Back and Forward
// step through pages. Shared by the address component and the live charts (ui/address.py).
function keepAddress(query) {
  if (typeof query !== "string") return;
  const search = query ? `?${query}` : "";
  if (window.location.search === search) return;
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, "", pathname + search + hash);
}
