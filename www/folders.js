// What a drop holds: files, and folders walked recursively (the File and Directory Entries API,
// `webkitGetAsEntry`, which every current browser has for drops). No DOM but the DataTransfer.

/**
 * The files of a drop, each with its path ("folder/sub/file.txt" inside a dropped folder).
 * Call it during the drop event: a DataTransfer's items are gone once the event is over (the
 * entries taken from them stay usable). Resolves to { files: { file, path }[], refused, unreadable }:
 * `refused` names dropped items the browser gave no access to (a folder in a browser without
 * the entries API, whose "file" cannot be read), `unreadable` folders that failed part way.
 * @param {DataTransfer} dt
 */
export function filesFromDrop(dt) {
  const items = Array.from(dt.items || []).filter((item) => item.kind === 'file');
  const entries = items.map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null));
  if (entries.length > 0 && entries.every(Boolean)) return walkAll(entries);
  return plainFiles(Array.from(dt.files || []));
}

async function walkAll(entries) {
  const out = { files: [], refused: [], unreadable: [] };
  for (const entry of entries) await walk(entry, out);
  return out;
}

const path = (entry) => entry.fullPath.replace(/^\/+/, '') || entry.name;

async function walk(entry, out) {
  if (entry.isFile) {
    try {
      out.files.push({ file: await new Promise((ok, fail) => entry.file(ok, fail)), path: path(entry) });
    } catch {
      out.unreadable.push(path(entry));
    }
    return;
  }
  if (!entry.isDirectory) return;
  let children;
  try {
    children = await readAll(entry.createReader());
  } catch {
    out.unreadable.push(path(entry));
    return;
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const child of children) await walk(child, out);
}

/** Every entry of a directory: readEntries gives them in batches until an empty one. */
async function readAll(reader) {
  const all = [];
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

/**
 * Without the entries API a dropped folder arrives as a File that cannot be read (4096 bytes on
 * Linux, 0 elsewhere): reading its first byte tells it from a file.
 */
async function plainFiles(files) {
  const out = { files: [], refused: [], unreadable: [] };
  const readable = await Promise.all(files.map((file) => file.slice(0, 1).arrayBuffer().then(() => true, () => false)));
  files.forEach((file, i) => {
    if (readable[i]) out.files.push({ file, path: file.name });
    else out.refused.push(file.name);
  });
  return out;
}
