"""Run one page under AppTest the way every page test does: URL and state in, run, no exception."""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def run_page(name: str, *, query: dict | None = None, session: dict | None = None,
             timeout: int = 30) -> AppTest:
    """``pages/<name>.py`` run once with ``query`` as URL parameters and ``session`` set."""
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


#: Components v2 elements that draw several components (ui.shared.component_code.mount_parts):
#: their data holds each part's under the part's name.
JOINT = ("irlab_board_and_charts", "irlab_charts_and_formula")


def component_data(at: AppTest, name: str) -> list[dict]:
    """The data of every Components v2 element called ``name``, as the browser gets it."""
    import json

    def walk(node):
        for child in getattr(node, "children", {}).values():
            # a rerun may draw the element from its stub (ui/shared/component_code.py)
            proto = getattr(child, "proto", None) if getattr(child, "type", None) == "bidi_component" else None
            if proto is not None and proto.component_name in (name, name + "_rerun"):
                data = json.loads(proto.bytes if proto.WhichOneof("data") == "bytes" else proto.json)
                # some send [data] and read its one item
                yield data[0] if isinstance(data, list) and len(data) == 1 else data
            elif proto is not None and proto.component_name.removesuffix("_rerun") in JOINT:
                data = json.loads(proto.bytes)
                if name in data:
                    yield data[name]          # a part of a joint element (mount_parts)
            yield from walk(child)
    return list(walk(at._tree))


def address(at: AppTest) -> dict[str, str]:
    """The URL parameters the page put in the address bar on its last run (ui/shared/address.py;
    the playground's live charts write it themselves)."""
    from urllib.parse import parse_qsl
    (data,) = component_data(at, "irlab_address") or component_data(at, "irlab_live_chart")
    return dict(parse_qsl(data["address"]))


def trigger(at: AppTest, name: str, event: str, value) -> AppTest:
    """Run ``at`` once as if the Components v2 element ``name`` had sent trigger ``event`` with
    ``value`` (``setTriggerValue`` in its JavaScript): AppTest has no widget for these."""
    import json

    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    found = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "bidi_component" and \
                    child.proto.component_name in (name, name + "_rerun"):
                found.append(child.proto.id)
            walk(child)
    walk(at._tree)
    (element_id,) = found
    tree = at._tree
    states = tree.get_widget_states

    def with_trigger():
        ws = states()
        ws.widgets.append(WidgetState(id=_make_trigger_id(element_id, "events"),
                                      json_trigger_value=json.dumps(
                                          [{"event": event, "value": value}])))
        return ws
    tree.get_widget_states = with_trigger
    try:
        at.run()
    finally:
        del tree.get_widget_states
    assert not at.exception, at.exception
    return at
