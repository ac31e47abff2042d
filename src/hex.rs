//! [`Digest`], the 20 bytes a hash gives, and its hex forms.

use core::fmt;
use core::str::FromStr;

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// A 20-byte SHA-1 (or safe-hash) digest.
///
/// It converts to and from `[u8; 20]` and byte slices, compares with byte
/// arrays, and formats as hex: `Display` and `{:x}` in lower case, `{:X}`
/// in upper case, with width, fill, alignment and precision honoured as for
/// a string (so `{:.7}` is git's short form), and `{:#x}` prefixed by `0x`.
/// `Debug` shows the hex too, never a list of 20 numbers.
///
/// ```
/// use sha1dc_wasm::Digest;
///
/// let d: Digest = "A9993E364706816ABA3E25717850C26C9CD0D89D".parse().unwrap();
/// assert_eq!(d.to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// assert_eq!(d.as_bytes()[0], 0xa9);
/// assert!("abc".parse::<Digest>().is_err());
///
/// assert_eq!(format!("{d:.7}"), "a9993e3");
/// assert_eq!(format!("[{d:>42}]"), "[  a9993e364706816aba3e25717850c26c9cd0d89d]");
/// assert_eq!(format!("{d:X}"), "A9993E364706816ABA3E25717850C26C9CD0D89D");
///
/// let bytes: [u8; 20] = d.into();
/// assert_eq!(Digest::from(bytes), d);
/// assert_eq!(d, bytes);
/// assert_eq!(Digest::try_from(&bytes[..]).unwrap(), d);
/// assert!(Digest::try_from(&bytes[..19]).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Digest([u8; 20]);

impl Digest {
    /// A digest from its 20 bytes.
    pub const fn from_bytes(bytes: [u8; 20]) -> Self {
        Digest(bytes)
    }

    /// The 20 bytes.
    pub const fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }

    /// The 20 bytes, by value.
    pub const fn to_bytes(self) -> [u8; 20] {
        self.0
    }

    /// Lower-case hex in a stack buffer, for `no_std` callers.
    ///
    /// ```
    /// let d = sha1dc_wasm::hash(b"").digest();
    /// assert_eq!(&d.to_hex(), b"da39a3ee5e6b4b0d3255bfef95601890afd80709");
    /// ```
    pub fn to_hex(&self) -> [u8; 40] {
        self.hex(LOWER)
    }

    fn hex(&self, digits: &[u8; 16]) -> [u8; 40] {
        let mut out = [0u8; 40];
        for (i, b) in self.0.iter().enumerate() {
            out[2 * i] = digits[usize::from(b >> 4)];
            out[2 * i + 1] = digits[usize::from(b & 15)];
        }
        out
    }

    /// Writes the hex through [`fmt::Formatter::pad`], so width, fill,
    /// alignment and precision apply to the digest as a whole, as they do to
    /// a string; `#` prefixes `0x` when `alternate_prefix` (the hex traits,
    /// as for integers).
    fn pad_hex(
        &self,
        f: &mut fmt::Formatter<'_>,
        digits: &[u8; 16],
        alternate_prefix: bool,
    ) -> fmt::Result {
        let mut buf = [0u8; 42];
        let (prefix, hex) = buf.split_at_mut(2);
        hex.copy_from_slice(&self.hex(digits));
        prefix.copy_from_slice(b"0x");
        let text = if alternate_prefix && f.alternate() {
            &buf[..]
        } else {
            &buf[2..]
        };
        // ASCII by construction.
        f.pad(core::str::from_utf8(text).map_err(|_| fmt::Error)?)
    }

    /// The digest a chaining value stands for: its words, big-endian.
    pub(crate) fn from_chain(chain: &[u32; 5]) -> Self {
        let mut out = [0u8; 20];
        for (chunk, word) in out.chunks_exact_mut(4).zip(chain) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        Digest(out)
    }
}

impl AsRef<[u8]> for Digest {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<[u8; 20]> for Digest {
    fn from(bytes: [u8; 20]) -> Self {
        Digest(bytes)
    }
}

impl From<Digest> for [u8; 20] {
    fn from(d: Digest) -> Self {
        d.0
    }
}

/// A slice of exactly 20 bytes; any other length fails with the standard
/// library's slice-to-array error.
impl TryFrom<&[u8]> for Digest {
    type Error = core::array::TryFromSliceError;

    fn try_from(bytes: &[u8]) -> Result<Self, Self::Error> {
        <[u8; 20]>::try_from(bytes).map(Digest)
    }
}

impl PartialEq<[u8; 20]> for Digest {
    fn eq(&self, other: &[u8; 20]) -> bool {
        self.0 == *other
    }
}

impl PartialEq<Digest> for [u8; 20] {
    fn eq(&self, other: &Digest) -> bool {
        *self == other.0
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pad_hex(f, LOWER, false)
    }
}

impl fmt::LowerHex for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pad_hex(f, LOWER, true)
    }
}

impl fmt::UpperHex for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pad_hex(f, UPPER, true)
    }
}

/// `Digest(<hex>)`: readable in logs and assertion failures.
impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.to_hex();
        let hex = core::str::from_utf8(&hex).map_err(|_| fmt::Error)?;
        f.debug_tuple("Digest")
            .field(&format_args!("{hex}"))
            .finish()
    }
}

/// Why a string is not a digest: it must be exactly 40 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseDigestError {
    kind: ParseErrorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParseErrorKind {
    Length(usize),
    NotHex(usize),
}

impl fmt::Display for ParseDigestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::Length(n) => {
                write!(f, "a SHA-1 digest is 40 hex digits, not {n} characters")
            }
            ParseErrorKind::NotHex(i) => {
                write!(f, "character {i} of the digest is not a hex digit")
            }
        }
    }
}

impl FromStr for Digest {
    type Err = ParseDigestError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.as_bytes();
        if s.len() != 40 {
            return Err(ParseDigestError {
                kind: ParseErrorKind::Length(s.len()),
            });
        }
        let nibble = |i: usize| -> Result<u8, ParseDigestError> {
            let v = match s[i] {
                c @ b'0'..=b'9' => c - b'0',
                c @ b'a'..=b'f' => c - b'a' + 10,
                c @ b'A'..=b'F' => c - b'A' + 10,
                _ => {
                    return Err(ParseDigestError {
                        kind: ParseErrorKind::NotHex(i),
                    });
                }
            };
            Ok(v)
        };
        let mut out = [0u8; 20];
        for (i, b) in out.iter_mut().enumerate() {
            *b = (nibble(2 * i)? << 4) | nibble(2 * i + 1)?;
        }
        Ok(Digest(out))
    }
}
