//! SHA-1 compression, and nothing else: the step function (shared with the
//! recompression, src/detect), and one file per way of compressing whole
//! blocks, each platform's (src/platform) entered from there.

#[cfg(sha1dc_armv8)]
#[clippy::msrv = "1.72"]
pub(crate) mod aarch64_sha;
pub(crate) mod lanes;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_sha;

/// The SHA-1 initial chaining value.
pub(crate) const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// The round constants.
pub(crate) const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

/// The working state `a, b, c, d, e` before some step.
pub(crate) type State = [u32; 5];

/// Work a compressor's rounds run between their groups of steps, so that
/// it sits between them in program order and fills their idle issue slots:
/// detection's filter of the block before, beside groups of four
/// (src/detect/interleaved.rs); the batch's lane filter, beside groups of five
/// ([`crate::filter::Parts`]).
pub(crate) trait BetweenGroups {
    /// After group `g` of the rounds: of four steps (0..20) in the
    /// one-block compressors, its schedule words stored; of five (0..16)
    /// in [`lanes::compress_lanes_scheduled`].
    ///
    /// # Safety
    /// The CPU must support whatever the work needs.
    unsafe fn group(&mut self, g: usize);
}

/// Nothing beside the rounds.
impl BetweenGroups for () {
    #[inline(always)]
    unsafe fn group(&mut self, _: usize) {}
}

/// Two kinds of work beside the rounds, the first first.
impl<A: BetweenGroups, B: BetweenGroups> BetweenGroups for (A, B) {
    #[inline(always)]
    unsafe fn group(&mut self, g: usize) {
        // SAFETY: the caller guarantees what both need.
        unsafe {
            self.0.group(g);
            self.1.group(g);
        }
    }
}

/// Work beside the rounds that the caller keeps.
impl<T: BetweenGroups> BetweenGroups for &mut T {
    #[inline(always)]
    unsafe fn group(&mut self, g: usize) {
        // SAFETY: the caller guarantees what `T` needs.
        unsafe { (**self).group(g) }
    }
}

#[inline(always)]
fn f(t: usize, b: u32, c: u32, d: u32) -> u32 {
    match t / 20 {
        0 => d ^ (b & (c ^ d)),
        2 => (b & c) | (d & (b | c)),
        _ => b ^ c ^ d,
    }
}

/// One step forward: the state before step `t` becomes the state after it.
#[inline(always)]
pub(crate) fn step(t: usize, s: &mut State, w: u32) {
    let [a, b, c, d, e] = *s;
    let a2 = a
        .rotate_left(5)
        .wrapping_add(f(t, b, c, d))
        .wrapping_add(e)
        .wrapping_add(K[t / 20])
        .wrapping_add(w);
    *s = [a2, a, b.rotate_left(30), c, d];
}

/// One step backward: the state after step `t` becomes the state before it.
#[inline(always)]
pub(crate) fn unstep(t: usize, s: &mut State, w: u32) {
    let [a2, a, b30, c, d] = *s;
    let b = b30.rotate_right(30);
    let e = a2
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(f(t, b, c, d))
        .wrapping_sub(K[t / 20])
        .wrapping_sub(w);
    *s = [a, b, c, d, e];
}

/// Round `R` (0..4: steps 20R..20R+20) forward, for the steps `t` of
/// `range` (inside that round), with message words `word(t)`: the boolean
/// function and the constant are fixed, no per-step dispatch.
#[inline(always)]
fn round_forward<const R: usize>(
    s: &mut State,
    range: core::ops::Range<usize>,
    word: &impl Fn(usize) -> u32,
) {
    for t in range {
        step(20 * R, s, word(t));
    }
}

/// Round `R` backward, for the steps of `range` from the last to the first.
#[inline(always)]
fn round_backward<const R: usize>(
    s: &mut State,
    range: core::ops::Range<usize>,
    word: &impl Fn(usize) -> u32,
) {
    for t in range.rev() {
        unstep(20 * R, s, word(t));
    }
}

/// The part of `from..to` inside round `r`.
#[inline(always)]
fn clip(from: usize, to: usize, r: usize) -> core::ops::Range<usize> {
    from.max(20 * r)..to.min(20 * r + 20)
}

/// Steps `from..to` forward with message words `word(t)`, round by round.
#[inline(always)]
pub(crate) fn steps_forward(s: &mut State, from: usize, to: usize, word: impl Fn(usize) -> u32) {
    round_forward::<0>(s, clip(from, to, 0), &word);
    round_forward::<1>(s, clip(from, to, 1), &word);
    round_forward::<2>(s, clip(from, to, 2), &word);
    round_forward::<3>(s, clip(from, to, 3), &word);
}

/// Steps `from..to` backward (from `to - 1` down to `from`) with message
/// words `word(t)`, round by round.
#[inline(always)]
pub(crate) fn steps_backward(s: &mut State, from: usize, to: usize, word: impl Fn(usize) -> u32) {
    round_backward::<3>(s, clip(from, to, 3), &word);
    round_backward::<2>(s, clip(from, to, 2), &word);
    round_backward::<1>(s, clip(from, to, 1), &word);
    round_backward::<0>(s, clip(from, to, 0), &word);
}

/// Compresses one block given by its expanded words into the chaining value.
#[inline(always)]
pub(crate) fn compress_expanded(chain: &mut [u32; 5], w: &[u32; 80]) {
    let mut s = *chain;
    for (t, &word) in w.iter().enumerate() {
        step(t, &mut s, word);
    }
    for (h, x) in chain.iter_mut().zip(s) {
        *h = h.wrapping_add(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstep_inverts_step() {
        let mut s: State = [1, 0xdead_beef, 3, 0x8000_0000, 5];
        for t in [0, 19, 20, 39, 40, 59, 60, 79] {
            let before = s;
            step(t, &mut s, 0x1234_5678 ^ t as u32);
            unstep(t, &mut s, 0x1234_5678 ^ t as u32);
            assert_eq!(s, before, "step {t}");
            step(t, &mut s, 7);
        }
    }
}
