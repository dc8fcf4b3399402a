"""Where many-task work runs: local processes (the default) or a Ray cluster.

A backend runs a module-level function over picklable tasks. ``unordered`` yields
``(index, result)`` as each task finishes; ``in_order`` yields the results in task
order, which is the mapper that deck verification and fixture generation take. A
task's result depends only on the task, so the numbers never depend on the backend
or on how many workers ran it.

Ctrl-C (or ``stop()`` answering true) ends the run cleanly: no task is started
after it, the tasks under way are abandoned, and every result already yielded
stays with the caller.

>>> with open_backend("local", workers=2) as backend:
...     list(backend.in_order(abs, [-3, 1, -2]))
[3, 1, 2]
>>> open_backend("cloud")
Traceback (most recent call last):
legalis.model.errors.InputError: --backend: unknown backend 'cloud' (allowed: local, ray)
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from legalis import __version__
from legalis.model.errors import InputError, LegalisError

__all__ = ["BACKENDS", "Backend", "BackendError", "open_backend"]

BACKENDS = ("local", "ray")
POLL_SECONDS = 0.2  # how often a wait looks at stop(): the delay a Ctrl-C may take
IN_FLIGHT_PER_WORKER = 4  # tasks handed out ahead, so no worker waits for the next

Task = TypeVar("Task")
Result = TypeVar("Result")


class BackendError(LegalisError):
    """A backend could not start, or lost a worker."""


def _never() -> bool:
    return False


def _ignore_interrupts() -> None:
    # A Ctrl-C at the terminal reaches the whole process group; only the caller
    # decides what it means, so a worker must not die of it mid-task.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _version_of_worker(_: object) -> str:
    return __version__


class Backend(Protocol):
    """What a sweep, a deck's verification and fixture generation run on."""

    name: str
    workers: int

    def unordered(
        self,
        function: Callable[[Task], Result],
        tasks: Sequence[Task],
        stop: Callable[[], bool] = _never,
    ) -> Iterator[tuple[int, Result]]: ...

    def close(self) -> None: ...

    def in_order(
        self, function: Callable[[Task], Result], tasks: Sequence[Task]
    ) -> Iterator[Result]: ...

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc: object) -> None: ...


class _Workers(ABC):
    """What every backend does alike: hand out a few tasks per worker, yield each
    result as it comes, drop what is under way when stopped. A backend says how to
    ``_submit`` a task, which handles have ``_finished`` (waiting a moment at most),
    the ``_result`` of one, and how to ``_drop`` those still running."""

    workers: int

    @abstractmethod
    def _submit(self, function: Callable[[Any], Any], task: Any) -> Any: ...

    @abstractmethod
    def _finished(self, handles: list[Any]) -> list[Any]: ...

    @abstractmethod
    def _result(self, handle: Any) -> Any: ...

    @abstractmethod
    def _drop(self, handles: list[Any]) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    def unordered(
        self,
        function: Callable[[Task], Result],
        tasks: Sequence[Task],
        stop: Callable[[], bool] = _never,
    ) -> Iterator[tuple[int, Result]]:
        pending: dict[Any, int] = {}
        queue = iter(enumerate(tasks))
        try:
            while True:
                while len(pending) < self.workers * IN_FLIGHT_PER_WORKER and not stop():
                    item = next(queue, None)
                    if item is None:
                        break
                    pending[self._submit(function, item[1])] = item[0]
                if not pending or stop():
                    return
                for handle in self._finished(list(pending)):
                    index = pending.pop(handle)
                    yield index, self._result(handle)
        finally:
            if pending:  # stopped early: what is under way is dropped
                self._drop(list(pending))

    def in_order(
        self, function: Callable[[Task], Result], tasks: Sequence[Task]
    ) -> Iterator[Result]:
        """The results in task order, each yielded as soon as those before it are in."""
        waiting: dict[int, Result] = {}
        next_index = 0
        for index, result in self.unordered(function, tasks):
            waiting[index] = result
            while next_index in waiting:
                yield waiting.pop(next_index)
                next_index += 1

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalBackend(_Workers):
    """Worker processes on this machine (``spawn``ed, so a parent's threads and
    locks are never copied into them)."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_interrupts,
        )

    def _submit(self, function: Callable[[Any], Any], task: Any) -> Any:
        return self._pool.submit(function, task)

    def _finished(self, handles: list[Any]) -> list[Any]:
        return list(wait(handles, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)[0])

    def _result(self, handle: Future[Any]) -> Any:
        try:
            return handle.result()
        except BrokenProcessPool as error:
            raise BackendError(f"a worker process died: {error}") from error

    def _drop(self, handles: list[Any]) -> None:
        """Stop the workers at once: the tasks they run are dropped, not awaited."""
        terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14 and later
        if terminate is not None:
            terminate()
        else:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._new_pool()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayBackend(_Workers):
    """Tasks on a Ray cluster (``address``), or on a Ray started here with
    ``workers`` CPUs and stopped at ``close``. Every node must have this version of
    legalis installed: the first task asks a worker for its version."""

    name = "ray"

    def __init__(self, workers: int | None, address: str | None) -> None:
        try:
            import ray
        except ImportError as error:  # pragma: no cover - ray is a dependency
            raise BackendError("the ray backend needs the ray package") from error
        self._ray = ray
        self._started_here = not ray.is_initialized()
        if self._started_here:
            try:
                # a Ray started here listens on the loopback address only
                here: dict[str, Any] = {"num_cpus": workers, "_node_ip_address": "127.0.0.1"}
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                    **({} if address else here),
                )
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BackendError(f"could not reach Ray at {address}: {error}") from error
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = cpus if workers is None or address is not None else min(workers, cpus)
        self._remote: dict[Callable[..., Any], Any] = {}
        seen = ray.get(self._submit(_version_of_worker, None))
        if seen != __version__:
            self.close()
            raise BackendError(
                f"the Ray workers run legalis {seen}, this is {__version__}: "
                "install the same version on every node"
            )

    def _submit(self, function: Callable[[Any], Any], task: Any) -> Any:
        if function not in self._remote:
            self._remote[function] = self._ray.remote(num_cpus=1, max_retries=0)(function)
        return self._remote[function].remote(task)

    def _finished(self, handles: list[Any]) -> list[Any]:
        done: list[Any] = self._ray.wait(handles, num_returns=1, timeout=POLL_SECONDS)[0]
        return done

    def _result(self, handle: Any) -> Any:
        exceptions = self._ray.exceptions
        try:
            return self._ray.get(handle)
        except exceptions.RayTaskError as error:  # the task raised: as locally, its error
            raise error.cause from None
        except exceptions.RayError as error:  # a worker or node was lost
            raise BackendError(f"a Ray task failed: {error}") from error

    def _drop(self, handles: list[Any]) -> None:
        for handle in handles:
            self._ray.cancel(handle, force=True)

    def close(self) -> None:
        if self._started_here and self._ray.is_initialized():
            self._ray.shutdown()


def open_backend(
    name: str = "local", *, workers: int | None = None, address: str | None = None
) -> Backend:
    """The backend called ``name`` with ``workers`` workers (default: one per core;
    with a Ray ``address``, the cluster's CPUs); as a context manager, it is closed
    when the block ends."""
    if name not in BACKENDS:
        raise InputError(f"unknown backend {name!r}", path="--backend", allowed=BACKENDS)
    if workers is not None and workers < 1:
        raise InputError(f"at least 1 worker, got {workers}", path="--workers")
    if address is not None and name != "ray":
        raise InputError(
            "--address names a Ray cluster: use it with --backend ray", path="--address"
        )
    backend: Backend
    if name == "local":
        backend = LocalBackend(workers or os.cpu_count() or 1)
    else:
        backend = RayBackend(workers or (None if address else os.cpu_count() or 1), address)
    return backend
