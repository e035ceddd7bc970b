"""Components v2 elements whose JavaScript reaches the browser once, not with every rerun.

Streamlit puts a component's whole JavaScript and CSS into every message that draws it: the
ranking board's are 62 kB (SortableJS included) and 7 kB, the live charts' 18 kB and 3 kB. A
drag or a badge click on the playground reruns a fragment holding both, so each rerun
serialised, hashed and sent 90 kB that the browser already had (the browser hashes the code
again too). Here a component is registered twice:

- the **full** module: the component's own code and CSS (which the module puts in place
  itself), leaving its entry point in ``globalThis`` under the component's name whenever it
  runs, for
- the **stub** module (about 600 bytes): calls that entry point, or, in a tab that never ran
  the full module, asks Python for it (a trigger, answered by the next run).

A page sends the full module on its full runs (``send_code=True``) and the stub on the
fragment reruns that follow. Both modules call the same function, and the components keep
their state on their own DOM nodes, so a stub run is the same as a full one.

The element's data travels as JSON bytes, which Streamlit forwards untouched (for a list or a
dict it would ``json.dumps`` the data a second time, sorted, to name the element, although a
``key`` names it); the modules parse it before calling the component.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import streamlit as st

_EXPORT = "export default function"
#: The trigger a stub sends when its tab has no full module.
_ASK = "irlab_code"

# Both modules: the component gets its data parsed from the bytes Python sent.
_DECODE = """const irlabParsed = (component) => {
  const raw = component.data;
  if (!ArrayBuffer.isView(raw)) return component;
  return { ...component, data: JSON.parse(new TextDecoder().decode(raw)) };
};
"""


class Encoded(bytes):
    """A value of an element's data already encoded as compact JSON: :func:`mount` splices it
    in as it is. For the parts a page keeps per state (a board's preview table, the live
    charts' figures): encoded once when the state is first drawn, not on every rerun that
    draws it again (``json.dumps`` of those dicts was a sixth of a badge click's script time).
    """


def encoded(value: Any) -> Encoded:
    """``value`` as compact JSON, for :func:`mount`'s data."""
    return Encoded(json.dumps(value, separators=(",", ":")).encode())


def load_script_js() -> str:
    """``loadGlobalScript(src, name)``: the JavaScript that loads a vendored script once per
    tab (the live charts' plotly.js, the formula view's KaTeX), prepended to each part's code."""
    return (Path(__file__).resolve().parent / "load_script.js").read_text(encoding="utf-8")


def preview_table_js() -> str:
    """``loadPreview(s)``: the JavaScript that inflates a part's neighbour table (the live
    charts' and the formula view's), prepended to each part's own code."""
    return (Path(__file__).resolve().parent / "preview_table.js").read_text(encoding="utf-8")


def _body(data: Any) -> bytes:
    """``data`` as compact JSON bytes; a top-level value that is :class:`Encoded` goes in as
    it is."""
    if isinstance(data, dict) and any(isinstance(v, Encoded) for v in data.values()):
        parts = [json.dumps(str(k)).encode() + b":" +
                 (v if isinstance(v, Encoded) else json.dumps(v, separators=(",", ":")).encode())
                 for k, v in data.items()]
        return b"{" + b",".join(parts) + b"}"
    return json.dumps(data, separators=(",", ":")).encode()


def _asked_key(key: str) -> str:
    return f"_irlab_code_asked::{key}"


def full_module(name: str, js: str, css: str = "") -> str:
    """``js`` with its default export also kept in ``globalThis.__irlabCode[name]``, and
    ``css`` put in place by the module itself (in the element's shadow root, or the page's
    head), so that reruns need not carry it either."""
    if js.count(_EXPORT) != 1:
        raise RuntimeError(f"{name}: the component's JavaScript needs exactly one "
                           f"'{_EXPORT}' (ui/shared/component_code.py keeps its entry point)")
    main = js.replace(_EXPORT, "const irlabMain = function", 1)
    tag = json.dumps(name)
    # Kept at every call, not once when the module loads: the browser evaluates a module
    # once per tab, and a rerun that asked for the code gets that same module again.
    # (The `;` ends the function expression above.)
    return (f"{_DECODE}{main}\n;const irlabCss = {json.dumps(css)};\n"
            "const irlabRun = (component) => {\n"
            "  const root = component.parentElement.getRootNode();\n"
            "  const home = root instanceof ShadowRoot ? root : document.head;\n"
            f"  if (irlabCss && !home.querySelector(`style[data-irlab=${{JSON.stringify({tag})}}]`)) {{\n"
            "    const style = document.createElement(\"style\");\n"
            f"    style.dataset.irlab = {tag};\n"
            "    style.textContent = irlabCss;\n"
            "    home.appendChild(style);\n"
            "  }\n"
            "  return irlabMain(component);\n"
            "};\n"
            "export default function (component) {\n"
            f"  (globalThis.__irlabCode ||= {{}})[{tag}] = irlabRun;\n"
            "  return irlabRun(irlabParsed(component));\n}\n")


def stub_module(name: str) -> str:
    """The module sent on reruns: the full module's entry point, or a request for it."""
    return (f"{_DECODE}export default function (component) {{\n"
            f"  const main = (globalThis.__irlabCode || {{}})[{json.dumps(name)}];\n"
            "  if (main) return main(irlabParsed(component));\n"
            "  // This tab never ran the full module (its first run was cut short): ask for it.\n"
            f"  component.setTriggerValue({json.dumps(_ASK)}, true);\n"
            "}\n")


@functools.cache
def _register(name: str, js: str, css: str | None, isolate_styles: bool) -> tuple[Any, Any]:
    full = st.components.v2.component(name, js=full_module(name, js, css or ""),
                                      isolate_styles=isolate_styles)
    stub = st.components.v2.component(name + "_rerun", js=stub_module(name),
                                      isolate_styles=isolate_styles)
    return full, stub


def code_asked(key: str) -> bool:
    """True once after the element ``key``'s stub found no code in its tab (see
    ``ranking_board``: whatever else a full run sends, such as pictures, is missing too)."""
    return bool(st.session_state.get(_asked_key(key)))


def mount(name: str, *, js: str, css: str | None = None, isolate_styles: bool = True,
          key: str, data: Any, send_code: bool = True, height: Any = "content",
          **callbacks: Callable[[], None]) -> Any:
    """Draw component ``name`` (registered once per process) with ``data`` (JSON-able; a
    top-level value may be :class:`Encoded`).

    ``send_code=False`` sends only the stub: for reruns of a page whose full run sent the
    code. ``callbacks`` are Streamlit's ``on_<event>_change`` keyword arguments.
    """
    full, stub = _register(name, js, css, isolate_styles)
    if st.session_state.pop(_asked_key(key), False):
        send_code = True

    def asked() -> None:
        st.session_state[_asked_key(key)] = True

    body = _body(data)
    return (full if send_code else stub)(key=key, data=body, height=height,
                                         **{f"on_{_ASK}_change": asked}, **callbacks)


class Part(NamedTuple):
    """A component drawn as one part of a joint element (:func:`mount_parts`): what
    :func:`mount` would get for it alone. ``callbacks``: Streamlit's ``on_<event>_change``
    keyword arguments; the parts' event names must differ."""
    name: str
    js: str
    css: str
    isolate_styles: bool
    data: Any
    callbacks: dict[str, Callable[[], None]]


def joint_module(name: str, parts: Sequence[tuple[str, str, str, bool]]) -> str:
    """One module that draws ``parts`` (``(name, js, css, isolate_styles)``) one below the
    other in one element, each with the code :func:`full_module` gives it alone: a part whose
    styles are isolated gets its own shadow root, as Streamlit would give it. Each part keeps
    its state on its own DOM nodes and its events go to the joint element's key."""
    blocks = []
    for part, js, css, _ in parts:
        module = full_module(part, js, css)
        # the part's entry point, kept in `irlabParts` instead of exported (a block keeps
        # each part's top-level names its own)
        blocks.append("{\n" + module.replace(_EXPORT, f"irlabParts[{json.dumps(part)}] = function", 1)
                      + "\n}\n")
    names = json.dumps([[part, isolate] for part, _, _, isolate in parts])
    tag = json.dumps(name)
    return (f"{_DECODE}const irlabParts = {{}};\n" + "".join(blocks) +
            f"const irlabJointParts = {names};\n"
            "const irlabJoint = (component) => {\n"
            "  const host = component.parentElement;\n"
            "  let homes = host.__irlabJoint;\n"
            "  if (!homes) {\n"
            "    // one below the other, Streamlit's gap between two elements\n"
            "    const column = document.createElement(\"div\");\n"
            "    column.style.cssText = \"display:flex;flex-direction:column;gap:1rem;width:100%\";\n"
            "    homes = {};\n"
            "    for (const [part, isolate] of irlabJointParts) {\n"
            "      const box = document.createElement(\"div\");\n"
            "      box.dataset.irlabPart = part;\n"
            "      column.appendChild(box);\n"
            "      homes[part] = isolate ? box.attachShadow({ mode: \"open\" }) : box;\n"
            "    }\n"
            "    host.appendChild(column);\n"
            "    host.__irlabJoint = homes;\n"
            "  }\n"
            "  const ends = irlabJointParts.map(([part]) => irlabParts[part](\n"
            "    { ...component, parentElement: homes[part], data: component.data[part] }));\n"
            "  return () => { for (const end of ends) if (typeof end === \"function\") end(); };\n"
            "};\n"
            "export default function (component) {\n"
            f"  (globalThis.__irlabCode ||= {{}})[{tag}] = irlabJoint;\n"
            "  return irlabJoint(irlabParsed(component));\n}\n")


@functools.cache
def _register_joint(name: str, parts: tuple[tuple[str, str, str, bool], ...]) -> tuple[Any, Any]:
    full = st.components.v2.component(name, js=joint_module(name, parts), isolate_styles=False)
    stub = st.components.v2.component(name + "_rerun", js=stub_module(name), isolate_styles=False)
    return full, stub


def mount_part(part: Part, *, key: str, send_code: bool = True, height: Any = "content") -> Any:
    """Draw ``part`` alone, as :func:`mount` does."""
    return mount(part.name, js=part.js, css=part.css, isolate_styles=part.isolate_styles,
                 key=key, data=part.data, send_code=send_code, height=height, **part.callbacks)


def mount_parts(name: str, parts: Sequence[Part], *, key: str, send_code: bool = True,
                height: Any = "content") -> Any:
    """Draw ``parts`` as one Components v2 element ``name``: what :func:`mount` draws for each,
    at the price of one element. Each Components v2 element costs a rerun about a millisecond
    of the server's time whatever it holds (Streamlit registers it as a widget, names it and
    hashes its message) and a message on the event loop (docs/benchmarks.md)."""
    full, stub = _register_joint(name, tuple((p.name, p.js, p.css, p.isolate_styles) for p in parts))
    if st.session_state.pop(_asked_key(key), False):
        send_code = True

    def asked() -> None:
        st.session_state[_asked_key(key)] = True

    callbacks: dict[str, Callable[[], None]] = {}
    for part in parts:
        if set(callbacks) & set(part.callbacks):
            raise ValueError(f"{name}: two parts listen to the same event")
        callbacks.update(part.callbacks)
    body = _body({part.name: Encoded(_body(part.data)) for part in parts})
    return (full if send_code else stub)(key=key, data=body, height=height,
                                         **{f"on_{_ASK}_change": asked}, **callbacks)
