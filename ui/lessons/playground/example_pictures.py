"""Pictures a lecturer uploads for their own example: checked, then re-encoded.

An upload is never served as it came. Its type is read from its content (not its name or the
browser's word), its byte size and its declared dimensions are checked *before* any pixel is
decoded (a 20,000 x 20,000 PNG of a few kB would take 1.6 GB once decoded), and what the board
gets is a fresh WebP of at most :data:`BOX` pixels a side, made by Pillow from the decoded
pixels: metadata, scripts and anything else the file carried are gone.
"""
from __future__ import annotations

import base64
import io
import re
import warnings

#: Accepted by content: what browsers show and Pillow decodes well. SVG is refused: it is code.
FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
MAX_BYTES = 5 * 1024 * 1024
#: Refused above this many pixels (declared by the file's header, checked before decoding).
MAX_PIXELS = 25_000_000
MAX_SIDE = 10_000
#: The re-encoded picture's longest side: a card shows it at most 170 px wide (presenter view).
BOX = 320


def check_picture(data: bytes) -> str:
    """A safe ``data:image/webp;base64,...`` URI of the picture in ``data``.

    Raises
    ------
    ValueError
        With a reason a lecturer can act on: not a picture, too many bytes, too many pixels.

    Examples
    --------
    >>> from PIL import Image
    >>> buffer = io.BytesIO(); Image.new("RGB", (640, 480), "red").save(buffer, "PNG")
    >>> check_picture(buffer.getvalue())[:23]
    'data:image/webp;base64,'
    >>> check_picture(b"<svg onload=alert(1)>")
    Traceback (most recent call last):
    ...
    ValueError: not a picture Pillow can read as PNG, JPEG, WebP or GIF.
    """
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_BYTES:
        raise ValueError(f"{len(data) / 1e6:.1f} MB; a picture may have at most "
                         f"{MAX_BYTES // 1024 // 1024} MB.")
    try:
        with warnings.catch_warnings():
            # Pillow's own bomb check warns (or raises) by a global limit: ours comes first.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)   # reads the header only
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        # declared past Pillow's own limit (Image.MAX_IMAGE_PIXELS): refused unread
        found = re.search(r"\((\d+) pixels\)", str(exc))
        count = f"{int(found[1]) // 1_000_000:,} million" if found else \
            f"over {Image.MAX_IMAGE_PIXELS // 1_000_000} million"
        raise ValueError(f"the file declares {count} pixels; at most "
                         f"{MAX_PIXELS // 1_000_000} million.") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ValueError("not a picture Pillow can read as PNG, JPEG, WebP or GIF.") from None
    with image:
        width, height = image.size
        if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
            raise ValueError(f"{width:,} × {height:,} pixels; at most {MAX_SIDE:,} a side and "
                             f"{MAX_PIXELS // 1_000_000} million in all.")
        if image.format == "JPEG":
            image.draft("RGB", (BOX * 2, BOX * 2))   # decode at 1/2..1/8 scale: less memory
        try:
            image.seek(0)
            image.load()
            image.thumbnail((BOX, BOX))
            out = image.convert("RGBA" if _has_alpha(image) else "RGB")
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            raise ValueError("the picture's data is broken (it could not be decoded).") from None
    buffer = io.BytesIO()
    out.save(buffer, "WEBP", quality=80, method=4)
    return "data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _has_alpha(image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and
                                                   "transparency" in image.info)
