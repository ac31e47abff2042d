"""``python -m sha1dc.scan [OPTIONS] SOURCE...``: every repository of a fleet
verified with :func:`sha1dc.verify`, one Ray task per repository, on a local
Ray or a cluster (``pip install 'sha1dc[ray]'``).

Each SOURCE is a file listing repository paths (one per line) or a directory
whose repositories are found under it. Each repository's result is one line
of the JSON Lines report as soon as it is in: ``git-sha1dc --json``'s
document with ``"repository"`` and ``"seconds"`` added (a repository past
the time limit: ``"timeout": true`` and its damage saying so). A rerun with
the same report skips the repositories it already holds. Every node must
see the repositories at the same paths, and have this package installed.

Exit status, as ``git-sha1dc``'s over the whole report: 3 a collision in
any repository; else 1 a repository damaged, unreadable or past the time
limit; else 0. 2 is bad usage, 130 an interrupted scan (resume it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import verify

_USAGE = 2
_INTERRUPTED = 130


@dataclass
class ScanSummary:
    """What a scan's report holds (this run's lines and those it resumed
    from), and how fast this run went."""

    repositories: int = 0
    """Repositories in the report."""
    resumed: int = 0
    """Of them, those already in the report when the scan started."""
    objects: int = 0
    bytes: int = 0
    findings: int = 0
    """Findings (collision blocks), all repositories."""
    damaged: int = 0
    """Repositories with damage (timeouts included)."""
    timeouts: int = 0
    """Repositories past the time limit."""
    seconds: float = 0.0
    """This run's wall time."""
    scanned_objects: int = 0
    """Objects verified by this run (for its throughput)."""
    scanned_bytes: int = 0

    @property
    def exit(self) -> int:
        """``git-sha1dc``'s exit status over the report: 3, 1 or 0."""
        return 3 if self.findings else 1 if self.damaged else 0

    def add(self, line: dict[str, Any], *, resumed: bool) -> None:
        self.repositories += 1
        self.resumed += resumed
        self.objects += line["objects"]["total"]
        self.bytes += line.get("bytes", 0)
        self.findings += len(line["findings"])
        self.damaged += bool(line["damage"])
        self.timeouts += bool(line.get("timeout"))
        if not resumed:
            self.scanned_objects += line["objects"]["total"]
            self.scanned_bytes += line.get("bytes", 0)

    def __str__(self) -> str:
        secs = max(self.seconds, 1e-9)
        return (
            f"{self.repositories} repositories ({self.resumed} from the report before), "
            f"{self.objects} objects, {self.bytes / 1e6:.1f} MB: {self.findings} findings, "
            f"{self.damaged} damaged ({self.timeouts} timed out); this run "
            f"{self.scanned_objects / secs:,.0f} objects/s, {self.scanned_bytes / 1e6 / secs:.1f} MB/s "
            f"in {self.seconds:.1f} s"
        )


def _verify_task(path: str, content: bool, jobs: int) -> str:
    """One repository verified (a Ray task's body): its report line."""
    start = time.monotonic()
    report = verify(path, content=content, jobs=jobs)
    line = json.loads(report.to_json())
    line["seconds"] = round(time.monotonic() - start, 6)
    return json.dumps({"repository": path, **line})


def _failed_line(path: str, content: bool, message: str, *, timeout: bool = False) -> str:
    """The line of a repository whose task gave no report: damage saying why."""
    line: dict[str, Any] = {
        "repository": path,
        "objects": {"commit": 0, "tree": 0, "blob": 0, "tag": 0, "total": 0},
        "content_check": content,
        "files": 0,
        "findings": [],
        "damage": [{"file": path, "offset": None, "id": None, "message": message}],
        "alternates_not_verified": [],
        "exit": 1,
        "bytes": 0,
    }
    if timeout:
        line["timeout"] = True
    return json.dumps(line)


def _is_repository(d: Path) -> bool:
    """A work tree (with .git) or a bare repository / git directory."""
    return (d / ".git").exists() or ((d / "HEAD").is_file() and (d / "objects").is_dir())


def find_repositories(directory: str | os.PathLike[str]) -> Iterator[str]:
    """The repositories under `directory` (itself included), sorted, not
    looking inside a repository found, nor following links to directories."""
    stack = [Path(directory)]
    while stack:
        d = stack.pop()
        if _is_repository(d):
            yield str(d)
            continue
        try:
            subdirs = sorted(
                (e.path for e in os.scandir(d) if e.is_dir(follow_symlinks=False)), reverse=True
            )
        except OSError:
            continue
        stack.extend(Path(s) for s in subdirs)


def repositories(sources: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The repositories `sources` name, each once, in order, as absolute
    paths (relative ones from the current directory): a directory is
    searched, a file lists paths (one per line; blank lines and lines
    starting with # left out). A path that names nothing is kept: its
    verification reports it as damage."""
    seen: dict[str, None] = {}
    for source in sources:
        if os.path.isdir(source):
            found: Iterable[str] = find_repositories(source)
        else:
            with open(source, encoding="utf-8", errors="surrogateescape") as f:
                found = [s for line in f if (s := line.strip()) and not s.startswith("#")]
        for repo in found:
            seen.setdefault(os.path.abspath(repo), None)
    return list(seen)


def _read_report(path: Path) -> list[dict[str, Any]]:
    """The complete lines of an existing report; a line cut short by an
    interruption (the last, with no newline) is dropped from the file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
    return [json.loads(line) for line in data[:end].splitlines() if line.strip()]


class _Progress:
    """A one-line progress bar on a terminal (standard error)."""

    def __init__(self, on: bool, total: int) -> None:
        self.on, self.total, self.done, self.objects = on, total, 0, 0
        self.start = self.last = time.monotonic()

    def advance(self, objects: int) -> None:
        self.done += 1
        self.objects += objects
        now = time.monotonic()
        if self.on and (now - self.last >= 0.1 or self.done == self.total):
            self.last = now
            rate = self.objects / max(now - self.start, 1e-3)
            filled = self.done * 30 // max(self.total, 1)
            bar = "#" * filled + "-" * (30 - filled)
            sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} repositories, {rate:,.0f} objects/s ")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.on:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()


def scan(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    address: str | None = None,
    content: bool = False,
    report: str | os.PathLike[str] = "sha1dc-scan.jsonl",
    timeout: float | None = None,
    jobs: int = 1,
    num_cpus: int | None = None,
    retries: int = 3,
    resources: Mapping[str, float] | None = None,
    progress: bool | None = None,
    on_line: Callable[[dict[str, Any]], None] | None = None,
) -> ScanSummary:
    """Verifies every repository `sources` (a path, or several) name (see :func:`repositories`),
    one Ray task each, appending each one's line to the JSON Lines `report`
    as it comes in and skipping those the report already holds.

    With no `address`, joins the Ray this process already started, else
    starts a local one (`num_cpus`, default every CPU); `address` joins a
    cluster ("auto" or "HOST:PORT"). Each task takes `jobs` CPUs and
    verifies with as many threads; a task whose worker dies is run again up
    to `retries` times; one running past `timeout` seconds is stopped (its
    worker killed) and reported with damage saying so. `resources` are Ray
    custom resources each task needs besides its CPUs (a name the nodes
    holding these repositories declare: the tasks run there). `on_line` is called
    with each new line. Returns the :class:`ScanSummary`.
    """
    try:
        import ray
    except ImportError as err:
        raise ImportError("sha1dc.scan needs Ray: pip install 'sha1dc[ray]'") from err
    if not isinstance(content, bool):
        raise TypeError(f"content must be a bool, not {type(content).__name__!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int of 1 or more, not {jobs!r}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a number of seconds above 0, not {timeout!r}")
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    report_path = Path(report)
    summary = ScanSummary()
    done = set()
    for line in _read_report(report_path):
        done.add(line["repository"])
        summary.add(line, resumed=True)
    todo = [r for r in repositories(sources) if r not in done]

    started_ray = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "WARNING",
        }
        if address is None:
            ray.init(num_cpus=num_cpus, **kwargs)
        else:
            ray.init(address=address, **kwargs)
        started_ray = True
    start = time.monotonic()
    bar = _Progress(sys.stderr.isatty() if progress is None else progress, len(todo))
    task = ray.remote(_verify_task).options(
        num_cpus=jobs, max_retries=retries, name="sha1dc_verify", resources=dict(resources or {})
    )
    # As many tasks handed out as the cluster runs at once, so that each
    # starts when handed out and its time limit counts from then.
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    window = max(1, int(cpus) // jobs)
    inflight: dict[Any, tuple[str, float]] = {}
    pending = iter(todo)
    try:
        with open(report_path, "a", encoding="utf-8", errors="surrogateescape") as out:

            def write(text: str) -> None:
                line = json.loads(text)
                out.write(text + "\n")
                out.flush()
                summary.add(line, resumed=False)
                bar.advance(line["objects"]["total"])
                if on_line is not None:
                    on_line(line)

            while True:
                for repo in pending:
                    inflight[task.remote(repo, content, jobs)] = (repo, time.monotonic())
                    if len(inflight) >= window:
                        break
                if not inflight:
                    break
                wait = None
                if timeout is not None:
                    first_deadline = min(t for _, t in inflight.values()) + timeout
                    wait = max(0.0, first_deadline - time.monotonic())
                ready, _ = ray.wait(list(inflight), num_returns=1, timeout=wait)
                if ready:
                    ready, _ = ray.wait(list(inflight), num_returns=len(inflight), timeout=0)
                for ref in ready:
                    repo, _ = inflight.pop(ref)
                    try:
                        text = ray.get(ref)
                    except ray.exceptions.RayError as err:
                        text = _failed_line(repo, content, f"the task failed: {type(err).__name__}: {err}")
                    write(text)
                if timeout is not None:
                    now = time.monotonic()
                    for ref, (repo, t) in list(inflight.items()):
                        if now - t >= timeout:
                            ray.cancel(ref, force=True)
                            del inflight[ref]
                            write(_failed_line(repo, content, f"timed out after {timeout:g} s", timeout=True))
    finally:
        for ref in inflight:
            ray.cancel(ref, force=True)
        bar.clear()
        summary.seconds = time.monotonic() - start
        if started_ray:
            ray.shutdown()
    return summary


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sha1dc.scan",
        description="Verify every repository of a fleet for SHA-1 collision attacks, "
        "one Ray task per repository.",
        epilog="Exit status: 0 all clean; 3 a collision in any repository; 1 damage, "
        "an unreadable repository or a timeout (and no collision); 2 bad usage; "
        "130 interrupted (rerun with the same --report to resume).",
    )
    p.add_argument("sources", nargs="+", metavar="SOURCE",
                   help="a file listing repository paths (one per line) or a directory to search")
    p.add_argument("--address", help="join this Ray cluster ('auto', HOST:PORT); default: a local Ray")
    p.add_argument("--content", action="store_true", help="also hash every blob's content as a file")
    p.add_argument("--report", default="sha1dc-scan.jsonl",
                   help="the JSON Lines report, appended to and resumed from (default: %(default)s)")
    p.add_argument("--timeout", type=float, metavar="S", help="seconds a repository may take")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="CPUs (threads) per task (default: %(default)s)")
    p.add_argument("--num-cpus", type=int, metavar="N", help="CPUs of the local Ray (default: all)")
    p.add_argument("--retries", type=int, default=3, metavar="N",
                   help="runs again of a task whose worker died (default: %(default)s)")
    p.add_argument("--resource", action="append", default=[], metavar="NAME[=N]",
                   help="a Ray custom resource each task needs (N, default 1): runs the tasks on "
                   "the nodes that declare it, those holding the repositories")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    return p


def main(argv: list[str] | None = None) -> int:
    """Runs the command; returns its exit status."""
    args = _parser().parse_args(argv)
    for s in args.sources:
        if not os.path.exists(s):
            sys.stderr.write(f"python -m sha1dc.scan: {s}: no such file or directory\n")
            return _USAGE
    resources = {}
    for r in args.resource:
        name, _, amount = r.partition("=")
        try:
            resources[name] = float(amount or 1)
        except ValueError:
            sys.stderr.write(f"python -m sha1dc.scan: --resource {r}: N is a number\n")
            return _USAGE
    try:
        summary = scan(
            args.sources, address=args.address, content=args.content, report=args.report,
            timeout=args.timeout, jobs=args.jobs, num_cpus=args.num_cpus, retries=args.retries,
            resources=resources,
            progress=False if args.quiet else None,
        )
    except (ImportError, ValueError) as err:
        sys.stderr.write(f"python -m sha1dc.scan: {err}\n")
        return _USAGE
    except KeyboardInterrupt:
        sys.stderr.write(f"python -m sha1dc.scan: interrupted; rerun with --report {args.report} to resume\n")
        return _INTERRUPTED
    if not args.quiet:
        sys.stderr.write(f"python -m sha1dc.scan: {summary}\n")
    return summary.exit


if __name__ == "__main__":
    sys.exit(main())
