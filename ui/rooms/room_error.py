"""A refused request of the class rooms, and the sentences that say why."""


class RoomError(Exception):
    """A refused request, with ``reason`` (a key of :data:`MESSAGES`) and a sentence to show."""

    def __init__(self, reason: str, **details):
        self.reason = reason
        self.details = details
        super().__init__(MESSAGES[reason].format(**details))


MESSAGES = {
    "bad_code": "A room code has 6 characters, letters and digits (no 0, 1, I, L or O). "
                "Check the code on the projector.",
    "unknown": "There is no room with the code {code}. Check the code on the projector.",
    "expired": "Room {code} has expired (rooms last {hours} hours) and its answers are deleted. "
               "Ask your teacher for a new code.",
    "closed": "Your teacher has closed room {code}. Thank you for taking part!",
    "forbidden": "This teacher link opens no room: its key is missing or wrong, or its room "
                 "has ended (closed, or expired after {hours} hours). Only the link shown when "
                 "the room was opened can run it — students cannot.",
    "not_admitted": "Your teacher has not let you into this room yet: wait a moment.",
    "full": "Room {code} is full: your teacher has let in the whole class. "
            "If you belong to it, tell your teacher.",
    "duplicate": "You have already answered this question: one answer per question.",
    "invalid": "That is not one of this question's answers.",
    "stale": "This question is closed: the teacher has revealed the answer or moved on.",
    "no_question": "There is no question to answer yet.",
    "rate": "Too many tries in a short time. Wait {wait} seconds, then try again.",
    "bad_question": "This question cannot be posed: {problem}.",
}
