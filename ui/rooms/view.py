"""What the two class pages share: the store, who is asking, a question drawn as text and
pictures, and the tally chart (their style: ui/rooms/style.py).

Everything a teacher typed (a question, its answers) is shown as typed, the same on the
projector, the phones and the preview, through :mod:`ui.rooms.shown`; the catalogue's titles in
the rankings strip through ``html.escape``.
"""
from __future__ import annotations

import html
import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

import streamlit as st

from ui.shared import films
from ui.shared.catalog import image_data_uri, load_catalog
from ui.rooms import shown
from ui.rooms.store import RoomStore
from ui.rooms.style import STYLE

#: Seconds between two polls. A student's poll reads one row and draws nothing unless the
#: room changed; the teacher's redraws the tally. See docs/classroom.md, "Class rooms", for the CPU cost.
STUDENT_POLL_S = 2.0
TEACHER_POLL_S = 1.0
CORRECT, OTHER, WAITING = "#009E73", "#999999", "#0072B2"



@st.cache_resource(show_spinner=False)
def _store(url: str | None, path: str | None, hours: str | None,
           store_class: int, per_address: str | None = None) -> RoomStore:
    # ``store_class``: the id of the RoomStore class in use. When Streamlit re-imports edited modules on a
    # running server, a store kept from before would raise the old RoomError class, which
    # the pages' ``except RoomError`` no longer catches (a traceback on students' phones).
    del store_class                  # only a part of the cache key
    env = {k: v for k, v in (("IRLAB_ROOMS_URL", url), ("IRLAB_ROOMS_DB", path),
                             ("IRLAB_ROOMS_PER_ADDRESS", per_address)) if v}
    kwargs = {"lifetime_s": float(hours) * 3600} if hours else {}
    return RoomStore.from_env(env, **kwargs)


def store() -> RoomStore:
    """The rooms' store this deployment configured (see docs/classroom.md, "Class rooms")."""
    return _store(os.environ.get("IRLAB_ROOMS_URL"), os.environ.get("IRLAB_ROOMS_DB"),
                  os.environ.get("IRLAB_ROOM_HOURS"), id(RoomStore),
                  os.environ.get("IRLAB_ROOMS_PER_ADDRESS"))


#: Set (to 1) by a deployment whose app processes sit behind a balancer that sets
#: ``X-Forwarded-For`` itself (``deploy/run_class.py``): only then is that header's address the
#: client's. Unset (``streamlit run app.py``), a connection that carries the header is counted
#: as one address, "forwarded", whatever the header says.
BEHIND_BALANCER = "IRLAB_BEHIND_BALANCER"


def client_address() -> str | None:
    """The address of this session's client, for the limits (the store groups it with
    :func:`ui.rooms.limits.address_key`); None for a connection from this machine (Streamlit
    reports none).

    The server (uvicorn) replaces the connection's address with the ``X-Forwarded-For`` of
    any connection from 127.0.0.1 (its default ``FORWARDED_ALLOW_IPS``), so on a plain
    ``streamlit run`` any same-host forwarder that passes the header on (an SSH tunnel, socat,
    stunnel) would let its clients choose their address. Unless the deployment says a balancer
    is in front (:data:`BEHIND_BALANCER`; ``deploy/run_class.py``, whose HAProxy drops the
    client's header and sets its own), a session that sent the header is therefore counted as
    ``"forwarded"``: one address for all of them, whatever they claim."""
    address = st.context.ip_address
    address = address if isinstance(address, str) else None     # (AppTest gives a mock)
    if os.environ.get(BEHIND_BALANCER, "") in ("", "0"):
        try:
            forwarded = st.context.headers.get("X-Forwarded-For")
        except Exception:                                        # (no request: AppTest)
            forwarded = None
        if forwarded:
            return "forwarded"
    return address


def repeated_in_link(*names: str) -> list[str]:
    """The address's parameters among ``names`` given more than once (``?key=a&key=b``)."""
    return [name for name in names if len(st.query_params.get_all(name)) > 1]


def join_link(code: str) -> str:
    """The address students open: ``IRLAB_PUBLIC_URL`` or the teacher's own host, ``/join``."""
    base = os.environ.get("IRLAB_PUBLIC_URL", "").rstrip("/")
    if not base:
        url = urlsplit(st.context.url or "http://localhost:8501/room")
        base = f"{url.scheme}://{url.netloc}{url.path.rsplit('/', 1)[0]}"
    return f"{base}/join?code={code}"


def is_local(link: str) -> bool:
    """A link phones cannot open (the teacher opened the app as localhost)."""
    return urlsplit(link).hostname in ("localhost", "127.0.0.1", "::1")


#: A room that ended as planned is news, not an error: a notice (the other refusals are errors).
ENDED = {"closed": ":material/waving_hand:", "expired": ":material/schedule:"}


def say(error: Exception) -> None:
    """A refusal's message: a notice when the room ended as planned, else an error."""
    reason = getattr(error, "reason", None)
    if reason in ENDED:
        st.info(str(error), icon=ENDED[reason])
    else:
        st.error(str(error), icon=":material/block:")


def refuse(title: str, error: Exception, button: str, on_click, state) -> None:
    """Stop the page with ``title``, the refusal's message and one way on."""
    st.title(title)
    say(error)
    st.button(button, key=state.prefix + "again", on_click=on_click)
    state.keep_address()
    st.stop()


def why_waiting(room, per_address: int) -> str:
    """Why a student waits at the door, as the room is now: the lock, the class size the
    teacher set (with its number), else the rule on students from one address.

    >>> from ui.rooms.room import Room
    >>> why_waiting(Room("K7Q2MX", 0, 5, None, class_size=5), 3)
    'Room K7Q2MX has its class size, 5, in already.'
    """
    if room.locked:
        return f"Room {room.code} is locked: newcomers wait for the teacher."
    if room.class_size and room.members >= room.class_size:
        return f"Room {room.code} has its class size, {room.class_size}, in already."
    return (f"Room {room.code} has let in {per_address} students from your network address "
            "(a phone's hotspot, or a hall's Wi-Fi), the most from one address; the next "
            "ones wait for the teacher.")


def link_html(link: str) -> str:
    """The join address as HTML whose line breaks fall between its parts only: the origin,
    then each ``/…``, ``?…`` and ``&…`` (a projector's narrow column broke it mid-word).

    >>> link_html("http://10.0.0.5:8501/join?code=K7Q2MX")
    '<span>http://10.0.0.5:8501</span><span>/join</span><span>?code=K7Q2MX</span>'
    """
    url = urlsplit(link)
    origin = f"{url.scheme}://{url.netloc}" if url.scheme else ""
    rest = link[len(origin):]
    parts = [origin, *re.findall(r"[/?&#][^/?&#]*|[^/?&#]+", rest)]
    return "".join(f"<span>{html.escape(part)}</span>" for part in parts if part)


#: Beside the QR code when the app listens on this computer only: one compact note instead
#: of a warning box (that pushed the tally below the fold of a 1366x768 projector).
LOCAL_NOTE = ("<b>⚠ Only this computer can open this address.</b> For phones, start the app "
              "with <code>--server.address 0.0.0.0</code> and open it by this machine's "
              "network name or address (or set <code>IRLAB_PUBLIC_URL</code>).")


def qr_img(png: bytes, link: str, *, note: bool = True) -> str:
    """The QR code as an ``<img>`` with its alt text (``st.image`` gives it none) and a caption,
    one size whatever is on the stage (a latecomer scans it while a question is up). A link
    phones cannot open (:func:`is_local`) gets :data:`LOCAL_NOTE` beside the code (below it
    when it is large), unless ``note`` is false (the projector screen: the note is for the
    lecturer's page)."""
    import base64
    source = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    figure = (f'<figure class="room-qr"><img src="{source}" '
              f'alt="QR code of the join link {html.escape(link)}">'
              f'<figcaption>Scan to join</figcaption></figure>')
    aside = f'<p class="room-local" role="note">{LOCAL_NOTE}</p>' if note and is_local(link) \
        else ""
    return f'<div class="room-qr-row">{figure}{aside}</div>'


def style() -> None:
    # the theme's primary colour (AA for text in each theme, .streamlit/config.toml): markdown
    # has no CSS variable for it (components do)
    scheme = "dark" if getattr(st.context.theme, "type", "light") == "dark" else "light"
    primary = st.get_option(f"theme.{scheme}.primaryColor") or "#b02a37"
    st.html(f"<style>:root {{ --room-primary: {html.escape(primary)}; }}</style>" + STYLE)


def _card(item: Mapping, rank: int, graded: bool) -> tuple[str, str]:
    """The card's HTML, and its title when the card shows it as text ("" for a picture or a
    letter: STYLE's --w sizes the type of text titles only)."""
    title = html.escape(str(item.get("title", "")))
    relevant = int(item.get("grade", 0)) > 0
    try:
        picture = (f'<img src="{image_data_uri(item["id"])}" alt="{title}">'
                   if item["id"] in load_catalog().items else None)
    except KeyError:
        picture = None
    if picture is None and films.is_film(str(item.get("id"))):
        # a film: its genre's poster (its title in the alt text and the tooltip: eight
        # titles under the posters made two strips taller than a laptop's screen)
        (film,) = films.film_items([str(item["id"])])
        picture = f'<img src="{film["image"]}" alt="{title}, {html.escape(film["alt"])}">'
    text = ""
    if picture is None:
        # a letter (the lecture's documents), or a lecturer's own result title: smaller text
        text = str(item.get("title", "")) if len(str(item.get("title", ""))) > 2 else ""
        picture = (f'<div class="doc{" text" if text else ""}" lang="en" aria-hidden="true">'
                   f'{title}</div>')
    # graded boards show every grade (a plain ✓ would hide grade 1); binary ones just ✓
    mark = (f"✓ {item['grade']}" if graded else "✓") if relevant else "✗"
    word = "relevant" if relevant else "not relevant"
    return (f'<div class="room-card{" rel" if relevant else ""}" title="{title}: {word}">'
            f'<span class="rank">#{rank}</span>{picture}'
            f'<span class="mark" aria-label="{word}">{html.escape(mark)}</span></div>', text)


def _cut(k: int) -> str:
    return (f'<div class="room-cut" role="separator" aria-label="top K = {k}">'
            f'<span aria-hidden="true">top K = {k}</span></div>')


def rankings(question: Mapping) -> None:
    """The question's rankings (if any) as strips of small cards, relevance marked by ✓/✗
    and a green frame (never by colour alone); a question at K draws the K cut on each."""
    shown = question.get("rankings") or []
    graded = any(int(item.get("grade", 0)) > 1 for r in shown for item in r["items"])
    k = int(question.get("k") or 0)
    made = [[_card(item, n, graded) for n, item in enumerate(r["items"], start=1)] for r in shown]
    # STYLE's --w: the longest word of the titles shown as text, split after a hyphen as a
    # line may break there
    longest = min(30, max((len(word) for strip in made for _, text in strip
                           for word in re.findall(r"[^\s-]+-?", text)), default=1))
    for ranking, strip in zip(shown, made):
        cards = [card for card, _ in strip]
        label, items = html.escape(str(ranking.get("label", ""))), ranking["items"]
        card = "minmax(0, 5.5rem)"     # one row, at most 5.5rem a card (phones: STYLE)
        if 0 < k < len(items):          # a cut after the last card would cut nothing
            cards.insert(k, _cut(k))
            grid = (f"grid-template-columns: repeat({k}, {card}) 1.4em "
                    f"repeat({len(items) - k}, {card})")
        else:
            grid = f"grid-template-columns: repeat({len(items)}, {card})"
        cards = "".join(cards)
        st.markdown(f'<div class="room-strip"><div class="lbl">{label}</div><div class="room-cards" '
                    f'style="{grid}; --w: {longest}; --n: {len(items)}">{cards}</div></div>',
                    unsafe_allow_html=True)


def question_text(question: Mapping, *, heading: bool = True) -> None:
    """The prompt and its context, as text."""
    prompt = shown.markdown(question.get("prompt", ""))
    st.markdown(f"### {prompt}" if heading else f"**{prompt}**")
    if question.get("context"):
        st.caption(shown.markdown(question["context"]))
    if question.get("action"):
        st.markdown(f"**{shown.markdown(question['action'])}**")


def choice_label(question: Mapping, key: str | None) -> str:
    return {k: v for k, v in question.get("choices", [])}.get(key, "—")


def said(question: Mapping, key: str | None) -> str:
    """A choice as it reads in a sentence ("Your answer: it stays the same."): the question's
    phrase for it, else its label."""
    return (question.get("phrases") or {}).get(key) or choice_label(question, key)


def answers_strip(question: Mapping) -> None:
    """The answers as the phones offer them (the teacher's preview), as text."""
    chips = "".join(f'<span class="choice">{shown.html_text(text)}</span>'
                    for _, text in question.get("choices", []))
    # st.html, not st.markdown: Markdown would still read the text inside the HTML
    # (":material/warning:" came out altered); st.html shows the escaped text as it is
    st.html(f'<p class="room-choices"><span class="lbl">On the phones:</span>{chips}</p>')


def tally_figure(question: Mapping, counts: Mapping[str, int], revealed: bool,
                 *, height: int = 360) -> dict:
    """Counts per answer as horizontal bars (first answer on top); after the reveal the right
    one is green and marked ✓, the others grey. A plain Plotly dict, labels HTML-escaped."""
    choices = question.get("choices", [])
    correct = question.get("correct")
    labels, colours = [], []
    for key, text in choices:
        right = revealed and key == correct
        labels.append(("✓ " if right else "") + shown.html_text(text))
        colours.append(CORRECT if right else (OTHER if revealed and correct else WAITING))
    values = [int(counts.get(key, 0)) for key, _ in choices]
    top = max([*values, 1])
    # every answer labelled (Plotly drops category labels it finds crowded: with six answers
    # every other one went, the chosen bar's too), each bar tall enough for its label, and
    # the counts in the labels' type (Plotly shrank them to fit: ~6 px)
    height = max(height, 70 + 44 * len(choices))
    return {
        "data": [{"type": "bar", "orientation": "h", "y": labels[::-1], "x": values[::-1],
                  "marker": {"color": colours[::-1]}, "text": values[::-1],
                  "textposition": "outside", "cliponaxis": False, "hoverinfo": "skip",
                  "constraintext": "none", "textfont": {"size": 26}}],
        "layout": {"height": height, "margin": {"l": 10, "r": 50, "t": 10, "b": 30},
                   "font": {"size": 22}, "showlegend": False, "uniformtext": {"mode": False},
                   "xaxis": {"range": [0, top * 1.3], "dtick": max(1, round(top / 5)),
                             "title": {"text": "phones that chose it", "font": {"size": 22}},
                             "tickfont": {"size": 22}, "fixedrange": True},
                   "yaxis": {"automargin": True, "fixedrange": True, "tickmode": "array",
                             "tickvals": labels[::-1], "ticktext": labels[::-1],
                             "tickfont": {"size": 24}}},
    }


def code_codec():
    """A room code in a link (``?room=`` / ``?code=``), checked like the store checks it."""
    from ui.shared import page_state as ps
    from ui.rooms.room import normalise_code
    from ui.rooms.room_error import RoomError

    def parse(text: str) -> str:
        if not text:
            return ""
        try:
            return normalise_code(text)
        except RoomError as error:
            raise ValueError(text) from error
    return ps.Codec(parse, str, "a room code of 6 letters and digits")


def link_code_codec():
    """The room code of a teacher's or projector's link (``?room=``): a valid code as
    :func:`code_codec` reads it, and anything else kept as given (up to 64 characters), so that
    the store answers a malformed code as it answers a wrong key, and counts it as a guess
    (docs/rooms-security.md, "No oracle of live codes"), instead of the page showing another
    page for it."""
    from ui.shared import page_state as ps
    from ui.rooms.room import normalise_code
    from ui.rooms.room_error import RoomError

    def parse(text: str) -> str:
        try:
            return normalise_code(text) if text else ""
        except RoomError:
            return text[:64]
    return ps.Codec(parse, str, "a room code")


def token_codec(expected: str):
    """A random token in a link (the teacher's key, a student's id): URL-safe base64."""
    from ui.shared import page_state as ps

    def parse(text: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{0,64}", text):
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, expected)


def text_codec(most: int):
    """A teacher's text in a link (a question being written): any text up to ``most``
    characters; it is shown as text wherever it goes."""
    from ui.shared import page_state as ps

    def parse(text: str) -> str:
        if len(text) > most:
            raise ValueError(text)
        return text
    return ps.Codec(parse, str, f"a text of at most {most} characters")


def time_left(expires_at: float) -> str:
    """``"in 3 h 59 min"``."""
    import time
    minutes = max(0, int((expires_at - time.time()) // 60))
    return f"in {minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"in {minutes} min"
