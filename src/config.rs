//! The options a hasher runs with; see [`crate::Builder`].

/// The four switches of [`crate::Builder`], which a hasher can also change
/// mid-message, and whether anyone reads the plain SHA-1 after a collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    pub detect: bool,
    pub safe_hash: bool,
    pub reduced_round: bool,
    pub use_filter: bool,
    /// Whether the plain SHA-1 chain goes on once a collision parts it from
    /// the safe hash's ([`crate::Outcome::sha1`]): off only for the C
    /// library, whose API has no way to read it (see [`crate::raw`]).
    pub keep_sha1: bool,
}

impl Config {
    /// Detection on, safe hash on, reduced-round detection off, filter on.
    pub(crate) const DEFAULT: Config = Config {
        detect: true,
        safe_hash: true,
        reduced_round: false,
        use_filter: true,
        keep_sha1: true,
    };
}
