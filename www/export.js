// The saved results: sha1dcsum's text lines and its --json fields, made in the page. Pure
// functions, no DOM.
//
// Git blob ids are not SHA-1 checksums of the files: `sha1sum -c` would call every file
// FAILED. So in that mode the files are named for what they hold, the text starts with comment
// lines that say so and how to check it (GNU `sha1sum -c` skips `#` lines; the lines below
// them are what `sha1dcsum --git-blob` prints), and every JSON object says "mode": "git-blob".
// In the plain mode both are byte for byte what sha1dcsum prints.

/** @typedef {{ name: string, result: { hex: string, sha1: string, collision: object | null } }} Saved */

export const GIT_BLOB_HEADER = '# git blob ids (what git hash-object prints), not SHA-1 checksums of the files:\n' +
  '# check them with sha1dcsum --git-blob -c or git hash-object, not with sha1sum -c.\n';

/** The suggested file name: `kind` is 'txt' or 'json'. */
export function exportName(kind, gitBlob) {
  return `${gitBlob ? 'sha1dc-git-blob-ids' : 'sha1dc-results'}.${kind}`;
}

/**
 * A name as sha1dcsum and GNU sha1sum write it: a newline, carriage return or backslash is
 * escaped (`\n`, `\r`, `\\`) and the line starts with a backslash, so one file is one line.
 * @returns {[prefix: string, name: string]}
 */
export function escapeName(name) {
  if (!/[\n\r\\]/.test(name)) return ['', name];
  return ['\\', name.replace(/[\n\r\\]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\\\'))];
}

/** One line per file, as sha1dcsum prints it (with --git-blob in that mode). @param {Saved[]} files */
export function exportText(files, { gitBlob = false } = {}) {
  const lines = files.map(({ name, result }) => {
    const [prefix, escaped] = escapeName(name);
    return `${prefix}${result.hex}${result.collision ? ' *coll* ' : '  '}${escaped}\n`;
  });
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
