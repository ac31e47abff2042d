// Files the verifier reads (bindings/git's RawFiles) held in memory: files given as bytes (a
// pack a git client has just fetched) or as Blobs (a page's dropped files, read with
// FileReaderSync in a worker). No Node module: browsers and workers load it too. A failing
// call throws the error's number (errno), as git-files.mjs's do.

const ENOENT = 2;
const ENOTDIR = 20;

/**
 * Bytes `from` to `to` of a Blob, read synchronously (only a worker can). The ArrayBuffers
 * FileReaderSync makes do not prompt V8 to collect the earlier ones, which piled up to hundreds
 * of MiB over a pack read a few times (Chromium 156); one made here does.
 */
export function readBlob(blob, from, to) {
  const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob.slice(from, to)));
  nudge = new ArrayBuffer(8);
  return bytes;
}
let nudge;

/**
 * Files held in memory, by path ("fetched.pack", "repo/.git/objects/pack/x.pack"): each a
 * Uint8Array, or a Blob read with FileReaderSync (in a worker). Directories are the paths'
 * prefixes.
 */
export class MemoryFiles {
  #files = new Map();
  #dirs = new Map();

  /** `entries`: [path, Uint8Array | Blob] pairs. */
  constructor(entries) {
    for (const [path, data] of entries) this.add(path, data);
  }

  add(path, data) {
    this.#files.set(path, data);
    const abs = path.startsWith('/');
    const parts = path.split('/').filter(Boolean);
    for (let i = parts.length - 1; i > 0; i--) {
      const dir = (abs ? '/' : '') + parts.slice(0, i).join('/');
      if (!this.#dirs.has(dir)) this.#dirs.set(dir, new Set());
      this.#dirs.get(dir).add(parts[i]);
    }
  }

  kind(path) {
    const p = path.replace(/\/+$/, '');
    if (this.#files.has(p)) return 0;
    if (this.#dirs.has(p)) return 1;
    throw ENOENT;
  }

  list(path) {
    const names = this.#dirs.get(path.replace(/\/+$/, ''));
    if (!names) throw this.#files.has(path) ? ENOTDIR : ENOENT;
    return [...names].map((n) => `${n}\0`).join('');
  }

  size(path) {
    const data = this.#files.get(path);
    if (data === undefined) throw ENOENT;
    return data.byteLength ?? data.size;
  }

  readAt(path, at, into) {
    const data = this.#files.get(path);
    if (data === undefined) throw ENOENT;
    if (data instanceof Uint8Array) {
      into.set(data.subarray(at, at + into.length));
    } else {
      into.set(readBlob(data, at, at + into.length));
    }
  }

  canonical(path) {
    this.kind(path);
    return path.startsWith('/') ? path : `/${path}`;
  }

  close() {}
}
