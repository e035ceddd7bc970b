"""A refused request of the class rooms, and the sentences that say why."""


class RoomError(Exception):
    """A refused request, with ``reason`` (a key of :data:`MESSAGES`) and a sentence to show."""

    def __init__(self, reason: str, **details):
        self.reason = reason
        self.details = details
        if reason == "rate":
            details.setdefault("why", "Too many tries in a short time.")
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
    "full": "Room {code}'s door is full: {waiting} students are already waiting for the "
            "teacher to let them in, the most a room lets wait. Tell your teacher: they can "
            "let the waiting in, or turn them away.",
    "turned_away": "Your teacher turned away the students waiting at the door of room {code}. "
                   "If you belong to this class, tell your teacher.",
    "rooms_here": "{most} rooms opened from your network address are still open, the most one "
                  "address may hold at once. Close one (its page: Close the room) or wait "
                  "until one expires.",
    "rooms_server": "This server holds {most} open rooms, the most it keeps at once. Try again "
                    "in a few minutes, or ask whoever runs it.",
    "duplicate": "You have already answered this question: one answer per question.",
    "invalid": "That is not one of this question's answers.",
    "stale": "This question is closed: the teacher has revealed the answer or moved on.",
    "no_question": "There is no question to answer yet.",
    "rate": "{why} Wait {wait} seconds, then try again.",
    "bad_question": "This question cannot be posed: {problem}.",
}
