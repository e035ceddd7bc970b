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
  const bytes = Uint8Array.from(atob(raw.slice(8)), (c) => c.charCodeAt(0));
  const text = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"))).text();
  text.then((json) => { if (s.previewRaw === raw) s.preview = JSON.parse(json); })
    .catch(() => { if (s.previewRaw === raw) s.preview = null; });
}
