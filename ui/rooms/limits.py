"""How often a client, a room and the whole server may join, answer, guess codes and open rooms.

Every count lives in the rooms' database (the ``hits`` table), so a limit holds whatever app
process serves a request (``deploy/run_class.py`` runs several behind HAProxy), and across
reloads, new browser sessions and cleared storage: it counts the client's *address*, not
anything the browser keeps. No Streamlit here.

The numbers (see ``docs/rooms-security.md``, which quotes this table):

============  ======================  =======================  ==========================
action        per client address      per room                 per server (all rooms)
============  ======================  =======================  ==========================
join          10 a minute             —                        1200 a minute
answer        30 a minute             600 a minute             3000 a minute
guess         20 in 10 minutes        —                        300 in 10 minutes
open          5 in 10 minutes         —                        —
============  ======================  =======================  ==========================

Limits that protect the server without handing it to one prankster:

* a per-address number is always **below a quarter** of the server's for the same action,
  whatever ``IRLAB_ROOMS_PER_ADDRESS`` multiplies it by (:func:`scaled`), so one address never
  uses a server's budget up;
* opening a room has no server-wide *rate* (30 anonymous openings locked every teacher out for
  ten minutes): the server holds at most :data:`MAX_ROOMS` rooms at once, and one address at
  most :data:`MAX_ROOMS_PER_ADDRESS` of them, so filling the server takes
  ``MAX_ROOMS / MAX_ROOMS_PER_ADDRESS`` addresses for the rooms' whole lifetime;
* a room has no join rate of its own (a flood of joins from many addresses shut honest
  students out): what one room can hold is bounded by its door (class size, at most
  :data:`MAX_MEMBERS` admitted, :data:`MAX_WAITING` waiting, which the teacher can turn away);
* an answer is counted only once the store knows it comes from an admitted student, so a
  flood of answers from ids nobody let in consumes no one's budget;
* the server's guesses, once used up, refuse only addresses that have guessed wrong
  themselves in the window: a student from an address with no wrong code still joins a live
  room (and a wrong code from there is its first guess, refused from then on).

Beyond these, one room admits at most :data:`PER_ADDRESS_IN_ROOM` students from one address
for its whole life: the next ones from there wait for the teacher, who sees them waiting.

A *guess* is a code that opened nothing: a join with a code that is no open room, or a
teacher link whose key is wrong (or whose room is gone, or whose code is malformed). While an
address has used its guesses, every such attempt from there is refused *before* the code is
looked up, so the refusal says nothing about the code either.
"""
from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from typing import NamedTuple

#: (scope, action) -> (how many, per seconds). Scopes: "address", "room", "server".
LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("address", "join"): (10, 60), ("server", "join"): (1200, 60),
    ("address", "answer"): (30, 60), ("room", "answer"): (600, 60),
    ("server", "answer"): (3000, 60),
    ("address", "guess"): (20, 600), ("server", "guess"): (300, 600),
    ("address", "open"): (5, 600),
}
#: Students one address may bring into one room before the next ones wait for the teacher
#: (two friends on one phone's hotspot, say); scaled like the per-address limits.
PER_ADDRESS_IN_ROOM = 3
#: Students a room lets wait for the teacher (over the class size, or locked) at once.
MAX_WAITING = 30
#: Students a room admits at most, whatever its class size (a lecture hall's worth).
MAX_MEMBERS = 500
#: Rooms open at once on the server, and from one client address (scaled like the other
#: per-address numbers, and kept below a quarter of :data:`MAX_ROOMS`).
MAX_ROOMS = 1000
MAX_ROOMS_PER_ADDRESS = 5
#: A per-address number is at most this share of the server's (whatever the factor).
ADDRESS_SHARE = 4

#: How a refusal names what was used up (RoomError "rate": its real cause).
NOUNS = {"join": "joins", "answer": "answers", "guess": "codes that opened no room",
         "open": "rooms opened"}
WHOSE = {"address": "from your network address", "room": "in this room",
         "server": "on this server, from all its users"}


def cause(scope: str, action: str, rule: tuple[int, float]) -> str:
    """The sentence a ``rate`` refusal gives: what was used up, by whom, and the limit.

    >>> cause("address", "join", (10, 60))
    'Too many joins from your network address (the limit is 10 a minute).'
    """
    return f"Too many {NOUNS.get(action, action)} {WHOSE[scope]} (the limit is {describe(rule)})."


def address_cap(server_most: int) -> int:
    """The most a per-address number may be beside a server's ``server_most``: below a
    quarter of it, so that one address never uses the server's up.

    >>> address_cap(300), address_cap(1200), address_cap(2)
    (75, 300, 1)
    """
    return max(1, server_most // ADDRESS_SHARE)


def address_key(address: str | None) -> str:
    """The client a per-address limit counts: an IPv4 address as it is, an IPv6 address's /64
    (a phone is given a whole /64 and may pick any address in it), ``"local"`` for this machine
    (Streamlit reports no address for a loopback connection).

    >>> address_key("203.0.113.9"), address_key(None)
    ('203.0.113.9', 'local')
    >>> address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::7")
    True
    >>> address_key("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    """
    if not address or not isinstance(address, str):      # (a test harness gives a mock)
        return "local"
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return "other:" + address.strip()[:64]
    if ip.version == 6:
        if ip.ipv4_mapped is not None:          # ::ffff:203.0.113.9 is an IPv4 client
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def describe(rule: tuple[int, float] | None) -> str:
    """A limit in words, as docs/rooms-security.md's table gives it.

    >>> describe((10, 60)), describe((20, 600)), describe(None)
    ('10 a minute', '20 in 10 minutes', '—')
    """
    if rule is None:
        return "—"
    most, per = rule
    return f"{most} a minute" if per == 60 else f"{most} in {per / 60:g} minutes"


def table_rows(limits: dict = LIMITS) -> list[str]:
    """The limits as the rows of a Markdown table: action | per address | per room | server."""
    actions = dict.fromkeys(action for _, action in limits)
    return [f"| {action} | " + " | ".join(describe(limits.get((scope, action)))
                                           for scope in ("address", "room", "server")) + " |"
            for action in actions]


def scaled(limits: dict, per_address: float = 1.0) -> dict:
    """``limits`` with every per-address count multiplied by ``per_address`` (a deployment
    whose students all share one public address raises it; ``IRLAB_ROOMS_PER_ADDRESS``).

    A per-address number stays below a quarter of the server's (:func:`address_cap`): with
    the factor 20, one address's guesses (400) would have been more than the server's (300).

    >>> scaled({("address", "join"): (10, 60), ("room", "join"): (200, 60)}, 5)
    {('address', 'join'): (50, 60), ('room', 'join'): (200, 60)}
    >>> scaled({("address", "guess"): (20, 600), ("server", "guess"): (300, 600)}, 20)
    {('address', 'guess'): (75, 600), ('server', 'guess'): (300, 600)}
    """
    out = {}
    for (scope, action), (most, per) in limits.items():
        if scope == "address":
            most = max(1, round(most * per_address))
            server = limits.get(("server", action))
            if server is not None:
                most = min(most, address_cap(server[0]))
        out[(scope, action)] = (most, per)
    return out


def client_scopes(address: str | None) -> list[tuple[str, str]]:
    """The scopes one client's action counts against: its address (:func:`address_key`) and
    the server.

    >>> client_scopes("203.0.113.7")
    [('address', '203.0.113.7'), ('server', '')]
    """
    return [("address", address_key(address)), ("server", "")]


class Refusal(NamedTuple):
    """A limit used up: how long until it frees, and the sentence that says which."""
    wait: int
    why: str


class Counter:
    """Checks and counts actions in the ``hits`` table, inside the caller's transaction."""

    def __init__(self, limits: dict, clock: Callable[[], float]):
        self.limits = limits
        self.clock = clock

    def window(self) -> float:
        """The longest period any limit counts over (older hits can go)."""
        return max(per for _, per in self.limits.values())

    def used(self, run, scope: str, who: str, action: str) -> int:
        """How many ``action`` ``(scope, who)`` has done within its limit's period."""
        rule = self.limits.get((scope, action))
        if rule is None:
            return 0
        (count,), = run("SELECT COUNT(*) FROM hits WHERE who = ? AND action = ? AND at > ?",
                        (f"{scope}:{who}", action, self.clock() - rule[1]))
        return int(count)

    def over(self, run, action: str, scopes: Iterable[tuple[str, str]]) -> Refusal | None:
        """The refusal (seconds to wait, and why) when any of ``scopes`` (``(scope, who)``
        pairs) has used up ``action``; None when all may go on. Counts nothing."""
        now = self.clock()
        for scope, who in scopes:
            rule = self.limits.get((scope, action))
            if rule is None:
                continue
            most, per = rule
            (count, oldest), = run("SELECT COUNT(*), MIN(at) FROM hits "
                                   "WHERE who = ? AND action = ? AND at > ?",
                                   (f"{scope}:{who}", action, now - per))
            if count >= most:
                return Refusal(max(1, int(oldest + per - now + 0.999)),
                               cause(scope, action, rule))
        return None

    def count(self, run, action: str, scopes: Iterable[tuple[str, str]]) -> None:
        """Record one ``action`` against each of ``scopes`` that has a limit for it."""
        now = self.clock()
        for scope, who in scopes:
            if (scope, action) in self.limits:
                run("INSERT INTO hits (who, action, at) VALUES (?, ?, ?)",
                    (f"{scope}:{who}", action, now))

    def guessing(self, run, client: list[tuple[str, str]]) -> Refusal | None:
        """The refusal of a join or a teacher link from ``client`` (:func:`client_scopes`)
        because of guesses, before any code is looked up: the address has used its own; or the
        server has used its guesses *and* this address guessed wrong within them (an address
        with no wrong code still joins: a flood of wrong codes from elsewhere refuses no one
        else's students). Counts nothing."""
        refusal = self.over(run, "guess", client[:1])
        if refusal is not None:
            return refusal
        server = self.over(run, "guess", client[1:])
        if server is not None and self.used(run, *client[0], "guess"):
            return server._replace(why=server.why + " One of them came from your network "
                                   "address, so no code is looked up from there until then.")
        return None
