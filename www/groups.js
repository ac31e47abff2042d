// The collision groups: files with the same SHA-1 (or git blob id) but different content,
// called out together. Finding them is pure (collisionGroups); showing them is DOM (GroupsView).

import { groupTitle, groupWhy } from './format.js';
import { hexCode } from './render.js';

/**
 * @typedef {{ id: number, name: string, anchor: string, gitBlob: boolean, sha1: string, hex: string }} Hashed
 *   a file with a verdict: `sha1` is its plain SHA-1 (or git blob id), `hex` its safe hash
 * @typedef {{ gitBlob: boolean, sha1: string, files: Hashed[] }} Group
 */

/**
 * Groups of files that share a plain digest but not a safe hash, i.e. differ in content. A
 * git blob id and a SHA-1 never pair up. Groups and their files keep the order given.
 * @param {Iterable<Hashed>} files
 * @returns {Group[]}
 */
export function collisionGroups(files) {
  const byDigest = new Map();
  for (const f of files) {
    const key = `${f.gitBlob ? 'g' : 's'}:${f.sha1}`;
    if (!byDigest.has(key)) byDigest.set(key, { gitBlob: f.gitBlob, sha1: f.sha1, files: [] });
    byDigest.get(key).files.push(f);
  }
  return [...byDigest.values()].filter((g) => new Set(g.files.map((f) => f.hex)).size > 1);
}

/** The call-outs in a container; rebuilt only when the groups change. */
export class GroupsView {
  constructor(container) {
    this.container = container;
    this.signature = '[]';
  }

  /** @param {Group[]} groups */
  show(groups) {
    // Only on change: the region is aria-live, and a rebuild is read out again.
    const signature = JSON.stringify(groups.map((g) => [g.gitBlob, g.sha1, g.files.map((f) => [f.id, f.hex])]));
    if (signature === this.signature) return;
    this.signature = signature;
    this.container.textContent = '';
    for (const g of groups) this.container.append(callOut(g));
  }
}

function callOut(group) {
  const box = document.createElement('div');
  box.className = 'group';
  box.setAttribute('role', 'note');
  box.dataset.sha1 = group.sha1;
  box.dataset.files = JSON.stringify(group.files.map((f) => f.name));
  const title = document.createElement('p');
  title.className = 'group-title';
  title.textContent = groupTitle(group.files.length);
  const names = document.createElement('ul');
  names.className = 'group-files';
  for (const f of group.files) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${f.anchor}`;
    a.textContent = f.name;
    li.append(a, ' — safe hash ', hexCode(f.hex));
    names.append(li);
  }
  const why = document.createElement('p');
  const [before, after] = groupWhy(group.gitBlob);
  why.append(before, hexCode(group.sha1), after);
  box.append(title, names, why);
  return box;
}
