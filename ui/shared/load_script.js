// loadGlobalScript(src, name): a vendored script (plotly.js, KaTeX) loaded once per tab, however
// many parts ask for it; resolves to window[name]. A failed load may be asked for again.
// Prepended to each part's code (component_code.load_script_js()).
function loadGlobalScript(src, name) {
  if (window[name]) return Promise.resolve(window[name]);
  const pending = (window.__irlabScriptLoads ||= {});
  if (!pending[src]) {
    pending[src] = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = () => (window[name] ? resolve(window[name]) : reject(new Error(`no ${name}`)));
      script.onerror = () => {
        delete pending[src];
        script.remove();
        reject(new Error(`could not load ${src}`));
      };
      document.head.appendChild(script);
    });
  }
  return pending[src];
}
