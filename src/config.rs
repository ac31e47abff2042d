//! The options a hasher runs with; see [`crate::Builder`].

/// The four switches of [`crate::Builder`], which a hasher can also change
/// mid-message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    pub detect: bool,
    pub safe_hash: bool,
    pub reduced_round: bool,
    pub use_filter: bool,
}

impl Config {
    /// Detection on, safe hash on, reduced-round detection off, filter on.
    pub(crate) const DEFAULT: Config = Config {
        detect: true,
        safe_hash: true,
        reduced_round: false,
        use_filter: true,
    };
}
