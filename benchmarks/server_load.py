"""The HTTP API under load: 50 concurrent clients asking for legal event moves,
alone and while costly requests run, and the CPU left busy after a time-out.

Starts ``legalis.server`` in a subprocess on a free loopback port, then drives it
for a fixed time with concurrent clients (aiohttp, asyncio), each sending one
request after another: the legal executions of a Liberty or Death event (the
1776 set-up, a sample-deck card, a page of 20). It prints the throughput and the
latency percentiles side by side with the target, then, with ``--heavy N``, runs
the same mix again while N more clients send costly requests (a count of a stress
card of ``benchmarks/heavy_move_deck.toml`` that outlasts the server's time limit),
and last sends one costly request alone and measures the CPU time the server's
processes spend in the second after its 503 (goal: back to idle within a second).

    pip install -e '.[bench]'
    python benchmarks/server_load.py [--clients 50] [--seconds 10] [--card 24]
    python benchmarks/server_load.py --seconds 4 --heavy 2 --time-limit 2

The clients use aiohttp: with httpx, the 50 clients alone kept their core 90%
busy and their own queueing showed up as server latency.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import aiohttp
import httpx

TARGET_P99_MS = 100.0
IDLE_SHARE = 0.05  # of one core: a server at rest
SERVER = (
    "from legalis.server import Limits, serve; import sys; "
    "serve('127.0.0.1', int(sys.argv[1]), "
    "Limits(threads=int(sys.argv[3]), time_limit=float(sys.argv[4])), int(sys.argv[2]))"
)
HEAVY_DECK = Path(__file__).with_name("heavy_move_deck.toml")
HEAVY_CARD = 91  # its count takes several seconds: past a short time limit
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with code {process.returncode}")
        try:
            if httpx.get(f"{url}/v1/games", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not start in time")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def client(
    session: aiohttp.ClientSession,
    url: str,
    body: dict[str, object],
    stop_at: float,
    warm_until: float,
    latencies: list[float],
) -> tuple[int, int]:
    """One client: request after request until ``stop_at``; (ok, failed) counts."""
    ok = failed = 0
    while time.perf_counter() < stop_at:
        started = time.perf_counter()
        async with session.post(f"{url}/v1/lod/event-moves", json=body) as response:
            await response.read()
            status = response.status
        took = time.perf_counter() - started
        if status != 200:
            failed += 1
            continue
        ok += 1
        if started >= warm_until:
            latencies.append(took)
    return ok, failed


async def heavy_client(
    session: aiohttp.ClientSession, url: str, body: dict[str, object], stop_at: float
) -> dict[int, int]:
    """A client of costly requests, one after another; the count of each status."""
    statuses: dict[int, int] = {}
    while time.perf_counter() < stop_at:
        async with session.post(f"{url}/v1/lod/event-moves", json=body) as response:
            await response.read()
            statuses[response.status] = statuses.get(response.status, 0) + 1
            if response.status == 503 and "Retry-After" in response.headers:
                await asyncio.sleep(0.1)  # refused at once: try again soon
    return statuses


async def drive(
    url: str,
    body: dict[str, object],
    clients: int,
    seconds: float,
    heavy_body: dict[str, object] | None = None,
    heavy: int = 0,
) -> None:
    latencies: list[float] = []
    began = time.perf_counter()
    warm_until = began + min(1.0, seconds / 5)
    stop_at = began + seconds
    connections = aiohttp.TCPConnector(limit=0)  # one kept-alive connection per client
    async with aiohttp.ClientSession(connector=connections) as session:
        costly = [
            asyncio.ensure_future(heavy_client(session, url, heavy_body, stop_at))
            for _ in range(heavy if heavy_body is not None else 0)
        ]
        counts = await asyncio.gather(
            *(client(session, url, body, stop_at, warm_until, latencies) for _ in range(clients))
        )
        heavy_statuses = await asyncio.gather(*costly)
    measured = time.perf_counter() - warm_until
    ok, failed = sum(c[0] for c in counts), sum(c[1] for c in counts)
    if not latencies:
        raise SystemExit(f"no successful request ({failed} failed)")
    p50, p95, p99 = (1000 * percentile(latencies, q) for q in (0.50, 0.95, 0.99))
    print(f"{clients} clients, {seconds:g} s (first {warm_until - began:.1f} s not measured)")
    print(f"requests: {ok} ok, {failed} failed; {len(latencies) / measured:,.0f} requests/s")
    if heavy_statuses:
        total: dict[int, int] = {}
        for statuses in heavy_statuses:
            for status, number in statuses.items():
                total[status] = total.get(status, 0) + number
        shown = ", ".join(f"{number} x {status}" for status, number in sorted(total.items()))
        print(f"costly requests meanwhile ({heavy} clients): {shown}")
    print(f"{'latency':<10}{'measured ms':>13}{'target ms':>11}{'ratio':>8}")
    print(f"{'p50':<10}{p50:>13.1f}{'':>11}{'':>8}")
    print(f"{'p95':<10}{p95:>13.1f}{'':>11}{'':>8}")
    verdict = "met" if p99 < TARGET_P99_MS else "NOT met"
    print(f"{'p99':<10}{p99:>13.1f}{TARGET_P99_MS:>11.0f}{p99 / TARGET_P99_MS:>8.2f}  {verdict}")
    print(f"mean {1000 * statistics.fmean(latencies):.1f} ms, max {1000 * max(latencies):.1f} ms")


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            parents[int(entry.name)] = int(fields[1])
    tree, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def cpu_seconds(root: int) -> float:
    """CPU time (user and system) of ``root``'s process tree so far, ended processes
    not counted."""
    total = 0
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def busy_after_timeout(url: str, server: int, heavy_body: dict[str, object]) -> None:
    """One costly request alone: the server's CPU share in each quarter second of the
    second after its 503 (one core = 1.00)."""
    started = time.perf_counter()
    answer = httpx.post(f"{url}/v1/lod/event-moves", json=heavy_body, timeout=120)
    took = time.perf_counter() - started
    print(f"one costly request alone: {answer.status_code} after {took:.2f} s")
    shares = []
    for _ in range(4):
        mark = cpu_seconds(server)
        time.sleep(0.25)
        shares.append((cpu_seconds(server) - mark) / 0.25)
    shown = " ".join(f"{share:.2f}" for share in shares)
    idle = "back to idle" if shares[-1] < IDLE_SHARE else "STILL BUSY"
    print(f"server CPU share in each 0.25 s after the answer: {shown}  ({idle} within 1 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--card", type=int, default=24, help="A card of the LoD sample deck.")
    parser.add_argument("--side", default="unshaded")
    parser.add_argument("--faction", default="british")
    parser.add_argument(
        "--send-state",
        action="store_true",
        help="Send the set-up as a state in every request (parsed and solved afresh), "
        "instead of naming the bundled scenario.",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="Server processes (legalis serve --workers); with more than one, the "
        "server and the clients share both cores.",
    )
    parser.add_argument("--threads", type=int, default=1, help="Worker threads per process.")
    parser.add_argument(
        "--heavy",
        type=int,
        default=0,
        help="Then run the mix again beside this many clients of costly requests, and "
        "measure the CPU left busy after one of them times out.",
    )
    parser.add_argument(
        "--time-limit", type=float, default=2.0, help="The server's time limit, seconds."
    )
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVER,
            str(port),
            str(args.workers),
            str(args.threads),
            str(args.time_limit),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    # one server process and the clients on a core each, so neither starves the other
    if len(cores) >= 2 and args.workers == 1:
        os.sched_setaffinity(process.pid, {cores[-1]})
        os.sched_setaffinity(0, {cores[0]})
        print(f"server on core {cores[-1]}, clients on core {cores[0]}")
    try:
        wait_until_up(url, process)
        where: dict[str, object] = {"scenario": "1776"}
        if args.send_state:
            from legalis.model.coin.scenarios import load_scenario

            where = {"state": load_scenario("lod", "1776").to_json()}
        body: dict[str, object] = {
            **where,
            "card": args.card,
            "side": args.side,
            "faction": args.faction,
            "limit": 20,
        }
        first = httpx.post(f"{url}/v1/lod/event-moves", json=body, timeout=30)
        if first.status_code != 200:
            raise SystemExit(f"the request is refused: {first.text}")
        print(
            f"POST /v1/lod/event-moves: {'state' if args.send_state else 'scenario'} 1776, "
            f"card {args.card} {args.side}, "
            f"{args.faction}: {first.json()['count']} legal executions, pages of 20"
        )
        print(f"target: p99 < {TARGET_P99_MS:.0f} ms at 50 clients")
        asyncio.run(drive(url, body, args.clients, args.seconds))
        if args.heavy:
            deck = tomllib.loads(HEAVY_DECK.read_text(encoding="utf-8"))
            heavy_body: dict[str, object] = {
                "scenario": "1776",
                "deck": deck,
                "card": HEAVY_CARD,
                "side": "unshaded",
                "faction": "british",
                "limit": 20,
            }
            print(
                f"\nthe same, beside {args.heavy} clients counting the moves of stress card "
                f"{HEAVY_CARD} (time limit {args.time_limit:g} s):"
            )
            asyncio.run(drive(url, body, args.clients, args.seconds, heavy_body, args.heavy))
            busy_after_timeout(url, process.pid, heavy_body)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
