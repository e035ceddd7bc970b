"""Class rooms: a teacher's room, its questions and the class's answers (``store``, on the
tables of ``_db``), a room's code and keys (``room``), how often anyone may act (``limits``),
the questions and their right answers (``questions``), the join link's QR code (``qr``) and
what the two class pages share (``view``)."""
