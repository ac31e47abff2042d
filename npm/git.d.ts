// sha1dc-wasm/git: git-sha1dc's verifier (every object of a pack, bundle or repository hashed
// with SHA-1 collision detection) in WebAssembly.

/** A collision found: the object of git-sha1dc's JSON `findings`, and the line it prints. */
export interface GitFinding {
  /** Which check flagged it: the object as git hashes it, or a blob's content as a file. */
  check: 'object' | 'content';
  /** The object's id. */
  id: string;
  type: 'commit' | 'tree' | 'blob' | 'tag';
  /** The object's content size in bytes. */
  size: number;
  /** Where the first flagged 64-byte block starts in the object's content. */
  offset: number;
  /** The disturbance vector the block matched, as `I(48,0)`. */
  dv: string;
  /** The file the object is in. */
  file: string;
  /** The object's entry offset in its pack (null for a loose object). */
  pack_offset: number | null;
  /** What git-sha1dc prints for it. */
  line: string;
}

/** A damaged or unreadable part: the object of git-sha1dc's JSON `damage`. */
export interface GitDamage {
  file: string;
  /** The entry's offset in the pack, where known. */
  offset: number | null;
  /** The object's id, where known. */
  id: string | null;
  /** What is wrong. */
  message: string;
  /** What git-sha1dc prints for it (after `git-sha1dc: `). */
  line: string;
}

/** git-sha1dc's JSON document. */
export interface GitReport {
  objects: { commit: number; tree: number; blob: number; tag: number; total: number };
  content_check: boolean;
  files: number;
  findings: Omit<GitFinding, 'line'>[];
  damage: Omit<GitDamage, 'line'>[];
  alternates_not_verified: string[];
  /** git-sha1dc's exit status: 0 clean, 3 a collision, 1 damage alone. */
  exit: 0 | 1 | 3;
}

export interface GitProgress {
  /** Objects verified so far. */
  objects: number;
  /** Objects the files verified so far declare. */
  total: number;
  /** Bytes of object content verified so far. */
  bytes: number;
}

export interface VerifyGitOptions {
  /** Also hash every blob's content as a file (git-sha1dc --content). */
  content?: boolean;
  /** Node, files on disk: worker threads, each a WebAssembly instance (default: every CPU). */
  jobs?: number;
  /** A pack, bundle or loose-object directory is about to be verified. */
  onSource?: (source: { file: string; objects: number }) => void;
  onProgress?: (progress: GitProgress) => void;
  onFinding?: (finding: GitFinding) => void;
  onDamage?: (damage: GitDamage) => void;
}

export interface VerifyGitResult {
  /** git-sha1dc's exit status: 0 clean, 3 a collision (whatever else), 1 damage alone. */
  exitCode: 0 | 1 | 3;
  /** git-sha1dc's closing summary line (without its `git-sha1dc: ` prefix). */
  summary: string;
  /** Lines printed before verifying: paths naming nothing verifiable, alternates not verified. */
  notes: string[];
  /** git-sha1dc --json's document, as text (the same bytes). */
  json: string;
  /** The same, parsed. */
  report: GitReport;
}

/** A pack or a bundle as bytes or a Blob (a File): told apart by its name, else its first bytes. */
export type GitBytes = Uint8Array | Blob;

/**
 * A directory handle: the File System Access API's `FileSystemDirectoryHandle` (a folder the
 * user picked, the origin private file system), or any object of its shape. A work tree is
 * read through its `.git`.
 */
export interface GitDirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<{ readonly kind: string; readonly name: string }>;
}

/**
 * What verifyGit checks. Node: paths (repositories (work tree, .git, bare), objects
 * directories, .pack, .idx, bundles). Anywhere: a pack or a bundle in memory or as a Blob, a
 * pack with its index, the Files of a picked or dropped folder (by `webkitRelativePath`), a
 * directory handle. In a worker, Blobs are read in slices as needed; on a page's main thread
 * and in Node, read whole first.
 */
export type GitInput =
  | string
  | string[]
  | GitBytes
  | { pack: GitBytes; index?: GitBytes; name?: string }
  | { bundle: GitBytes; name?: string }
  | Iterable<Blob>
  | GitDirectoryHandle;

/** Verifies every object of `input`, calling the options' callbacks as things are found. */
export function verifyGit(input: GitInput, options?: VerifyGitOptions): Promise<VerifyGitResult>;
