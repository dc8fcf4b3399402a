"""The HTTP API under load: 50 concurrent clients asking for legal event moves.

Starts ``legalis.server`` in a subprocess on a free loopback port, then drives it
for a fixed time with concurrent clients (aiohttp, asyncio), each sending one
request after another: the legal executions of a Liberty or Death event (the
1776 set-up, a sample-deck card, a page of 20). It prints the throughput and the
latency percentiles side by side with the target, then stops the server.

    pip install -e '.[bench]'
    python benchmarks/server_load.py [--clients 50] [--seconds 10] [--card 24]

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

import aiohttp
import httpx

TARGET_P99_MS = 100.0
SERVER = (
    "from legalis.server import Limits, serve; import sys; "
    "serve('127.0.0.1', int(sys.argv[1]), Limits(threads=int(sys.argv[3])), int(sys.argv[2]))"
)


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


async def drive(url: str, body: dict[str, object], clients: int, seconds: float) -> None:
    latencies: list[float] = []
    began = time.perf_counter()
    warm_until = began + min(1.0, seconds / 5)
    stop_at = began + seconds
    connections = aiohttp.TCPConnector(limit=0)  # one kept-alive connection per client
    async with aiohttp.ClientSession(connector=connections) as session:
        counts = await asyncio.gather(
            *(client(session, url, body, stop_at, warm_until, latencies) for _ in range(clients))
        )
    measured = time.perf_counter() - warm_until
    ok, failed = sum(c[0] for c in counts), sum(c[1] for c in counts)
    if not latencies:
        raise SystemExit(f"no successful request ({failed} failed)")
    p50, p95, p99 = (1000 * percentile(latencies, q) for q in (0.50, 0.95, 0.99))
    print(f"{clients} clients, {seconds:g} s (first {warm_until - began:.1f} s not measured)")
    print(f"requests: {ok} ok, {failed} failed; {len(latencies) / measured:,.0f} requests/s")
    print(f"{'latency':<10}{'measured ms':>13}{'target ms':>11}{'ratio':>8}")
    print(f"{'p50':<10}{p50:>13.1f}{'':>11}{'':>8}")
    print(f"{'p95':<10}{p95:>13.1f}{'':>11}{'':>8}")
    verdict = "met" if p99 < TARGET_P99_MS else "NOT met"
    print(f"{'p99':<10}{p99:>13.1f}{TARGET_P99_MS:>11.0f}{p99 / TARGET_P99_MS:>8.2f}  {verdict}")
    print(f"mean {1000 * statistics.fmean(latencies):.1f} ms, max {1000 * max(latencies):.1f} ms")


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
    parser.add_argument("--threads", type=int, default=2, help="Worker threads per process.")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), str(args.workers), str(args.threads)],
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
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
