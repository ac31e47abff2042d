"""``python -m sha1dc [OPTIONS] [FILE|-]...``: print or check SHA-1 checksums
with collision detection, with the lines and exit statuses of ``sha1dcsum``.

Each line is ``<hex>  <name>``, or ``<hex> *coll* <name>`` for an input in
which a collision was detected (then ``<hex>`` is the safe hash unless
``--no-safe-hash``). Exit status: 0 all read and none flagged, 3 a collision
was detected, 1 an input could not be read (or, with ``-c``, did not match),
2 bad usage, 141 standard output closed by its reader.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
from typing import Any, BinaryIO, NoReturn

from . import Outcome, __version__, file_digest, hash_object, object_hasher, sha1

PROG = "sha1dc"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_COLLISION, EXIT_BROKEN_PIPE = 0, 1, 2, 3, 141
_CHUNK = 1 << 20
_HEX = re.compile(rb"[0-9a-fA-F]{40}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{PROG}: {message}\nTry '{PROG} --help' for more information.\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Print or check SHA-1 checksums, with collision detection "
        "(the lines and exit statuses of sha1dcsum).",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="files to hash (- or none: standard input)")
    p.add_argument("-b", "--binary", action="store_true", help="print ' *' before the name")
    p.add_argument("-t", "--text", action="store_true", help="print two spaces before the name (the default)")
    p.add_argument("--tag", action="store_true", help="BSD-style lines: SHA1 (<name>) = <hex>")
    p.add_argument("-z", "--zero", action="store_true", help="end lines with NUL, names unescaped")
    p.add_argument("--reduced-round", action="store_true", help="also detect reduced-round collisions")
    p.add_argument("--no-safe-hash", action="store_true", help="print the plain SHA-1 even for a flagged input")
    p.add_argument("--git-blob", action="store_true", help="hash each input as a git blob object")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--backend", metavar="NAME", help="use the named backend")
    p.add_argument("-c", "--check", action="store_true", help="read checksum lists and check each file")
    p.add_argument("--quiet", action=_LastWins, help="with -c, no OK lines")
    p.add_argument("--status", action=_LastWins, help="with -c, no output: the status says it")
    p.add_argument("-w", "--warn", action=_LastWins, help="with -c, report improperly formatted lines")
    p.add_argument("--strict", action="store_true", help="with -c, fail on improperly formatted lines")
    p.add_argument("--ignore-missing", action="store_true", help="with -c, skip missing files")
    p.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    return p


class _LastWins(argparse.Action):
    """--quiet, --status and --warn: the last one given wins, as with GNU."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=False, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        for dest in ("quiet", "status", "warn"):
            setattr(namespace, dest, dest == self.dest)


class _Run:
    """One run: the options, standard output and what went wrong so far."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = sys.stdout.buffer
        self.failed = False
        self.collided = False
        self.options: dict[str, Any] = {"reduced_round": args.reduced_round}
        if args.no_safe_hash:
            self.options["safe_hash"] = False
        if args.backend is not None:
            self.options["backend"] = args.backend

    def error(self, message: str) -> None:
        self.out.flush()
        sys.stderr.write(f"{PROG}: {message}\n")
        sys.stderr.flush()

    def read_error(self, name: str, err: OSError) -> None:
        self.error(f"{name}: {err.strerror or err}")

    def hash_input(self, name: str) -> tuple[Outcome, int] | None:
        """The Outcome of one input and its header length (for --git-blob),
        or None once its error is reported."""
        try:
            if name == "-":
                return self._hash_file(sys.stdin.buffer, stdin=True)
            with open(name, "rb") as f:
                return self._hash_file(f, stdin=False)
        except OSError as err:
            self.read_error(name, err)
        except ValueError as err:
            # An object whose length changed while it was read.
            self.error(f"{name}: {err}")
        return None

    def _hash_file(self, f: BinaryIO, stdin: bool) -> tuple[Outcome, int]:
        if not self.args.git_blob:
            return file_digest(f, **self.options).outcome(), 0
        st = os.fstat(f.fileno())
        if stdin or not stat.S_ISREG(st.st_mode):
            # Its length must come first: read it whole.
            o = hash_object("blob", f.read(), **self.options)
            return o, o.header_len
        h = object_hasher("blob", st.st_size, **self.options)
        while chunk := f.read(_CHUNK):
            h.update(chunk)
        o = h.outcome()
        return o, o.header_len

    def line(self, name: str, outcome: Outcome, header_len: int) -> bytes:
        hexd = outcome.hexdigest()
        flagged = outcome.collision is not None
        raw = os.fsencode(name)
        if self.args.json:
            return self._json(name, raw, outcome, header_len) + self._end()
        lead, raw = self._escape(raw)
        if self.args.tag:
            text = b"SHA1 (" + raw + b") = " + hexd.encode() + (b" *coll*" if flagged else b"")
        elif flagged:
            text = hexd.encode() + b" *coll* " + raw
        elif self.args.binary and not raw.startswith(b"coll* "):
            text = hexd.encode() + b" *" + raw
        else:
            text = hexd.encode() + b"  " + raw
        return lead + text + self._end()

    def _escape(self, raw: bytes) -> tuple[bytes, bytes]:
        """A name with a newline, a carriage return or a backslash escaped,
        and the backslash its line then starts with (not with -z)."""
        if self.args.zero or not any(c in raw for c in b"\n\r\\"):
            return b"", raw
        return b"\\", raw.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")

    def _json(self, name: str, raw: bytes, outcome: Outcome, header_len: int) -> bytes:
        c = outcome.collision
        shown = raw.decode("utf-8", "replace")
        record: dict[str, object] = {"file": shown}
        if shown.encode() != raw:
            record["file_bytes"] = raw.hex()
        record["sha1"] = outcome.sha1_hexdigest()
        record["output"] = outcome.hexdigest()
        record["collision"] = None if c is None else {
            "offset": max(c.offset - header_len, 0),
            "block": c.block,
            "dv": c.dv,
            "count": c.count,
        }
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()

    def _end(self) -> bytes:
        return b"\0" if self.args.zero else b"\n"

    def hash_all(self) -> None:
        for name in self.args.files or ["-"]:
            got = self.hash_input(name)
            if got is None:
                self.failed = True
                continue
            outcome, header_len = got
            self.collided |= outcome.collision is not None
            self.out.write(self.line(name, outcome, header_len))

    def check_all(self) -> None:
        for name in self.args.files or ["-"]:
            self.check_list(name)

    def check_list(self, list_name: str) -> None:
        try:
            if list_name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(list_name, "rb") as f:
                    data = f.read()
        except OSError as err:
            self.read_error(list_name, err)
            self.failed = True
            return
        sep = b"\0" if self.args.zero else b"\n"
        lines = data.split(sep)
        if lines and lines[-1] == b"":
            lines.pop()
        bad = unread = mismatched = flagged = verified = valid = 0
        quiet = self.args.status
        for number, line in enumerate(lines, 1):
            if line.startswith(b"#") or not line.strip():
                continue
            entry = _parse_line(line)
            if entry is None:
                bad += 1
                if self.args.warn and not quiet:
                    self.error(f"{list_name}: {number}: improperly formatted SHA1 checksum line")
                continue
            valid += 1
            want, raw = entry
            name = os.fsdecode(raw)
            if self.args.ignore_missing and not os.path.exists(name):
                continue
            got = self.hash_input(name) if not quiet else self._silent(name)
            verified += 1
            lead, shown = self._escape(raw)
            shown = lead + shown
            if got is None:
                unread += 1
                self._say(shown + b": FAILED open or read")
            elif got[0].collision is not None:
                flagged += 1
                self._say(shown + b": COLLISION")
                # Its line records neither its output nor its SHA-1: a mismatch too.
                if want is not None and want.decode().lower() not in (got[0].hexdigest(), got[0].sha1_hexdigest()):
                    mismatched += 1
            elif want is not None and got[0].hexdigest() == want.decode().lower():
                if not self.args.quiet:
                    self._say(shown + b": OK")
            else:
                mismatched += 1
                self._say(shown + b": FAILED")
        if valid == 0:
            self.error(f"{list_name}: no properly formatted SHA1 checksum lines found")
            self.failed = True
            return
        if self.args.ignore_missing and verified == 0:
            self.error(f"{list_name}: no file was verified")
            self.failed = True
        if not quiet:
            for count, one, many in (
                (bad, "line is improperly formatted", "lines are improperly formatted"),
                (unread, "listed file could not be read", "listed files could not be read"),
                (mismatched, "computed checksum did NOT match", "computed checksums did NOT match"),
                (flagged, "listed file is half of a SHA-1 collision", "listed files are halves of SHA-1 collisions"),
            ):
                if count:
                    self.error(f"WARNING: {count} {one if count == 1 else many}")
        self.failed |= bool(unread or mismatched or (bad and self.args.strict))
        self.collided |= bool(flagged)

    def _silent(self, name: str) -> tuple[Outcome, int] | None:
        """hash_input without a message on standard error (--status)."""
        stderr, sys.stderr = sys.stderr, open(os.devnull, "w")
        try:
            return self.hash_input(name)
        finally:
            sys.stderr.close()
            sys.stderr = stderr

    def _say(self, text: bytes) -> None:
        """A line of -c's report (newline-terminated even with -z)."""
        if not self.args.status:
            self.out.write(text + b"\n")


def _parse_line(line: bytes) -> tuple[bytes | None, bytes] | None:
    """(the checksum, or None where only a collision can be reported, and
    the name) of a checksum line, or None for an improperly formatted one."""
    escaped = line.startswith(b"\\")
    if escaped:
        line = line[1:]
    if line.startswith(b"SHA1 (") and b") = " in line:
        raw, _, rest = line[6:].rpartition(b") = ")
        rest = rest.removesuffix(b" *coll*").removeprefix(b"*coll* ")
        want = rest if _HEX.fullmatch(rest) else None
    elif len(line) > 42 and _HEX.fullmatch(line[:40]) and line[40:41] == b" " and line[41:42] in b" *":
        want = line[:40]
        raw = line[42:]
        if line[41:42] == b"*" and raw.startswith(b"coll* "):
            # The original tool's line for a flagged file, or GNU's binary
            # line for a file named "coll* ...": the file that exists.
            name = raw[6:]
            if os.path.exists(os.fsdecode(name)) or not os.path.exists(os.fsdecode(raw)):
                raw = name
    else:
        return None
    if escaped:
        raw = re.sub(rb"\\(.)", lambda m: {b"n": b"\n", b"r": b"\r"}.get(m.group(1), m.group(1)), raw)
    return (want, raw) if raw else None


def main(argv: list[str] | None = None) -> int:
    """Runs the command; returns its exit status."""
    args = _parser().parse_args(argv)
    if args.version:
        print(f"{PROG} {__version__}")
        return EXIT_OK
    if args.backend is not None:
        try:
            sha1(backend=args.backend)
        except ValueError as err:
            sys.stderr.write(f"{PROG}: {err}\n")
            return EXIT_USAGE
    run = _Run(args)
    try:
        (run.check_all if args.check else run.hash_all)()
        run.out.flush()
    except BrokenPipeError:
        # Quietly, with the status a shell shows for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    if run.failed:
        return EXIT_FAILED
    return EXIT_COLLISION if run.collided else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
