//! zlib streams inflated into a buffer of the size the entry declares.
//! The inflater is chosen by measurement (benches/inflate.rs, README), once,
//! here: libdeflate natively, zlib-rs in WebAssembly (libdeflate is C, which
//! the wasm32 build has no compiler for). Both sit below one `Raw` call;
//! the sizes, bounds and errors are worked out above it, once.

#[cfg(not(target_arch = "wasm32"))]
mod libdeflate;
#[cfg(any(target_arch = "wasm32", test))]
mod zlib;

#[cfg(not(target_arch = "wasm32"))]
use libdeflate::Libdeflate as Chosen;
#[cfg(target_arch = "wasm32")]
use zlib::ZlibRs as Chosen;

/// The most bytes deflate can make of one compressed byte is about 1032
/// (a 258-byte match per two bits, at best): a declared size beyond that
/// ratio is a lie, refused before any allocation.
const MAX_RATIO: u64 = 1032;

/// Why a zlib stream did not inflate to the declared size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InflateError {
    /// Not a zlib stream, damaged, its Adler-32 wrong, or cut short.
    Damaged,
    /// It inflates to more bytes than the declared size.
    LongerThanDeclared {
        /// The size declared.
        declared: u64,
    },
    /// It inflates to fewer bytes than the declared size.
    ShorterThanDeclared {
        /// The size declared.
        declared: u64,
        /// The size inflated.
        actual: u64,
    },
    /// The declared size is more than `compressed` bytes can inflate to,
    /// or more than this machine can allocate.
    TooLarge {
        /// The size declared.
        declared: u64,
        /// The compressed bytes there are.
        compressed: u64,
    },
}

impl std::fmt::Display for InflateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InflateError::Damaged => f.write_str("damaged or truncated zlib stream"),
            InflateError::LongerThanDeclared { declared } => {
                write!(f, "inflates to more than its declared {declared} bytes")
            }
            InflateError::ShorterThanDeclared { declared, actual } => {
                write!(f, "inflates to {actual} bytes, not its declared {declared}")
            }
            InflateError::TooLarge {
                declared,
                compressed,
            } => write!(
                f,
                "declares {declared} bytes, more than its {compressed} compressed bytes can hold"
            ),
        }
    }
}

/// One inflater of the kind chosen (its tables and window reused across
/// streams).
pub struct Inflater(Chosen);

impl Default for Inflater {
    fn default() -> Self {
        Self::new()
    }
}

impl Inflater {
    /// An inflater; aborts like any allocation when memory is exhausted.
    pub fn new() -> Self {
        Inflater(Chosen::new())
    }

    /// Inflates the zlib stream at the start of `input` into `out`
    /// (cleared first), which must come to exactly `size` bytes. Returns
    /// the compressed bytes the stream took.
    pub fn inflate(
        &mut self,
        input: &[u8],
        size: u64,
        out: &mut Vec<u8>,
    ) -> Result<usize, InflateError> {
        inflate_sized(&mut self.0, input, size, out)
    }

    /// Inflates a stream whose size is not known beforehand (a loose
    /// object), growing `out` up to the ratio's bound. Returns the
    /// compressed bytes the stream took.
    pub fn inflate_any(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<usize, InflateError> {
        inflate_unsized(&mut self.0, input, out)
    }
}

/// What each inflater does: one zlib stream at the start of `input` into
/// the first `room` bytes of `out`'s capacity (`out` empty), `out`'s
/// length set to what was written. Returns (bytes read, bytes written);
/// [`InflateError::LongerThanDeclared`] when the stream needs more room,
/// [`InflateError::Damaged`] when it is not a whole valid stream.
trait Raw {
    fn raw(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        room: usize,
    ) -> Result<(usize, usize), InflateError>;
}

fn inflate_sized(
    raw: &mut impl Raw,
    input: &[u8],
    size: u64,
    out: &mut Vec<u8>,
) -> Result<usize, InflateError> {
    let too_large = InflateError::TooLarge {
        declared: size,
        compressed: input.len() as u64,
    };
    if size > (input.len() as u64).saturating_mul(MAX_RATIO) + 64 {
        return Err(too_large);
    }
    let size_usize = usize::try_from(size).map_err(|_| too_large.clone())?;
    out.clear();
    out.try_reserve_exact(size_usize)
        .map_err(|_| too_large.clone())?;
    match raw.raw(input, out, size_usize)? {
        (used, written) if written == size_usize => Ok(used),
        (_, written) => Err(InflateError::ShorterThanDeclared {
            declared: size,
            actual: written as u64,
        }),
    }
}

fn inflate_unsized(
    raw: &mut impl Raw,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<usize, InflateError> {
    let most = (input.len() as u64).saturating_mul(MAX_RATIO) + 64;
    let mut room = (input.len() as u64 * 4 + 256).min(most);
    loop {
        let room_usize = usize::try_from(room).map_err(|_| InflateError::TooLarge {
            declared: room,
            compressed: input.len() as u64,
        })?;
        out.clear();
        out.try_reserve_exact(room_usize)
            .map_err(|_| InflateError::TooLarge {
                declared: room,
                compressed: input.len() as u64,
            })?;
        match raw.raw(input, out, room_usize) {
            Err(InflateError::LongerThanDeclared { .. }) if room < most => {
                room = (room * 4).min(most);
            }
            Err(InflateError::LongerThanDeclared { .. }) => return Err(InflateError::Damaged),
            other => return other.map(|(used, _)| used),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::libdeflate::Libdeflate;
    use super::zlib::ZlibRs;
    use super::*;

    fn zlib(data: &[u8]) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
    }

    /// Both inflaters give the same answer (bytes, bytes taken, error) on
    /// whole and mis-sized streams; on cut and damaged ones the same bytes
    /// where they inflate, and an error where either errs (a damaged stream
    /// that is also longer than declared may be named by either fault).
    #[test]
    fn zlib_rs_answers_as_libdeflate_does() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut a, mut b) = (Libdeflate::new(), ZlibRs::new());
        let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for len in [0usize, 1, 63, 64, 1000, 70_000] {
            let data: Vec<u8> = (0..len)
                .map(|i| (next() % 7) as u8 ^ (i as u8 & 1))
                .collect();
            let whole = zlib(&data);
            let mut trailing = whole.clone();
            trailing.extend_from_slice(b"next entry");
            let mut inputs = vec![whole.clone(), trailing];
            for cut in [1, 4, whole.len() / 2] {
                inputs.push(whole[..whole.len().saturating_sub(cut)].to_vec());
            }
            for _ in 0..8 {
                let mut flipped = whole.clone();
                let at = next() as usize % flipped.len();
                flipped[at] ^= 1 << (next() % 8);
                inputs.push(flipped);
            }
            for (i, input) in inputs.iter().enumerate() {
                let whole = i < 2;
                for size in [
                    len as u64,
                    len as u64 + 1,
                    (len as u64).saturating_sub(1),
                    0,
                ] {
                    let ra = inflate_sized(&mut a, input, size, &mut out_a);
                    let rb = inflate_sized(&mut b, input, size, &mut out_b);
                    let either = |r: &Result<usize, InflateError>| {
                        matches!(
                            r,
                            Err(InflateError::Damaged | InflateError::LongerThanDeclared { .. })
                        )
                    };
                    if whole || !(either(&ra) && either(&rb)) {
                        assert_eq!(ra, rb, "length {len}, declared {size}, input {i}");
                    }
                    if ra.is_ok() {
                        assert_eq!(out_a, out_b);
                    }
                    checked += 1;
                }
                let ra = inflate_unsized(&mut a, input, &mut out_a);
                let rb = inflate_unsized(&mut b, input, &mut out_b);
                assert_eq!(ra, rb, "length {len}, size unknown, input {i}");
                if ra.is_ok() {
                    assert_eq!(out_a, out_b);
                }
            }
        }
        assert!(checked > 300);
        // The whole stream, with bytes after it: both say where it ended.
        let data = vec![7u8; 5000];
        let mut input = zlib(&data);
        let end = input.len();
        input.extend_from_slice(&[1, 2, 3]);
        assert_eq!(inflate_sized(&mut b, &input, 5000, &mut out_b), Ok(end));
        assert_eq!(out_b, data);
    }
}
