//! [`Hasher`], the streaming API over the engine (src/engine.rs), with
//! its reporting calls, the two halves' hashing side, and (feature `std`)
//! one input on two threads.

use crate::config::Config;
use crate::engine::Engine;
use crate::platform::Backend;
use crate::record::Reporter;
use crate::{BlockFilter, CollisionBlock, MaskCountError, Outcome};

/// A streaming SHA-1 hasher with collision detection.
///
/// Feed it any number of chunks with [`update`](Hasher::update); chunk sizes
/// never change the result. [`finalize`](Hasher::finalize) consumes it;
/// [`reset`](Hasher::reset) starts over with the same options.
///
/// ```
/// use sha1dc_wasm::Hasher;
///
/// let mut hasher = Hasher::builder().safe_hash(false).build();
/// hasher.update(include_bytes!("../tests/data/shattered-1.prefix320.bin"));
/// let outcome = hasher.finalize();
/// // Without safe hashing, the output is the plain SHA-1, but the report stays.
/// assert_eq!(outcome.digest(), outcome.sha1());
/// assert!(outcome.collision().is_some());
/// ```
///
/// With the `digest` feature it implements RustCrypto's `Default`,
/// `Update`, `FixedOutput`, `FixedOutputReset`, `Reset`, `HashMarker` and
/// `OutputSizeUser` (so `digest::Digest` and `DynDigest` too, with its boxed
/// `finalize` and `box_clone` when `std` is on). Their output
/// is [`Outcome::digest`]: the safe hash when a collision is detected (the
/// default), so generic code never stores the shared SHA-1 of a colliding
/// pair as if it named one file. The traits have no place for the report:
/// the inherent [`finalize`](Hasher::finalize) returns the whole
/// [`Outcome`], and wins in method-call syntax even with the traits in
/// scope.
///
/// Its `Debug` shows the backend, the options and the length so far, never
/// message bytes.
#[derive(Clone)]
pub struct Hasher {
    pub(crate) engine: Engine,
}

/// The backend, the options and the length so far: never the buffered
/// message bytes or the chaining values, which may come from a secret
/// (a hasher is easily logged with `{:?}` as part of a larger struct).
impl core::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let config = self.engine.config();
        f.debug_struct("Hasher")
            .field("backend", &self.backend())
            .field("detect_collisions", &config.detect)
            .field("safe_hash", &config.safe_hash)
            .field("reduced_round", &config.reduced_round)
            .field("use_filter", &config.use_filter)
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher {
    /// A hasher with the defaults: detection on, safe hash on, reduced-round
    /// detection off, and the fastest backend this CPU supports.
    pub fn new() -> Self {
        Hasher {
            engine: Engine::new(Config::DEFAULT, Backend::best()),
        }
    }

    /// Adds `data` to the message.
    pub fn update(&mut self, data: &[u8]) {
        self.engine.update(data, &mut Reporter::none());
    }

    /// [`update`](Self::update), calling `on_collision` for each block
    /// found to be half of a collision, in message order, before its safe
    /// hash is applied. Every block this call completes is compressed
    /// within it (none is held back for the next call, as `update` may
    /// hold one), and so is a block an earlier `update` held back.
    ///
    /// ```
    /// let mut offsets = Vec::new();
    /// let mut hasher = sha1dc_wasm::Hasher::new();
    /// let pdf = include_bytes!("../tests/data/shattered-2.prefix320.bin");
    /// hasher.update_reporting(pdf, &mut |block| offsets.push(block.offset()));
    /// assert_eq!(offsets, [256]);
    /// ```
    pub fn update_reporting(&mut self, data: &[u8], on_collision: &mut dyn FnMut(&CollisionBlock)) {
        self.engine.update(data, &mut Reporter(Some(on_collision)));
    }

    /// The filter half of detection at this hasher's place in the message,
    /// on its backend, to run apart (another thread, another worker) and
    /// feed [`update_with_masks`](Self::update_with_masks); see
    /// [`BlockFilter`].
    pub fn block_filter(&self) -> BlockFilter {
        self.engine.block_filter()
    }

    /// [`update`](Self::update) with the candidate masks a [`BlockFilter`]
    /// gave for the same `data`: blocks without a candidate are compressed
    /// with plain rounds, the others tested as usual. The result, and the
    /// report, are those of [`update`](Self::update), whatever the
    /// chunking. `masks` must hold one mask for each block `data`
    /// completes; otherwise nothing is hashed and the error says how many.
    pub fn update_with_masks(&mut self, data: &[u8], masks: &[u32]) -> Result<(), MaskCountError> {
        self.engine
            .update_with_masks(data, masks, &mut Reporter::none())
    }

    /// [`update_with_masks`](Self::update_with_masks), calling
    /// `on_collision` for each flagged block as
    /// [`update_reporting`](Self::update_reporting) does.
    pub fn update_with_masks_reporting(
        &mut self,
        data: &[u8],
        masks: &[u32],
        on_collision: &mut dyn FnMut(&CollisionBlock),
    ) -> Result<(), MaskCountError> {
        self.engine
            .update_with_masks(data, masks, &mut Reporter(Some(on_collision)))
    }

    /// Finishes the message and reports what was found.
    pub fn finalize(mut self) -> Outcome {
        self.engine.finalize(&mut Reporter::none())
    }

    /// [`finalize`](Self::finalize), calling `on_collision` for each
    /// flagged block it compresses (the padding, and a block an earlier
    /// `update` held back), as [`update_reporting`](Self::update_reporting)
    /// does.
    pub fn finalize_reporting(mut self, on_collision: &mut dyn FnMut(&CollisionBlock)) -> Outcome {
        self.engine.finalize(&mut Reporter(Some(on_collision)))
    }

    /// Finishes the message and reports what was found, leaving the hasher
    /// reset for a new message with the same options.
    ///
    /// ```
    /// let mut hasher = sha1dc_wasm::Hasher::new();
    /// hasher.update(b"abc");
    /// let first = hasher.finalize_reset();
    /// hasher.update(b"abc");
    /// assert_eq!(hasher.finalize(), first);
    /// ```
    pub fn finalize_reset(&mut self) -> Outcome {
        let outcome = self.engine.finalize(&mut Reporter::none());
        self.engine.reset();
        outcome
    }

    /// Forgets the message so far; the options stay (as last set).
    pub fn reset(&mut self) {
        self.engine.reset();
    }

    /// Bytes added so far.
    pub fn len(&self) -> u64 {
        self.engine.len()
    }

    /// True when no byte has been added yet.
    pub fn is_empty(&self) -> bool {
        self.engine.len() == 0
    }

    /// The name of the backend this hasher runs (see
    /// [`available_backends`](crate::available_backends)).
    pub fn backend(&self) -> &'static str {
        self.engine.backend_name()
    }

    /// Changes [`Builder::safe_hash`](crate::Builder::safe_hash) from here on, at any point of
    /// the message (as the reference's setters can). The new option applies to
    /// every block not compressed yet, that is every block not already
    /// whole before this call; the blocks before keep the option they were
    /// added with.
    ///
    /// ```
    /// use sha1dc_wasm::Hasher;
    ///
    /// let pdf = include_bytes!("../tests/data/shattered-1.prefix320.bin");
    /// let mut switched = Hasher::new();
    /// switched.update(&pdf[..100]);
    /// switched.set_safe_hash(false);
    /// switched.update(&pdf[100..]);
    /// // The collision is in block 4, after the switch: as if built without.
    /// let mut built = Hasher::builder().safe_hash(false).build();
    /// built.update(pdf);
    /// assert_eq!(switched.finalize(), built.finalize());
    /// ```
    pub fn set_safe_hash(&mut self, on: bool) {
        self.engine.change_config(|c| c.safe_hash = on);
    }

    /// Changes [`Builder::detect_collisions`](crate::Builder::detect_collisions) from here on; see
    /// [`set_safe_hash`](Self::set_safe_hash) for which blocks it applies to.
    pub fn set_detect_collisions(&mut self, on: bool) {
        self.engine.change_config(|c| c.detect = on);
    }

    /// Changes [`Builder::reduced_round`](crate::Builder::reduced_round) from here on; see
    /// [`set_safe_hash`](Self::set_safe_hash) for which blocks it applies to.
    pub fn set_reduced_round(&mut self, on: bool) {
        self.engine.change_config(|c| c.reduced_round = on);
    }

    /// Changes [`Builder::use_filter`](crate::Builder::use_filter) from here on; see
    /// [`set_safe_hash`](Self::set_safe_hash) for which blocks it applies to.
    pub fn set_use_filter(&mut self, on: bool) {
        self.engine.change_config(|c| c.use_filter = on);
    }
}

/// One large input on two threads (feature `std`): the filter half of
/// detection runs ahead on a second thread, and this thread compresses the
/// blocks without a candidate with plain rounds (see [`BlockFilter`]).
/// Where this CPU's one-thread path already hides the filter beside the
/// rounds (the `sha-ni+avx512` backend on AMD), the filter stays on this
/// thread: handing it over would cost more than it saves. Nothing else in
/// the crate starts a thread.
#[cfg(feature = "std")]
impl Hasher {
    /// [`update`](Self::update), with the filter on a second thread: the
    /// same result, in less time when a second core is free. Below 256 KiB,
    /// with detection or the filter off, or where the one-thread path hides
    /// the filter (above), it runs on this thread alone;
    /// so does any stretch the second thread has not filtered in time (it
    /// started late, or was descheduled). The second thread has ended when
    /// this returns.
    ///
    /// ```
    /// let data = vec![7u8; 1 << 20];
    /// let mut hasher = sha1dc_wasm::Hasher::new();
    /// hasher.update_parallel(&data);
    /// assert_eq!(hasher.finalize(), sha1dc_wasm::hash(&data));
    /// ```
    pub fn update_parallel(&mut self, data: &[u8]) {
        let (chunks, min) = (
            crate::parallel::Chunks::DEFAULT,
            crate::parallel::PARALLEL_MIN,
        );
        crate::parallel::update_slice(&mut self.engine, data, chunks, min);
    }

    /// Reads `reader` to its end into the message, as [`std::io::copy`]
    /// into the hasher would, with the reading and the filter on a second
    /// thread: this thread only hashes (and filters, where the one-thread
    /// path hides the filter: above). An input that ends within 256 KiB
    /// is read and hashed on this thread alone. Returns the bytes read, or
    /// the first read error (the message then holds part of what was read
    /// before it: [`reset`](Self::reset) the hasher to use it again). The
    /// second thread has ended when this returns.
    ///
    /// ```
    /// # fn main() -> std::io::Result<()> {
    /// let data = vec![7u8; 1 << 20];
    /// let mut hasher = sha1dc_wasm::Hasher::new();
    /// assert_eq!(hasher.update_reader_parallel(&data[..])?, 1 << 20);
    /// assert_eq!(hasher.finalize(), sha1dc_wasm::hash(&data));
    /// # Ok(())
    /// # }
    /// ```
    pub fn update_reader_parallel<R: std::io::Read + Send>(
        &mut self,
        reader: R,
    ) -> std::io::Result<u64> {
        let (min, chunk) = (crate::parallel::PARALLEL_MIN, crate::parallel::CHUNK);
        crate::parallel::update_reader(&mut self.engine, reader, min, chunk).map(|(read, _)| read)
    }
}

#[cfg(feature = "std")]
impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
