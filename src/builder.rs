//! [`Builder`]: a hasher's options and backend, and what can be hashed
//! with them in one call (a message, many messages, git objects).

use crate::Hasher;
use crate::batch::{self, Message};
use crate::config::Config;
use crate::engine::Engine;
use crate::git::{self, ObjectKind, ObjectOutcome};
use crate::outcome::Outcome;
use crate::platform::{Backend, BackendError, Platform};

/// Options for a [`Hasher`].
///
/// ```
/// use sha1dc_wasm::Hasher;
///
/// let hasher = Hasher::builder()
///     .safe_hash(true)
///     .reduced_round(true)
///     .build();
/// # drop(hasher);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Builder {
    config: Config,
    /// The forced backend's platform, or `None` for the fastest this CPU
    /// runs.
    backend: Option<Platform>,
}

impl Hasher {
    /// Options for a hasher; see [`Builder`].
    pub fn builder() -> Builder {
        Builder::default()
    }
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            config: Config::DEFAULT,
            backend: None,
        }
    }
}

impl Builder {
    /// Detect collisions (default true). Off, the hasher is plain SHA-1.
    pub fn detect_collisions(mut self, on: bool) -> Self {
        self.config.detect = on;
        self
    }

    /// On a detected collision, output the safe hash (default true): the
    /// flagged block is compressed three times in all, so the two messages of
    /// a collision get different outputs.
    pub fn safe_hash(mut self, on: bool) -> Self {
        self.config.safe_hash = on;
        self
    }

    /// Also flag blocks whose recompression collides in the input chaining
    /// value, which catches reduced-round collisions (default false).
    pub fn reduced_round(mut self, on: bool) -> Self {
        self.config.reduced_round = on;
        self
    }

    /// Use the unavoidable-bit-condition filter (default true). Off, every
    /// block is recompressed for all 32 disturbance vectors: the results are
    /// the same, about 20 times slower. For tests.
    pub fn use_filter(mut self, on: bool) -> Self {
        self.config.use_filter = on;
        self
    }

    /// Run a named backend instead of the fastest available one; fails when
    /// the name is unknown or this CPU lacks its instructions.
    ///
    /// ```
    /// let hasher = sha1dc_wasm::Hasher::builder().backend("portable").unwrap().build();
    /// assert_eq!(hasher.backend(), "portable");
    /// assert!(sha1dc_wasm::Hasher::builder().backend("no-such-thing").is_err());
    /// ```
    pub fn backend(mut self, name: &str) -> Result<Self, BackendError> {
        self.backend = Some(Backend::by_name(name)?);
        Ok(self)
    }

    /// The forced backend's platform, or the fastest this CPU runs.
    fn chosen_backend(&self) -> Platform {
        self.backend.unwrap_or_else(Backend::best)
    }

    /// Hashes `data` in one call with these options: what a hasher from
    /// [`build`](Self::build) gives for it, without the streaming buffer.
    ///
    /// ```
    /// let builder = sha1dc_wasm::Hasher::builder().safe_hash(false);
    /// let mut hasher = builder.build();
    /// hasher.update(b"abc");
    /// assert_eq!(builder.hash(b"abc"), hasher.finalize());
    /// ```
    pub fn hash(&self, data: &[u8]) -> Outcome {
        Engine::new(self.config, self.chosen_backend()).hash_all(data)
    }

    /// The hasher.
    pub fn build(self) -> Hasher {
        let backend = self.chosen_backend();
        Hasher {
            engine: Engine::new(self.config, backend),
        }
    }

    /// A hasher for a git object of `kind` whose content is `content_len`
    /// bytes, with these options: it hashes the header `<type> <len>\0`
    /// first; see [`git`].
    ///
    /// ```
    /// use sha1dc_wasm::{Hasher, git::ObjectKind};
    ///
    /// let mut blob = Hasher::builder().safe_hash(false).build_object(ObjectKind::Blob, 0);
    /// blob.update(b"");
    /// // `git hash-object /dev/null`
    /// assert_eq!(
    ///     blob.finalize().unwrap().id().to_string(),
    ///     "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    /// );
    /// ```
    pub fn build_object(self, kind: ObjectKind, content_len: u64) -> git::ObjectHasher {
        git::ObjectHasher::with_hasher(self.build(), kind, content_len)
    }

    /// Hashes every message of `messages` with these options, several at a
    /// time (one per vector lane: 16 with AVX-512, 8 with AVX2, 4 with SSE2,
    /// NEON or simd128, 2 portable), into `out`: `out[i]` is exactly what a
    /// hasher from this builder gives for `messages[i]`, collisions
    /// included. Allocates nothing.
    ///
    /// Independent messages are not bound by the latency of one SHA-1
    /// chain, so this beats hashing them one by one when there are many;
    /// the last few messages of a batch finish on the single stream.
    ///
    /// The messages are any slice of byte containers (`&[&[u8]]`,
    /// `&Vec<Vec<u8>>`, `&[String]`...). An `out` of another length than
    /// `messages` is an error, and nothing is hashed.
    ///
    /// ```
    /// use sha1dc_wasm::{Hasher, Outcome};
    ///
    /// let messages: [&[u8]; 3] = [b"abc", b"", include_bytes!("../tests/data/sha-mbles-1.bin")];
    /// let mut out = [Outcome::default(); 3];
    /// Hasher::builder().hash_many_into(&messages, &mut out)?;
    /// assert_eq!(out[0], sha1dc_wasm::hash(b"abc"));
    /// assert!(out[2].collision().is_some());
    ///
    /// let err = Hasher::builder().hash_many_into(&messages, &mut out[..2]).unwrap_err();
    /// assert_eq!((err.inputs(), err.outputs()), (3, 2));
    /// # Ok::<(), sha1dc_wasm::SliceLengthError>(())
    /// ```
    pub fn hash_many_into<M: AsRef<[u8]>>(
        &self,
        messages: &[M],
        out: &mut [Outcome],
    ) -> Result<(), SliceLengthError> {
        SliceLengthError::check(messages.len(), out.len())?;
        let backend = self.chosen_backend();
        let message = |i: usize| Message::plain(messages[i].as_ref());
        batch::hash(backend, self.config, &message, out);
        Ok(())
    }

    /// Hashes many git objects of one kind (each `<kind> <len>\0` then its
    /// content), as [`hash_many_into`](Self::hash_many_into) does messages:
    /// `out[i]` is what [`git::hash_object`] gives
    /// for `contents[i]` with these options. An `out` of another length
    /// than `contents` is an error, and nothing is hashed.
    ///
    /// ```
    /// use sha1dc_wasm::git::{ObjectKind, hash_object};
    ///
    /// let contents: [&[u8]; 2] = [b"", b"hello\n"];
    /// let ids = sha1dc_wasm::Hasher::builder().hash_objects(ObjectKind::Blob, &contents);
    /// assert_eq!(ids[1].id().to_string(), "ce013625030ba8dba906f756967f9e9ca394464a");
    /// assert_eq!(ids[0], hash_object(ObjectKind::Blob, b""));
    /// ```
    pub fn hash_objects_into<M: AsRef<[u8]>>(
        &self,
        kind: ObjectKind,
        contents: &[M],
        out: &mut [ObjectOutcome],
    ) -> Result<(), SliceLengthError> {
        SliceLengthError::check(contents.len(), out.len())?;
        // Hashed in chunks, so that the outcomes can be converted without
        // an allocation.
        const CHUNK: usize = 256;
        let backend = self.chosen_backend();
        for (contents, out) in contents.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let mut outcomes = [Outcome::default(); CHUNK];
            let outcomes = &mut outcomes[..contents.len()];
            batch::hash(
                backend,
                self.config,
                &|i| Message::object(kind, contents[i].as_ref()),
                outcomes,
            );
            for ((o, outcome), content) in out.iter_mut().zip(outcomes).zip(contents) {
                let header_len = Message::object(kind, content.as_ref()).header_len();
                *o = ObjectOutcome::from_parts(*outcome, header_len);
            }
        }
        Ok(())
    }
}

/// The forms that return a vector (feature `std`).
#[cfg(feature = "std")]
impl Builder {
    /// [`hash_many_into`](Self::hash_many_into) into a new vector.
    ///
    /// ```
    /// let messages: Vec<Vec<u8>> = vec![b"a".to_vec(), b"bc".to_vec()];
    /// let outcomes = sha1dc_wasm::Hasher::builder().hash_many(&messages);
    /// assert_eq!(outcomes[1], sha1dc_wasm::hash(b"bc"));
    /// ```
    pub fn hash_many<M: AsRef<[u8]>>(&self, messages: &[M]) -> Vec<Outcome> {
        let mut out = vec![Outcome::default(); messages.len()];
        let backend = self.chosen_backend();
        let message = |i: usize| Message::plain(messages[i].as_ref());
        batch::hash(backend, self.config, &message, &mut out);
        out
    }

    /// [`hash_objects_into`](Self::hash_objects_into) into a new vector.
    pub fn hash_objects<M: AsRef<[u8]>>(
        &self,
        kind: ObjectKind,
        contents: &[M],
    ) -> Vec<ObjectOutcome> {
        let placeholder = ObjectOutcome::from_parts(Outcome::default(), 0);
        let mut out = vec![placeholder; contents.len()];
        // Of the same length by construction.
        let _ = self.hash_objects_into(kind, contents, &mut out);
        out
    }
}

/// Hashes many messages with the default options, several at a time; see
/// [`Builder::hash_many_into`](crate::Builder::hash_many_into).
///
/// ```
/// let outcomes = sha1dc_wasm::hash_many(&["abc", "defg"]);
/// assert_eq!(outcomes[0], sha1dc_wasm::hash(b"abc"));
/// ```
#[cfg(feature = "std")]
pub fn hash_many<M: AsRef<[u8]>>(messages: &[M]) -> Vec<Outcome> {
    crate::Builder::default().hash_many(messages)
}

/// An output slice of another length than the input slice it was given
/// for ([`Builder::hash_many_into`], [`Builder::hash_objects_into`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceLengthError {
    inputs: usize,
    outputs: usize,
}

impl SliceLengthError {
    fn check(inputs: usize, outputs: usize) -> Result<(), Self> {
        if inputs == outputs {
            Ok(())
        } else {
            Err(SliceLengthError { inputs, outputs })
        }
    }

    /// How many messages (or objects) were given.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many outcomes the output slice had room for.
    pub fn outputs(&self) -> usize {
        self.outputs
    }
}

impl core::fmt::Display for SliceLengthError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} inputs but room for {} outcomes: the output slice must be as long as the input",
            self.inputs, self.outputs
        )
    }
}
