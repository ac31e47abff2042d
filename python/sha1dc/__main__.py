"""``python -m sha1dc [OPTIONS] [FILE|-]...``: print or check SHA-1 checksums
with collision detection: sha1dcsum's command on this package. What is text
(options, ``--help``, lines, ``-c``'s words, messages, exit statuses) is
sha1dcsum's library, through the extension module, as in the npm package's
command; here the inputs are read and hashed.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any, BinaryIO

from . import Outcome, file_digest, hash_object, object_hasher, sha1
from ._sha1dc import _CommandLine

_CHUNK = 1 << 20


def _open(name: bytes) -> BinaryIO:
    """The input named: - is standard input, which closing this leaves open."""
    return open(0 if name == b"-" else name, "rb", closefd=name != b"-")


def _exists(name: bytes) -> bool:
    """Whether a listed name is there to read: standard input, or a directory entry."""
    return name == b"-" or os.path.lexists(name)


class _Run:
    """One run: the command line, standard output and what went wrong so far."""

    def __init__(self, cmd: _CommandLine, options: dict[str, Any]) -> None:
        self.cmd, self.options = cmd, options
        self.out, self.failed, self.collided = sys.stdout.buffer, False, False

    def say(self, said: str | bytes) -> None:
        """A message (str) on standard error after what is pending on standard output, or bytes on it."""
        if isinstance(said, bytes):
            self.out.write(said)
            return
        self.out.flush()
        sys.stderr.write(f"{_CommandLine.PROGRAM}: {said}\n")
        sys.stderr.flush()

    def hash_input(self, name: bytes) -> Outcome | OSError | ValueError:
        """The Outcome of one input, or the error that stopped it (ValueError:
        a git blob whose length changed while it was read)."""
        try:
            with _open(name) as f:
                return self._hash(f, name == b"-")
        except (OSError, ValueError) as err:
            return err

    def _hash(self, f: BinaryIO, stdin: bool) -> Outcome:
        if not self.cmd.git_blob:
            return file_digest(f, **self.options).outcome()
        st = os.fstat(f.fileno())
        if stdin or not stat.S_ISREG(st.st_mode):
            # Its length must come first: read it whole.
            return hash_object("blob", f.read(), **self.options)
        h = object_hasher("blob", st.st_size, **self.options)
        while chunk := f.read(_CHUNK):
            h.update(chunk)
        return h.outcome()

    def hash_one(self, name: bytes) -> None:
        got = self.hash_input(name)
        if isinstance(got, Outcome):
            self.collided |= got.collision is not None
        else:
            self.failed = True
        self.say(self.cmd.result(name, got))

    def check_list(self, name: bytes) -> None:
        try:
            with _open(name) as f:
                got: bytes | OSError = f.read()
        except OSError as err:
            got = err
        failed, collided = self.cmd.check_list(name, got, _exists, self.hash_input, self.say)
        self.failed, self.collided = self.failed or failed, self.collided or collided


def main(argv: list[str] | None = None) -> int:
    """Runs the command; returns its exit status."""
    args = [os.fsencode(a) for a in (sys.argv[1:] if argv is None else argv)]
    cmd = _CommandLine(args)
    if cmd.ends is not None:
        # --help, --version, --backends, or bad usage.
        (sys.stdout if cmd.ends == 0 else sys.stderr).write(cmd.text or "")
        return cmd.ends
    options = cmd.hash_options()
    try:
        sha1(**options)
    except ValueError as err:
        sys.stderr.write(f"{_CommandLine.PROGRAM}: {err}\n")
        return _CommandLine.USAGE
    run = _Run(cmd, options)
    try:
        for name in [args[i] for i in cmd.files] or [b"-"]:
            (run.check_list if cmd.check else run.hash_one)(name)
        run.out.flush()
    except BrokenPipeError:
        # Quietly, with the status a shell shows for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _CommandLine.BROKEN_PIPE
    return _CommandLine.status(run.failed, run.collided)


if __name__ == "__main__":
    sys.exit(main())
