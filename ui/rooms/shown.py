"""A teacher's text shown as typed, in every place a class room shows it.

A question and its answers are typed by the teacher (or drawn by ``questions.py``) and shown
on the projector, on every phone and in the teacher's preview. Each of those draws through
Streamlit Markdown (headings, captions, button labels), HTML (the preview's answer chips) or
Plotly (the tally's labels), and each of these turns some text into something else: ``**b**``
into bold, ``:material/warning:`` into an icon, ``$…$`` into a formula, ``![t](http://…)`` into
an image every phone fetches from any host, ``<a href>`` into a link, and a right-to-left
override (U+202E) turns ``cba.exe`` round. So every call site goes through this module, and
the three places show the same characters:

* :func:`typed` — the text itself, its bidirectional control characters dropped (they are
  invisible and only reorder what is around them) and its whitespace folded;
* :func:`markdown` — that text for Streamlit Markdown: every Markdown, LaTeX and HTML special
  character backslash-escaped (:func:`ui.shared.texts.md_escape`) and a WORD JOINER (U+2060, zero
  width) after each ``:`` that touches the next character, because Streamlit finds
  ``:material/…:`` icons, ``:emoji:`` and ``:red[…]`` colours *after* the escapes are read (an
  escaped ``\\:`` still made an icon); a ``:`` before a space ("A: Tess") needs none, and
  stays as typed for a screen reader and a copy;
* :func:`html_text` — that text for HTML and Plotly labels (``html.escape``).
"""
from __future__ import annotations

import html
import re

from ui.shared.texts import md_escape

#: ALM, LRM, RLM; the embeddings and overrides LRE..RLO; the isolates LRI..PDI.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: A colon that could open a directive: one followed by anything but a space.
DIRECTIVE_COLON = re.compile(r":(?=\S)")
WORD_JOINER = "\u2060"


def typed(text: object) -> str:
    """``text`` with bidirectional controls dropped and whitespace folded.

    >>> typed("def \\u202eexe.cba")
    'def exe.cba'
    >>> typed("  two\\n lines ")
    'two lines'
    """
    return " ".join(BIDI_CONTROLS.sub("", str(text if text is not None else "")).split())


def markdown(text: object) -> str:
    """``text`` made literal inside Streamlit Markdown (a heading, a caption, a button label).

    >>> markdown("**b** :material/warning: $x$")
    '\\\\*\\\\*b\\\\*\\\\* \\\\:\\u2060material/warning\\\\: \\\\$x\\\\$'
    >>> markdown("A: Tess")
    'A\\\\: Tess'
    """
    return DIRECTIVE_COLON.sub(":" + WORD_JOINER, md_escape(typed(text)))


def html_text(text: object) -> str:
    """``text`` as HTML text (the preview's chips, the tally's labels).

    >>> html_text('<a href="x">y</a> \\u202e')
    '&lt;a href=&quot;x&quot;&gt;y&lt;/a&gt;'
    """
    return html.escape(typed(text))
