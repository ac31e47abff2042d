// The files the verifier reads (bindings/git's RawFiles: what a path is, a directory's entries,
// bytes of a file at an offset), from the file system through Node's fs, synchronously: the
// verifier asks for bytes as it walks. (git-memory.mjs holds files given as bytes or Blobs.)
// A failing call throws the error's number (errno), which the module words as the Rust
// command does.
import * as fs from 'node:fs';

const EIO = 5;
const errno = (e) => (typeof e?.errno === 'number' ? Math.abs(e.errno) : EIO);

/** The file system, through Node's fs; open files are kept (a pack is read many times). */
export class NodeFiles {
  #fds = new Map();

  kind(path) {
    try {
      const s = fs.statSync(path);
      return s.isFile() ? 0 : s.isDirectory() ? 1 : 2;
    } catch (e) {
      throw errno(e);
    }
  }

  list(path) {
    try {
      return fs.readdirSync(path).map((n) => `${n}\0`).join('');
    } catch (e) {
      throw errno(e);
    }
  }

  size(path) {
    try {
      return fs.statSync(path).size;
    } catch (e) {
      throw errno(e);
    }
  }

  readAt(path, at, into) {
    try {
      const fd = this.#open(path);
      for (let done = 0; done < into.length; ) {
        const n = fs.readSync(fd, into, done, into.length - done, at + done);
        if (n === 0) throw { errno: EIO };
        done += n;
      }
    } catch (e) {
      throw errno(e);
    }
  }

  canonical(path) {
    try {
      return fs.realpathSync(path);
    } catch (e) {
      throw errno(e);
    }
  }

  #open(path) {
    let fd = this.#fds.get(path);
    if (fd === undefined) {
      // Loose objects are read once each: keep only the latest few open.
      if (this.#fds.size >= 32) {
        const [oldest, oldFd] = this.#fds.entries().next().value;
        this.#fds.delete(oldest);
        fs.closeSync(oldFd);
      }
      fd = fs.openSync(path, 'r');
      this.#fds.set(path, fd);
    }
    return fd;
  }

  /** Closes the files kept open. */
  close() {
    for (const fd of this.#fds.values()) fs.closeSync(fd);
    this.#fds.clear();
  }
}
