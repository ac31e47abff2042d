//! The disturbance vectors: the one table the filter, the recompression and
//! the report all read.

use core::fmt;

mod table;

pub(crate) use table::DVS;

/// The two families of disturbance vectors (Manuel's classification).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DvKind {
    /// Type I.
    I,
    /// Type II.
    II,
}

/// One disturbance vector: its message difference and the step from which
/// the recompression starts.
pub(crate) struct Dv {
    pub kind: DvKind,
    pub k: u8,
    pub b: u8,
    /// The recompression starts from the state before this step (58 or 65).
    pub test_step: usize,
    /// Message difference of the partner block, word by word.
    pub dm: [u32; 80],
}

/// A disturbance vector named as in the literature: `II(52,0)` is type II,
/// K = 52, B = 0.
///
/// ```
/// let outcome = sha1dc_wasm::hash(include_bytes!("../../tests/data/shattered-2.prefix320.bin"));
/// let dv = outcome.collision().unwrap().dv();
/// assert_eq!((dv.kind(), dv.k(), dv.b()), (sha1dc_wasm::DvKind::II, 52, 0));
/// assert_eq!(dv.to_string(), "II(52,0)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DisturbanceVector {
    index: u8,
}

impl DisturbanceVector {
    /// Its row of the table.
    pub(crate) fn row(self) -> &'static Dv {
        &DVS[usize::from(self.index)]
    }

    pub(crate) fn from_index(index: usize) -> Self {
        debug_assert!(index < DVS.len());
        DisturbanceVector { index: index as u8 }
    }

    /// The disturbance vector at `index` in the reference's table (the
    /// [`index`](DisturbanceVector::index) a report gives), or `None` past
    /// the last one: for callers that store a report compactly and name the
    /// DV later.
    ///
    /// ```
    /// use sha1dc_wasm::DisturbanceVector;
    ///
    /// let dv = sha1dc_wasm::hash(include_bytes!("../../tests/data/sha-mbles-1.bin"))
    ///     .collision()
    ///     .unwrap()
    ///     .dv();
    /// assert_eq!(DisturbanceVector::by_index(dv.index()), Some(dv));
    /// assert_eq!(DisturbanceVector::by_index(32), None);
    /// ```
    pub fn by_index(index: usize) -> Option<Self> {
        (index < DVS.len()).then(|| DisturbanceVector::from_index(index))
    }

    /// Type I or II.
    pub fn kind(&self) -> DvKind {
        DVS[usize::from(self.index)].kind
    }

    /// The K parameter (the step where the disturbance vector's window starts).
    pub fn k(&self) -> u8 {
        DVS[usize::from(self.index)].k
    }

    /// The B parameter (the bit rotation).
    pub fn b(&self) -> u8 {
        DVS[usize::from(self.index)].b
    }

    /// Position in the reference's table, and the DV's bit in the filter mask.
    pub fn index(&self) -> usize {
        usize::from(self.index)
    }
}

impl fmt::Display for DisturbanceVector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind() {
            DvKind::I => "I",
            DvKind::II => "II",
        };
        write!(f, "{kind}({},{})", self.k(), self.b())
    }
}

/// Its name, as `Display` writes it: `II(52,0)`.
impl fmt::Debug for DisturbanceVector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
