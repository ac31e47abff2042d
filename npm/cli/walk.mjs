// The inputs of a hashing run, in order: the arguments, and with --recursive the regular files
// below each directory argument, as sha1dcsum's walk.rs finds them: a directory's entries in the
// byte order of their names, a subdirectory's files where its name sorts, each named by its path
// joined to the argument; symbolic links met inside are skipped, and so are files that are not
// regular (only a link named on the command line is followed). Directories are listed one at a
// time, so memory grows with the depth of the tree, not its size.
import { readdirSync, statSync } from 'node:fs';

const STDIN = Buffer.from('-');
const SLASH = 0x2f;

/** `dir` joined with `name`, as Rust's Path::join does it. */
const join = (dir, name) => Buffer.concat(dir[dir.length - 1] === SLASH ? [dir, name] : [dir, Buffer.from('/'), name]);

/** The entries of `dir`, last first: [path, dirent]. Throws when it cannot be listed. */
function list(dir) {
  const entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  entries.sort((a, b) => Buffer.compare(b.name, a.name));
  return entries.map((d) => [join(dir, d.name), d]);
}

function isDir(name) {
  try {
    return statSync(name).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The inputs, one by one: { name } to hash, or { name, error } for a directory that could not
 * be listed.
 */
export function* walk(args, recursive) {
  for (const arg of args) {
    if (!recursive || arg.equals(STDIN) || !isDir(arg)) {
      yield { name: arg };
      continue;
    }
    const stack = [];
    try {
      stack.push(list(arg));
    } catch (error) {
      yield { name: arg, error };
      continue;
    }
    while (stack.length > 0) {
      const entry = stack[stack.length - 1].pop();
      if (entry === undefined) {
        stack.pop();
        continue;
      }
      const [path, dirent] = entry;
      if (dirent.isDirectory()) {
        try {
          stack.push(list(path));
        } catch (error) {
          yield { name: path, error };
        }
      } else if (dirent.isFile()) {
        yield { name: path };
      }
    }
  }
}
