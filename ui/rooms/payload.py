"""What a question posed in a class room must be: its limits and the check every question passes."""
from __future__ import annotations

import json
from collections.abc import Mapping

from ui.rooms.room_error import RoomError

MAX_PROMPT, MAX_CHOICE, MAX_CHOICES = 300, 80, 6


def check_payload(payload: Mapping) -> dict:
    """The question as the store keeps it, after the checks every question must pass."""
    def refuse(problem):
        raise RoomError("bad_question", problem=problem)
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        refuse("the question has no text")
    if len(prompt) > MAX_PROMPT:
        refuse(f"the question is longer than {MAX_PROMPT} characters")
    choices = payload.get("choices")
    if not isinstance(choices, (list, tuple)) or not 2 <= len(choices) <= MAX_CHOICES:
        refuse(f"a question needs 2 to {MAX_CHOICES} answers")
    keys = []
    for pair in choices:
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                or not all(isinstance(x, str) and x.strip() for x in pair)):
            refuse("every answer needs a key and a text")
        if len(pair[1]) > MAX_CHOICE:
            refuse(f"an answer is longer than {MAX_CHOICE} characters")
        keys.append(pair[0])
    if len(set(keys)) != len(keys) or len({label.strip().casefold() for _, label in choices}) \
            != len(keys):
        refuse("two answers are the same")
    correct = payload.get("correct")
    if correct is not None and correct not in keys:
        refuse("the right answer is not one of the answers")
    return json.loads(json.dumps(dict(payload)))     # plain JSON, a copy
