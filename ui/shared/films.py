"""The film service's films as cards: a poster per genre (an SVG made here, no files, no network)
and each film's title, for the ranking board (Practice) and the class room's strips.

The films come from :mod:`course.reclab.data` (Lesson 8's generated service). A poster shows
the genre twice, as a word and as a pictogram, on the genre's colour, so two films of one
genre look alike and a list's spread over genres can be seen at a glance.
"""
from __future__ import annotations

import base64
import functools
import html

#: Okabe-Ito colours, one per genre, and the text colour that reads on each (AA).
GENRE_COLOURS = {
    "Drama": ("#0072B2", "#ffffff"), "Comedy": ("#F0E442", "#1b1b1b"),
    "Sci-fi": ("#56B4E9", "#1b1b1b"), "Thriller": ("#5f5f5f", "#ffffff"),
    "Animation": ("#E69F00", "#1b1b1b"), "Documentary": ("#009E73", "#ffffff"),
    "Romance": ("#CC79A7", "#1b1b1b"), "Horror": ("#7a1f1f", "#ffffff"),
}
#: One pictogram per genre, drawn in the text colour (``{ink}``) on a 64 x 56 area.
_PICTOGRAMS = {
    "Drama": '<path d="M22 22c0 8 5 14 10 14s10-6 10-14z" fill="none" stroke="{ink}" '
             'stroke-width="3"/><circle cx="27" cy="26" r="2" fill="{ink}"/><circle cx="37" '
             'cy="26" r="2" fill="{ink}"/><path d="M27 33q5-4 10 0" fill="none" stroke="{ink}" '
             'stroke-width="2.5"/>',
    "Comedy": '<circle cx="32" cy="28" r="13" fill="none" stroke="{ink}" stroke-width="3"/>'
              '<circle cx="27" cy="24" r="2" fill="{ink}"/><circle cx="37" cy="24" r="2" '
              'fill="{ink}"/><path d="M25 31q7 7 14 0" fill="none" stroke="{ink}" '
              'stroke-width="2.5"/>',
    "Sci-fi": '<circle cx="32" cy="28" r="9" fill="{ink}"/><ellipse cx="32" cy="28" rx="19" '
              'ry="5" fill="none" stroke="{ink}" stroke-width="2.5" '
              'transform="rotate(-20 32 28)"/>',
    "Thriller": '<path d="M14 28q18-16 36 0q-18 16-36 0z" fill="none" stroke="{ink}" '
                'stroke-width="3"/><circle cx="32" cy="28" r="6" fill="{ink}"/>',
    "Animation": '<path d="M32 13l4.4 9.6 10.4 1.2-7.7 7.1 2.1 10.3L32 36l-9.2 5.2 2.1-10.3'
                 '-7.7-7.1 10.4-1.2z" fill="{ink}"/>',
    "Documentary": '<circle cx="32" cy="28" r="13" fill="none" stroke="{ink}" stroke-width="3"/>'
                   '<ellipse cx="32" cy="28" rx="6" ry="13" fill="none" stroke="{ink}" '
                   'stroke-width="2"/><path d="M19 28h26" stroke="{ink}" stroke-width="2"/>',
    "Romance": '<path d="M32 42s-14-8.5-14-18a7.5 7.5 0 0 1 14-3.8A7.5 7.5 0 0 1 46 24'
               'c0 9.5-14 18-14 18z" fill="{ink}"/>',
    "Horror": '<path d="M20 44V26a12 12 0 0 1 24 0v18l-4-3-4 3-4-3-4 3-4-3z" fill="{ink}"/>'
              '<circle cx="27" cy="26" r="2.5" fill="{paper}"/><circle cx="37" cy="26" r="2.5" '
              'fill="{paper}"/>',
}


#: The poster's width and height in SVG units: square, so it fills a room card's square and a
#: board's picture box (wider than tall on a laptop) more than a portrait poster did, and the
#: longest genre name ("Documentary") fits between its film holes.
POSTER = 84
#: The genre's name at most this many units wide (between the holes), this tall at most.
_WORD_WIDTH, _WORD_SIZE = 72, 15


def word_size(genre: str) -> float:
    """The genre's font size on the poster: the largest up to 15 units that keeps the word
    inside the holes (a bold sans letter is about 0.62 of the size wide).

    >>> word_size("Drama"), round(word_size("Documentary"), 1)
    (15, 10.6)
    """
    return min(_WORD_SIZE, _WORD_WIDTH / (0.62 * max(1, len(genre))))


@functools.cache
def poster(genre: str) -> str:
    """A genre's poster as a ``data:`` URI: its colour, its pictogram and its name. The name is
    drawn as large as fits and held to the space between the film holes (``textLength``), so
    a long one never spills over the poster's edge."""
    paper, ink = GENRE_COLOURS.get(genre, ("#888888", "#ffffff"))
    picture = _PICTOGRAMS.get(genre, "").format(ink=ink, paper=paper)
    holes = "".join(f'<rect x="{x}" y="{y}" width="3" height="4" rx="1" fill="{ink}" '
                    f'opacity=".45"/>' for x in (3, POSTER - 6) for y in range(6, 80, 9))
    size = word_size(genre)
    fit = (f' textLength="{_WORD_WIDTH}" lengthAdjust="spacingAndGlyphs"'
           if 0.62 * size * len(genre) > _WORD_WIDTH else "")
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {POSTER} {POSTER}" '
           f'width="{POSTER}" height="{POSTER}">'
           f'<rect width="{POSTER}" height="{POSTER}" rx="5" fill="{paper}"/>{holes}'
           f'<g transform="translate(10 2)">{picture}</g>'
           f'<text x="{POSTER / 2:g}" y="76" font-family="sans-serif" font-size="{size:.3g}" '
           f'font-weight="700" text-anchor="middle" fill="{ink}"{fit}>{html.escape(genre)}'
           f'</text></svg>')
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


@functools.cache
def _films() -> dict[str, tuple[str, str]]:
    """item id -> (title, genre) of every film of the service."""
    from course.reclab.data import generate
    items = generate().items
    return dict(zip(items["item_id"], zip(items["title"], items["genre"])))


def is_film(item_id: str) -> bool:
    return item_id in _films()


def title(item_id: str) -> str:
    return _films()[item_id][0]


def film_items(ids) -> list[dict]:
    """The ranking board's items for these films (``ui.shared.board.ranking_board``)."""
    out = []
    for i in ids:
        name, genre = _films()[i]
        # the genre in the title too: the board's text is read at its size, the poster's
        # word only as large as the picture (about 7 px in a laptop's small boards)
        out.append({"id": i, "title": f"{name} · {genre}", "image": poster(genre),
                    "alt": f"{genre} poster"})
    return out
