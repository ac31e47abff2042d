// Checksum lines, as sha1dcsum and GNU sha1sum write them and `sha1sum -c` reads them: the
// wrapper of the wasm side's parseChecksumLine and formatChecksumLine (bindings/src/lines.rs,
// which are sha1dcsum's own code). The checker page and the package's command use them too.
import { describe, toInput } from './input.mjs';
import { hex } from './result.mjs';

const STYLES = ['text', 'binary', 'tag'];
const FORMAT_OPTIONS = ['style', 'zero'];
const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** `x` (a string, hashed as UTF-8, or bytes) as bytes; `where` names it in errors. */
function bytes(x, where) {
  const input = toInput(x, where);
  return typeof input === 'string' ? encoder.encode(input) : input;
}

/** parseChecksumLine and formatChecksumLine over the raw exports; `ensureReady(where)` throws before init(). */
export function createChecksumLines(raw, ensureReady) {
  return {
    /** One line of a checksum list, with or without its newline. */
    parseChecksumLine(line) {
      ensureReady('parseChecksumLine()');
      let b = bytes(line, 'line');
      if (b[b.length - 1] === NEWLINE) b = b.subarray(0, -1);
      const r = raw.parseChecksumLine(b);
      switch (r[0]) {
        case 0:
          return { type: 'ignored' };
        case 1:
          return { type: 'improper' };
        case 2:
          return { type: 'checksum', name: r.slice(24), hex: hex(r, 4), flagged: r[1] === 1, style: STYLES[r[2]] };
        default:
          return { type: 'unreadable', name: r.slice(4) };
      }
    },

    /** The line sha1dcsum prints for a result (`{ hex, collision }`) and a name, newline included. */
    formatChecksumLine(result, name, options) {
      ensureReady('formatChecksumLine()');
      if (result === null || typeof result !== 'object' || typeof result.hex !== 'string') {
        throw new TypeError(`sha1dc: formatChecksumLine() result must be a result object ({ hex, collision }); got ${describe(result)}`);
      }
      if (!/^[0-9a-fA-F]{40}$/.test(result.hex)) {
        throw new TypeError(`sha1dc: formatChecksumLine() result.hex must be 40 hex digits; got ${JSON.stringify(result.hex.slice(0, 60))}`);
      }
      const { style = 'text', zero = false } = checkFormatOptions(options);
      return raw.formatChecksumLine(result.hex, bytes(name, 'name'), Boolean(result.collision), STYLES.indexOf(style), zero);
    },
  };
}

function checkFormatOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`sha1dc: formatChecksumLine() options must be an object; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!FORMAT_OPTIONS.includes(key)) {
      throw new TypeError(`sha1dc: unknown option ${JSON.stringify(key)} for formatChecksumLine(); the options are ${FORMAT_OPTIONS.join(', ')}`);
    }
  }
  if (options.style !== undefined && !STYLES.includes(options.style)) {
    throw new TypeError(`sha1dc: option style must be 'text', 'binary' or 'tag'; got ${describe(options.style)}`);
  }
  if (options.zero !== undefined && typeof options.zero !== 'boolean') {
    throw new TypeError(`sha1dc: option zero must be a boolean; got ${describe(options.zero)}`);
  }
  return options;
}
