//! Git's delta format: the base's size and the result's size, then copy
//! instructions (a range of the base) and insert instructions (literal
//! bytes). Every range is checked against the base before it is copied.

/// Why a delta could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeltaError {
    /// The delta ends within its sizes or an instruction.
    Truncated,
    /// The delta was made for a base of another size.
    BaseSize {
        /// The base size the delta declares.
        declared: u64,
        /// The base's size.
        actual: u64,
    },
    /// A copy reaching past the base's end.
    CopyOutOfBase {
        /// Where the copy starts in the base.
        offset: u64,
        /// The bytes it copies.
        len: u64,
        /// The base's size.
        base: u64,
    },
    /// Instruction 0, which git reserves.
    ReservedInstruction,
    /// The instructions write more or fewer bytes than the declared size.
    ResultSize {
        /// The result size the delta declares.
        declared: u64,
        /// The bytes written (at least).
        actual: u64,
    },
    /// The declared result cannot be held in memory.
    TooLarge(u64),
}

impl std::fmt::Display for DeltaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeltaError::Truncated => f.write_str("the delta ends within an instruction"),
            DeltaError::BaseSize { declared, actual } => write!(
                f,
                "the delta is for a base of {declared} bytes, but its base has {actual}"
            ),
            DeltaError::CopyOutOfBase { offset, len, base } => write!(
                f,
                "the delta copies {len} bytes at offset {offset}, beyond its base of {base} bytes"
            ),
            DeltaError::ReservedInstruction => {
                f.write_str("the delta holds the reserved instruction 0")
            }
            DeltaError::ResultSize { declared, actual } => write!(
                f,
                "the delta declares a result of {declared} bytes but writes {actual} or more"
            ),
            DeltaError::TooLarge(n) => write!(
                f,
                "the delta declares a result of {n} bytes, too large to hold"
            ),
        }
    }
}

/// Reads a size: base-128, least significant group first.
fn varint(delta: &[u8], at: &mut usize) -> Result<u64, DeltaError> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let b = *delta.get(*at).ok_or(DeltaError::Truncated)?;
        *at += 1;
        if shift > 63 {
            return Err(DeltaError::Truncated);
        }
        value |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
}

/// A copy instruction's range of the base: the bits of `op` say which
/// of its offset's 4 and length's 3 bytes follow (a length of 0 is 64 KiB).
fn copy_range(op: u8, delta: &[u8], at: &mut usize) -> Result<(u64, u64), DeltaError> {
    let mut byte_if = |bit: u8| -> Result<u64, DeltaError> {
        if op & bit == 0 {
            return Ok(0);
        }
        let b = *delta.get(*at).ok_or(DeltaError::Truncated)?;
        *at += 1;
        Ok(u64::from(b))
    };
    let mut offset = 0u64;
    for i in 0..4 {
        offset |= byte_if(1 << i)? << (8 * i);
    }
    let mut len = 0u64;
    for i in 0..3 {
        len |= byte_if(0x10 << i)? << (8 * i);
    }
    Ok((offset, if len == 0 { 0x10000 } else { len }))
}

/// Applies `delta` to `base` into `out` (cleared first).
pub fn apply(base: &[u8], delta: &[u8], out: &mut Vec<u8>) -> Result<(), DeltaError> {
    let mut at = 0;
    let base_size = varint(delta, &mut at)?;
    if base_size != base.len() as u64 {
        return Err(DeltaError::BaseSize {
            declared: base_size,
            actual: base.len() as u64,
        });
    }
    let declared = varint(delta, &mut at)?;
    // Each instruction byte writes at most 64 KiB (a copy) or 127 bytes
    // (an insert): a result larger than that is a lie, found before any
    // allocation.
    let most = (delta.len() as u64).saturating_mul(0x10000);
    if declared > most {
        return Err(DeltaError::ResultSize {
            declared,
            actual: most,
        });
    }
    let declared_len = usize::try_from(declared).map_err(|_| DeltaError::TooLarge(declared))?;
    out.clear();
    out.try_reserve_exact(declared_len)
        .map_err(|_| DeltaError::TooLarge(declared))?;
    let too_long = |out: &Vec<u8>, more: usize| DeltaError::ResultSize {
        declared,
        actual: (out.len() + more) as u64,
    };
    while at < delta.len() {
        let op = delta[at];
        at += 1;
        if op & 0x80 != 0 {
            let (offset, len) = copy_range(op, delta, &mut at)?;
            let end = offset + len;
            if end > base.len() as u64 {
                return Err(DeltaError::CopyOutOfBase {
                    offset,
                    len,
                    base: base.len() as u64,
                });
            }
            if out.len() + len as usize > declared_len {
                return Err(too_long(out, len as usize));
            }
            out.extend_from_slice(&base[offset as usize..end as usize]);
        } else if op != 0 {
            let len = usize::from(op);
            let bytes = delta.get(at..at + len).ok_or(DeltaError::Truncated)?;
            at += len;
            if out.len() + len > declared_len {
                return Err(too_long(out, len));
            }
            out.extend_from_slice(bytes);
        } else {
            return Err(DeltaError::ReservedInstruction);
        }
    }
    if out.len() != declared_len {
        return Err(DeltaError::ResultSize {
            declared,
            actual: out.len() as u64,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_and_inserts() {
        let base = b"hello, world";
        // base 12, result 11: copy 5 at 0, insert "!!", copy 4 at 7 ("worl")
        let delta = [12, 11, 0x90, 5, 2, b'!', b'!', 0x91, 7, 4];
        let mut out = Vec::new();
        apply(base, &delta, &mut out).unwrap();
        assert_eq!(out, b"hello!!worl");
    }

    #[test]
    fn bad_deltas() {
        let base = b"hello";
        let mut out = Vec::new();
        let err = |d: &[u8]| apply(base, d, &mut Vec::new()).unwrap_err();
        assert_eq!(
            err(&[4, 1, 1, b'x']),
            DeltaError::BaseSize {
                declared: 4,
                actual: 5
            }
        );
        assert_eq!(
            err(&[5, 6, 0x91, 2, 6]),
            DeltaError::CopyOutOfBase {
                offset: 2,
                len: 6,
                base: 5
            }
        );
        assert_eq!(err(&[5, 1, 0]), DeltaError::ReservedInstruction);
        assert_eq!(err(&[5, 3, 2, b'x']), DeltaError::Truncated);
        assert_eq!(
            err(&[5, 1, 2, b'x', b'y']),
            DeltaError::ResultSize {
                declared: 1,
                actual: 2
            }
        );
        assert_eq!(
            err(&[5, 3, 1, b'x']),
            DeltaError::ResultSize {
                declared: 3,
                actual: 1
            }
        );
        // Terabytes declared by a few bytes: refused before allocating.
        let huge = [5, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40];
        assert!(matches!(err(&huge), DeltaError::ResultSize { .. }));
        assert!(apply(base, &[5, 0], &mut out).is_ok());
    }
}
