// The saved results: sha1dcsum's text lines (written by its own code, the package's
// formatChecksumLine) and its --json fields, made in the page. No DOM; the package's module
// must be loaded (init()) before exportText runs.
//
// Git blob ids are not SHA-1 checksums of the files: `sha1sum -c` would call every file
// FAILED. So in that mode the files are named for what they hold, the text starts with comment
// lines that say so and how to check it (GNU `sha1sum -c` skips `#` lines; the lines below
// them are what `sha1dcsum --git-blob` prints), and every JSON object says "mode": "git-blob".
// In the plain mode both are byte for byte what sha1dcsum prints.

import { formatChecksumLine } from './pkg/index.mjs';

const decoder = new TextDecoder();

/** @typedef {{ name: string, result: { hex: string, sha1: string, collision: object | null } }} Saved */

export const GIT_BLOB_HEADER = '# git blob ids (what git hash-object prints), not SHA-1 checksums of the files:\n' +
  '# check them with sha1dcsum --git-blob -c or git hash-object, not with sha1sum -c.\n';

/** The suggested file name: `kind` is 'txt' or 'json'. */
export function exportName(kind, gitBlob) {
  return `${gitBlob ? 'sha1dc-git-blob-ids' : 'sha1dc-results'}.${kind}`;
}

/** One line per file, as sha1dcsum prints it (with --git-blob in that mode). @param {Saved[]} files */
export function exportText(files, { gitBlob = false } = {}) {
  const lines = files.map(({ name, result }) => decoder.decode(formatChecksumLine(result, name)));
  return (gitBlob ? GIT_BLOB_HEADER : '') + lines.join('');
}

/** An array of sha1dcsum --json objects, each marked "mode": "git-blob" in that mode. @param {Saved[]} files */
export function exportJson(files, { gitBlob = false } = {}) {
  const list = files.map(({ name, result }) => ({
    file: name,
    ...(gitBlob ? { mode: 'git-blob' } : {}),
    sha1: result.sha1,
    output: result.hex,
    collision: result.collision && {
      offset: result.collision.offset, block: result.collision.block, dv: result.collision.dv, count: result.collision.count,
    },
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
}
