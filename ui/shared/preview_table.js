// loadPreview(s): the neighbour table of a part (the live charts' numbers, the formula
// view's formulas) arrives deflated ("deflate:" + base64, ui/lessons/playground/preview.py):
// inflated once per rerun with the browser's own DecompressionStream, as soon as it arrives,
// into s.preview. Until then (a few ms after a rerun) a preview falls back to what Python
// sent, like an unknown state. Prepended to each part's code (preview_table_js()).
function loadPreview(s) {
  const raw = s.data && s.data.preview;
  if (s.previewRaw === raw) return;
  s.previewRaw = raw;
  s.preview = null;
  if (typeof raw !== "string" || !raw.startsWith("deflate:")) return;
  // the browser's own base64 decoder where it has one (Chromium 140+): atob and a call per
  // character took a few milliseconds per rerun for the formula's table alone
  const b64 = raw.slice(8);
  const bytes = typeof Uint8Array.fromBase64 === "function" ? Uint8Array.fromBase64(b64)
    : Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  // written straight into the stream: a Blob to read them from (`new Blob([bytes]).stream()`)
  // cost ~2.5 ms per table, more than the inflating (benchmarks/bench_browser_work.py)
  const inflate = new DecompressionStream("deflate");
  const writer = inflate.writable.getWriter();
  writer.write(bytes).catch(() => {});        // corrupt data: the readable side fails too
  writer.close().catch(() => {});
  new Response(inflate.readable).text()
    .then((json) => { if (s.previewRaw === raw) s.preview = JSON.parse(json); })
    .catch(() => { if (s.previewRaw === raw) s.preview = null; });
}
