"""The class pages' style: readable from the back of a room on the projector, whole on a
student's phone (ui/rooms/view.py draws the markup it styles)."""

STYLE = """<style>
.room-code { font-size: clamp(2.5rem, 5.2vw, 7.5rem); font-weight: 800; letter-spacing: .12em;
  font-family: ui-monospace, "DejaVu Sans Mono", monospace; line-height: 1.1;
  white-space: nowrap; }
.room-link { font-size: clamp(1rem, 1.4vw, 1.6rem); font-weight: 600; }
/* the address wraps between its parts (before "/", "?", "&"), never inside one unless a
   single part is wider than the column */
.room-url { display: block; }
.room-url > span { display: inline-block; max-width: 100%; overflow-wrap: anywhere; }
.room-qr-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0 1rem; }
.room-local { flex: 1 1 9rem; margin: 0; font-size: .85rem; line-height: 1.3; opacity: .9; }
.room-local code { white-space: nowrap; }   /* never "-" / "-server.address" */
.room-strip { margin: .1rem 0 .5rem; }
.room-strip .lbl { font-weight: 700; font-size: 1.1rem; }
.room-cards { display: grid; gap: .3rem; }
.room-card { text-align: center; border-radius: .4rem; padding: .15rem; min-width: 0;
  border: 3px solid #999; font-size: .85rem; line-height: 1.15; }
.room-card.rel { border-color: #009E73; background: rgba(0,158,115,.14); }
.room-card img { width: 100%; aspect-ratio: 1; object-fit: contain; display: block; }
/* a letter needs no square: lower cards keep two rankings and their answers on one screen */
.room-card .doc { aspect-ratio: 4 / 3; display: flex; align-items: center; justify-content: center;
  font-size: 1.6rem; font-weight: 700; }
/* a title breaks between words (not anywhere: "Alumi nium headp hon"); phones: see below */
.room-card .doc.text { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 4;
  overflow: hidden; overflow-wrap: break-word; word-break: normal; hyphens: auto;
  font-size: .75rem; font-weight: 600;
  aspect-ratio: auto; height: 4.6em; line-height: 1.15; text-align: left; }
/* the lecturer's own titles on the teacher's page: read at arm's length, not a phone's .75rem */
@media (min-width: 641px) {
  :is(.st-key-room_stage, .st-key-room_preview) .room-card .doc.text { font-size: 1rem; } }
.room-card .rank, .room-card .mark { font-weight: 700; display: block; }
/* the K cut between two cards, as the lessons' boards draw it (ui/shared/board/board.css) */
.room-cut { display: flex; flex-direction: column; align-items: center; gap: .2rem;
  color: var(--room-primary); font-weight: 700; font-size: .8rem; }
.room-cut::before, .room-cut::after { content: ""; flex: 1; border-left: 3px dashed currentColor; }
.room-cut span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }
/* the answers as the phones show them, in the teacher's preview */
.room-choices { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 0; }
.room-choices .choice { border: 1px solid rgba(128,128,128,.6); border-radius: .5rem;
  padding: .2rem .8rem; font-size: 1.1rem; }
.room-choices .lbl { font-size: .95rem; margin-right: .2rem; }
@media (max-width: 640px) {
  .room-cards { gap: .2rem; }
  .room-cut { font-size: .65rem; }
  .room-card { padding: .05rem; border-width: 2px; font-size: .72rem; container-type: inline-size; }
  .room-card .doc { font-size: 1.1rem; }
  /* a title's type shrinks until the rankings' longest word (--w letters) fits its card, to
     .55rem; a word too wide for one row of --n cards even then wraps the strip to rows of cards
     that hold it ("Dishwas/her" broke mid-letter: Linux has no hyphenation dictionary) */
  .room-cards { display: flex; flex-wrap: wrap; }
  .room-cut { flex: 0 0 1.4em; }
  /* 1.7em for the cut: its vertical label is wider than its 1.4em (16.6 px, not 14.6), and a
     strip of 6 or 8 cards wrapped its last card to a row of its own by half a pixel */
  .room-card { flex: 0 0 max(min(5.5rem, (100% - 1.7em - var(--n, 1) * .2rem) / var(--n, 1)),
                              var(--w, 1) * .62 * .55rem + .5rem); }
  .room-card .doc.text { font-size: clamp(.55rem, 100cqw / (var(--w, 1) * .62), .75rem); }
}
.room-qr { margin: .5rem 0; width: min(300px, 100%); text-align: center; }
.room-qr img { width: 100%; image-rendering: pixelated; border-radius: .3rem; }
.room-qr figcaption { font-size: .95rem; opacity: .8; }
/* a laptop's 768 px: the code, the QR with its note beside it and the tally in one screen; one
   size whether a question is up or not (a latecomer scans it while one is) */
@media (max-height: 800px) { .room-qr { width: min(160px, 100%); }
  .room-code { font-size: clamp(2.5rem, 4.2vw, 7.5rem); } }
/* the question on the projector, and its preview on the teacher's page, in the same type */
:is(.st-key-room_stage, .st-key-room_preview) h3 {
  font-size: clamp(1.6rem, 2.3vw, 2.6rem); line-height: 1.2; }
/* the teacher reads the preview at arm's length: a size smaller, so that a laptop's screen holds
   the kinds, the whole preview and "Ask the class" (a two-line question of two six-card rankings) */
.st-key-room_preview h3 { font-size: clamp(1.3rem, 1.8vw, 2.2rem); }
.st-key-room_preview .room-strip .lbl { font-size: 1.15rem; }
.st-key-room_preview .room-card .doc:not(.text) { aspect-ratio: 2 / 1; }
:is(.st-key-room_stage, .st-key-room_preview) [data-testid="stCaptionContainer"] p {
  font-size: 1.1rem; }
:is(.st-key-room_stage, .st-key-room_preview) [data-testid="stMarkdownContainer"] p {
  font-size: 1.25rem; }
:is(.st-key-room_stage, .st-key-room_preview) .room-strip .lbl { font-size: 1.4rem; }
@media (min-width: 641px) {
  :is(.st-key-room_stage, .st-key-room_preview) .room-cut { font-size: clamp(.8rem, .9vw, 1.1rem); }
}
.room-tag { font-size: .9rem; font-weight: 600; text-transform: uppercase; letter-spacing: .06em;
  opacity: .85; }
.st-key-join_answers button { min-height: 3.2rem; }
.st-key-join_pairs { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); }
@media (max-width: 640px) {   /* a phone: the question, its boards and every answer in view */
  .st-key-join_question h3 { font-size: 1.3rem; line-height: 1.25; padding: 0 0 .25rem; }
  .st-key-join_answers button { min-height: 2.8rem; }
}
.st-key-join_answers button p, .st-key-join_form button p { font-size: 1.2rem; }
</style>"""
