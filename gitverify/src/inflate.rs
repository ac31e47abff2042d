//! zlib streams inflated by libdeflate (chosen by measurement:
//! benches/inflate.rs) into a buffer of the size the entry declares.

use std::ptr::NonNull;

use libdeflate_sys as sys;

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

/// One libdeflate decompressor (its tables are reused across streams).
pub struct Inflater(NonNull<sys::libdeflate_decompressor>);

// SAFETY: the decompressor is plain memory owned by this value; libdeflate
// keeps no thread-local or global state for it.
unsafe impl Send for Inflater {}

impl Default for Inflater {
    fn default() -> Self {
        Self::new()
    }
}

impl Inflater {
    /// A decompressor; aborts like any allocation when memory is exhausted.
    pub fn new() -> Self {
        // SAFETY: FFI call without arguments; a null result is handled.
        let ptr = unsafe { sys::libdeflate_alloc_decompressor() };
        Inflater(NonNull::new(ptr).expect("libdeflate could not allocate a decompressor"))
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
        match self.raw(input, out, size_usize)? {
            (used, written) if written == size_usize => Ok(used),
            (_, written) => Err(InflateError::ShorterThanDeclared {
                declared: size,
                actual: written as u64,
            }),
        }
    }

    /// Inflates a stream whose size is not known beforehand (a loose
    /// object), growing `out` up to the ratio's bound. Returns the
    /// compressed bytes the stream took.
    pub fn inflate_any(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<usize, InflateError> {
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
            match self.raw(input, out, room_usize) {
                Err(InflateError::LongerThanDeclared { .. }) if room < most => {
                    room = (room * 4).min(most);
                }
                Err(InflateError::LongerThanDeclared { .. }) => return Err(InflateError::Damaged),
                other => return other.map(|(used, _)| used),
            }
        }
    }

    /// libdeflate into the first `room` bytes of `out`'s capacity; sets
    /// `out`'s length to what was written. Returns (bytes read, written).
    fn raw(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        room: usize,
    ) -> Result<(usize, usize), InflateError> {
        debug_assert!(out.capacity() >= room && out.is_empty());
        let mut used = 0usize;
        let mut written = 0usize;
        // SAFETY: `input` is readable for its length and `out` writable for
        // `room` bytes (its capacity); libdeflate writes no more than that,
        // and reports in `written` how many it did write, all initialised.
        let result = unsafe {
            let r = sys::libdeflate_zlib_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                room,
                &mut used,
                &mut written,
            );
            if r == sys::libdeflate_result_LIBDEFLATE_SUCCESS {
                out.set_len(written);
            }
            r
        };
        match result {
            sys::libdeflate_result_LIBDEFLATE_SUCCESS => Ok((used, written)),
            sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => {
                Err(InflateError::LongerThanDeclared {
                    declared: room as u64,
                })
            }
            _ => Err(InflateError::Damaged),
        }
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { sys::libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}
