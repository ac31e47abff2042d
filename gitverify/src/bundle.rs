//! A `git bundle` file: a header (its signature, capabilities,
//! prerequisites and refs, one per line, ended by an empty line), then a
//! pack.

use crate::error::BundleError;
use crate::pack::ByteSource;

/// Where the pack starts in a bundle whose first bytes are `head`
/// (`None`: its header does not end within them), or why it is not one
/// this command can verify.
pub fn pack_start(head: &[u8]) -> Result<Option<usize>, BundleError> {
    let rest = if let Some(r) = head.strip_prefix(b"# v2 git bundle\n") {
        r
    } else if let Some(r) = head.strip_prefix(b"# v3 git bundle\n") {
        r
    } else {
        return Err(BundleError::NotABundle);
    };
    let mut at = head.len() - rest.len();
    while let Some(line_end) = head[at..].iter().position(|&b| b == b'\n') {
        let line = &head[at..at + line_end];
        if line.is_empty() {
            return Ok(Some(at + 1));
        }
        // A v3 capability: the hash naming the objects.
        if let Some(format) = line.strip_prefix(b"@object-format=") {
            if format != b"sha1" {
                let format = String::from_utf8_lossy(format).into_owned();
                return Err(BundleError::ObjectFormat(format));
            }
        }
        at += line_end + 1;
    }
    Ok(None)
}

/// Where the pack starts in the bundle `file`.
pub fn read_header(file: &dyn ByteSource) -> Result<u64, BundleError> {
    let unreadable = |e: std::io::Error| BundleError::Unreadable(e.into());
    // A header of refs can be long, but not longer than the file.
    let mut head = Vec::new();
    let most = file.len().min(64 << 20);
    loop {
        let at = head.len() as u64;
        let n = (most - at).min(65536) as usize;
        let mut chunk = [0u8; 65536];
        file.read_at(at, &mut chunk[..n]).map_err(unreadable)?;
        head.extend_from_slice(&chunk[..n]);
        if head.len() >= 16 && !is_bundle(&head) {
            return Err(BundleError::NotABundle);
        }
        match pack_start(&head) {
            Ok(Some(at)) => return Ok(at as u64),
            Ok(None) if n == 0 => return Err(BundleError::Unterminated),
            Err(e) if head.len() >= 16 || n == 0 => return Err(e),
            _ => {}
        }
    }
}

/// Whether `head` starts like a bundle.
pub fn is_bundle(head: &[u8]) -> bool {
    head.starts_with(b"# v2 git bundle\n") || head.starts_with(b"# v3 git bundle\n")
}

#[cfg(test)]
mod tests {
    use crate::error::BundleError;

    #[test]
    fn header() {
        let b = b"# v2 git bundle\n0123 refs/heads/main\n\nPACK";
        assert_eq!(super::pack_start(b), Ok(Some(b.len() - 4)));
        assert_eq!(super::pack_start(b"# v2 git bundle\nabc"), Ok(None));
        assert!(super::pack_start(b"PACK").is_err());
        let v3 = b"# v3 git bundle\n@object-format=sha1\n0123 refs/heads/main\n\nPACK";
        assert_eq!(super::pack_start(v3), Ok(Some(v3.len() - 4)));
        let sha256 = b"# v3 git bundle\n@object-format=sha256\n0123 refs/heads/main\n\nPACK";
        assert_eq!(
            super::pack_start(sha256),
            Err(BundleError::ObjectFormat("sha256".into()))
        );
    }
}
