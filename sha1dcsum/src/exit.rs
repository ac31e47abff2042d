//! The exit statuses, which `--help` lists (help.rs).

/// Every input read, no collision.
pub const OK: u8 = 0;
/// Some input could not be read, or the output could not be written.
pub const IO_ERROR: u8 = 1;
/// Bad usage.
pub const USAGE: u8 = 2;
/// A collision was detected (and every input was read).
pub const COLLISION: u8 = 3;
/// Standard output was closed by its reader: the status a shell shows for a
/// process killed by SIGPIPE (128 + 13), which is what coreutils gets.
pub const BROKEN_PIPE: u8 = 141;

/// The status of a run (hashing or `-c`): an unreadable or failed input
/// (1) before a detected collision (3) before success (0).
pub fn status(failed: bool, collided: bool) -> u8 {
    if failed {
        IO_ERROR
    } else if collided {
        COLLISION
    } else {
        OK
    }
}
