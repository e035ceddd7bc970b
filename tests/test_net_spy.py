"""The browser tests' run tracker (tests/browser/waiting.py NET_SPY) reads Streamlit's websocket
messages by protobuf field number: those numbers must be the installed Streamlit's."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from tests.browser.waiting import NET_SPY  # noqa: E402


def spy_constant(name: str) -> int:
    return int(re.search(rf"\b{name} = (\d+)", NET_SPY).group(1))


@pytest.mark.parametrize("message, constant, field", [
    (BackMsg, "RERUN_SCRIPT", "rerun_script"),
    (BackMsg, "FILE_URLS_REQUEST", "file_urls_request"),
    (ForwardMsg, "NEW_SESSION", "new_session"),
    (ForwardMsg, "SCRIPT_FINISHED", "script_finished"),
])
def test_field_numbers_are_streamlit_s(message, constant, field):
    assert spy_constant(constant) == message.DESCRIPTOR.fields_by_name[field].number


def test_early_finish_status_is_streamlit_s():
    assert spy_constant("EARLY_FOR_RERUN") == ForwardMsg.FINISHED_EARLY_FOR_RERUN
