"""The systems' names on the upload page: the user's where given, else each run's tag.

Session state: ``upload_names`` maps a system file's SHA-256 to the name the user gave it (kept
by file, for the session; see ui/upload/files.py for the files themselves).
"""
from __future__ import annotations

import streamlit as st

from ui.upload.model import SLOTS, Parsed, default_names


def system_names(kind: str, parsed: dict[str, Parsed]) -> list[str]:
    """The systems' names in load order: the user's where given, else the run tag's."""
    chosen = st.session_state.setdefault("upload_names", {})
    systems = [parsed[p] for slot in SLOTS[kind] if slot.systems
               for p in slot.positions() if p in parsed]
    automatic = default_names(systems)
    names = [chosen.get(f.digest) or auto for f, auto in zip(systems, automatic)]
    # a name given twice: the later one keeps its automatic name
    seen: set[str] = set()
    for i, auto in enumerate(automatic):
        if names[i] in seen:
            names[i] = auto
        seen.add(names[i])
    return names


def rename_systems(kind: str, parsed: dict[str, Parsed], names: list[str]) -> None:
    """An expander where each system's name can be changed (kept by file, for the session)."""
    systems = [parsed[p] for slot in SLOTS[kind] if slot.systems
               for p in slot.positions() if p in parsed]
    if len(systems) < 2:
        return
    chosen = st.session_state.setdefault("upload_names", {})
    with st.expander("Rename the systems", icon=":material/edit:"):
        st.caption("Names come from each run's tag (trec_eval's runid), else from the file "
                   "name. A name used twice keeps its automatic one.")
        columns = st.columns(min(len(systems), 5))
        for i, (f, name) in enumerate(zip(systems, names)):
            with columns[i % len(columns)]:
                key = f"upload_name_{i}_{f.digest[:16]}"
                if key not in st.session_state:
                    st.session_state[key] = name
                st.text_input(f"System {i + 1} ({f.name})", key=key, max_chars=40,
                              on_change=_rename, args=(f.digest, key))
                chosen.setdefault(f.digest, "")


def _rename(digest: str, key: str) -> None:
    text = st.session_state[key].strip()
    st.session_state["upload_names"][digest] = text
