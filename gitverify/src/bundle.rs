//! A `git bundle` file: a header (its signature, capabilities,
//! prerequisites and refs, one per line, ended by an empty line), then a
//! pack.

/// Where the pack starts in a bundle whose first bytes are `head`, or why
/// it is not one.
pub fn pack_start(head: &[u8]) -> Result<usize, String> {
    let rest = if let Some(r) = head.strip_prefix(b"# v2 git bundle\n") {
        r
    } else if let Some(r) = head.strip_prefix(b"# v3 git bundle\n") {
        r
    } else {
        return Err("not a git bundle (no v2 or v3 signature)".into());
    };
    let mut at = head.len() - rest.len();
    loop {
        let line_end = head[at..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("the bundle's header does not end (no empty line before its pack)")?;
        if line_end == 0 {
            return Ok(at + 1);
        }
        at += line_end + 1;
    }
}

/// Where the pack starts in the bundle file at `path`.
pub fn read_header(path: &std::path::Path) -> Result<u64, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    // A header of refs can be long, but not longer than the file.
    let mut head = Vec::new();
    let mut reader = file.take(64 << 20);
    loop {
        let mut chunk = [0u8; 65536];
        let n = reader
            .read(&mut chunk)
            .map_err(|e| format!("cannot be read: {e}"))?;
        head.extend_from_slice(&chunk[..n]);
        if head.len() >= 16 && !is_bundle(&head) {
            return Err("not a git bundle (no v2 or v3 signature)".into());
        }
        match pack_start(&head) {
            Ok(at) => return Ok(at as u64),
            Err(e) if n == 0 => return Err(e),
            Err(_) => {}
        }
    }
}

/// Whether `head` starts like a bundle.
pub fn is_bundle(head: &[u8]) -> bool {
    head.starts_with(b"# v2 git bundle\n") || head.starts_with(b"# v3 git bundle\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn header() {
        let b = b"# v2 git bundle\n0123 refs/heads/main\n\nPACK";
        assert_eq!(super::pack_start(b), Ok(b.len() - 4));
        assert!(super::pack_start(b"# v2 git bundle\nabc").is_err());
        assert!(super::pack_start(b"PACK").is_err());
    }
}
