"""How often a client, a room and the whole server may join, answer, guess codes and open rooms.

Every count lives in the rooms' database (the ``hits`` table), so a limit holds whatever app
process serves a request (``deploy/run_class.py`` runs several behind HAProxy), and across
reloads, new browser sessions and cleared storage: it counts the client's *address*, not
anything the browser keeps. No Streamlit here.

The numbers (see ``docs/rooms-security.md``, which quotes this table):

============  ======================  =======================  ==========================
action        per client address      per room                 per server (all rooms)
============  ======================  =======================  ==========================
join          10 a minute             200 a minute             1200 a minute
answer        30 a minute             600 a minute             3000 a minute
guess         20 in 10 minutes        —                        300 in 10 minutes
open          5 in 10 minutes         —                        30 in 10 minutes
============  ======================  =======================  ==========================

Beyond these, one room admits at most :data:`PER_ADDRESS_IN_ROOM` students from one address
for its whole life: the next ones from there wait for the teacher, who sees them waiting.

A *guess* is a code that opened nothing: a join with a code that is no open room, or a
teacher link whose key is wrong (or whose room is gone). While an address or the server has
used its guesses, every such attempt is refused *before* the code is looked up, so the refusal
says nothing about the code either.
"""
from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable

#: (scope, action) -> (how many, per seconds). Scopes: "address", "room", "server".
LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("address", "join"): (10, 60), ("room", "join"): (200, 60), ("server", "join"): (1200, 60),
    ("address", "answer"): (30, 60), ("room", "answer"): (600, 60),
    ("server", "answer"): (3000, 60),
    ("address", "guess"): (20, 600), ("server", "guess"): (300, 600),
    ("address", "open"): (5, 600), ("server", "open"): (30, 600),
}
#: Students one address may bring into one room before the next ones wait for the teacher
#: (two friends on one phone's hotspot, say); scaled like the per-address limits.
PER_ADDRESS_IN_ROOM = 3
#: Students a room lets wait for the teacher (over the class size, or locked) at once.
MAX_WAITING = 30
#: Students a room admits at most, whatever its class size (a lecture hall's worth).
MAX_MEMBERS = 500


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

    >>> scaled({("address", "join"): (10, 60), ("room", "join"): (200, 60)}, 5)
    {('address', 'join'): (50, 60), ('room', 'join'): (200, 60)}
    """
    return {(scope, action): ((max(1, round(most * per_address)) if scope == "address"
                               else most), per)
            for (scope, action), (most, per) in limits.items()}


class Counter:
    """Checks and counts actions in the ``hits`` table, inside the caller's transaction."""

    def __init__(self, limits: dict, clock: Callable[[], float]):
        self.limits = limits
        self.clock = clock

    def window(self) -> float:
        """The longest period any limit counts over (older hits can go)."""
        return max(per for _, per in self.limits.values())

    def over(self, run, action: str, scopes: Iterable[tuple[str, str]]) -> int | None:
        """Seconds to wait when any of ``scopes`` (``(scope, who)`` pairs) has used up
        ``action``; None when all may go on. Counts nothing."""
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
                return max(1, int(oldest + per - now + 0.999))
        return None

    def count(self, run, action: str, scopes: Iterable[tuple[str, str]]) -> None:
        """Record one ``action`` against each of ``scopes`` that has a limit for it."""
        now = self.clock()
        for scope, who in scopes:
            if (scope, action) in self.limits:
                run("INSERT INTO hits (who, action, at) VALUES (?, ?, ?)",
                    (f"{scope}:{who}", action, now))
