"""Print this machine's IPv4 addresses other devices on the network can reach, one a line.

scripts/run.sh calls it when the server listens on every interface (HOST=0.0.0.0), so the
address to hand to friends is on screen.  Standard library only: the addresses the host name
resolves to, and the one the system would send from toward the internet (a UDP "connect" sends
nothing).  Loopback and link-local addresses are left out.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket


def lan_addresses() -> list[str]:
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    kept: list[str] = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in kept:
            kept.append(address)
    return kept


if __name__ == "__main__":
    for address in lan_addresses():
        print(address)
