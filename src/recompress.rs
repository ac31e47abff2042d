//! Recompression: the check that decides whether a block the filter let
//! through really is part of a collision.

use crate::compress::{State, state_before, steps_backward, steps_forward};
use crate::dv::{DVS, Dv};

/// The first DV (in table order, as the reference) among `mask` for which
/// the block with expanded words `w`, compressed from `ihv_in` to `ihv_out`,
/// has a colliding partner: recompressing the partner block (`w ^ dm`) from
/// the shared state at the DV's test step lands on the same output, or, with
/// `reduced_round`, started from the same input.
pub(crate) fn first_match(
    w: &[u32; 80],
    ihv_in: &[u32; 5],
    ihv_out: &[u32; 5],
    mask: u32,
    reduced_round: bool,
) -> Option<usize> {
    // Both test steps' states are derived at most once per block.
    let mut states: [Option<State>; 2] = [None, None];
    // The set bits of `mask`, lowest (first in table order) first.
    let mut rest = mask;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let dv = &DVS[i];
        let slot = usize::from(dv.test_step != 58);
        let state =
            *states[slot].get_or_insert_with(|| state_before(dv.test_step, ihv_in, ihv_out, w));
        let (in2, out2) = recompress(dv, w, state);
        if out2 == *ihv_out || (reduced_round && in2 == *ihv_in) {
            return Some(i);
        }
    }
    None
}

/// The partner's input and output chaining values: from the state before
/// the DV's test step, steps back to the start and forward to the end with
/// the partner's message words.
pub(crate) fn recompress(dv: &Dv, w: &[u32; 80], state: State) -> ([u32; 5], [u32; 5]) {
    // Each test step its own copy: constant loop bounds, unrolled, no
    // bounds checks on the message words.
    match dv.test_step {
        58 => recompress_from(58, dv, w, state),
        65 => recompress_from(65, dv, w, state),
        t0 => recompress_from(t0, dv, w, state),
    }
}

#[inline(always)]
fn recompress_from(t0: usize, dv: &Dv, w: &[u32; 80], state: State) -> ([u32; 5], [u32; 5]) {
    let word = |t: usize| w[t] ^ dv.dm[t];
    let mut back = state;
    steps_backward(&mut back, 0, t0, word);
    let mut fwd = state;
    steps_forward(&mut fwd, t0, 80, word);
    let mut out = back;
    for (o, x) in out.iter_mut().zip(fwd) {
        *o = o.wrapping_add(x);
    }
    (back, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::{Block, IV, compress_expanded, expand};

    fn words(s: &str) -> Vec<u32> {
        s.split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect()
    }

    fn five(s: &str) -> [u32; 5] {
        words(s).try_into().expect("five words")
    }

    /// Each entry of RECOMPRESSION_KAT.txt: the block's expanded message,
    /// compression, derived states, filter mask, and the partner's values.
    #[test]
    fn recompression_known_answers() {
        let text = include_str!("../tests/data/RECOMPRESSION_KAT.txt");
        let mut checked = 0;
        for entry in text.split("\n\n").filter(|e| e.starts_with("file=")) {
            let field = |key: &str| -> &str {
                let line = entry
                    .lines()
                    .find(|l| l.starts_with(key))
                    .unwrap_or_else(|| panic!("{key}"));
                line.split_once("= ")
                    .unwrap()
                    .1
                    .split("   (")
                    .next()
                    .unwrap()
            };
            let header = entry.lines().next().unwrap();
            let file = header
                .split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches("file=");
            let block_index: usize = header
                .split("block=")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let data =
                std::fs::read(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let block: Block = data[block_index * 64..block_index * 64 + 64]
                .try_into()
                .unwrap();

            // The chaining value before the block, by plain SHA-1 of the prefix.
            let mut ihv_in = IV;
            for b in data[..block_index * 64].chunks_exact(64) {
                compress_expanded(&mut ihv_in, &expand(b.try_into().unwrap()));
            }
            assert_eq!(ihv_in, five(field("ihv_in")), "{file}");
            let w = expand(&block);
            let w_text: String = entry.lines().skip(4).take(10).collect::<Vec<_>>().join(" ");
            assert_eq!(w.to_vec(), words(&w_text), "{file}: expanded message");
            let mut ihv_out = ihv_in;
            compress_expanded(&mut ihv_out, &w);
            assert_eq!(ihv_out, five(field("ihv_out")), "{file}");

            // The reference names its registers a..e by a scheme that rotates
            // one place per step, so its tuple before step t is ours rotated
            // by t mod 5.
            for (t, key) in [(58, "state_before_step58"), (65, "state_before_step65")] {
                let mut s = state_before(t, &ihv_in, &ihv_out, &w);
                s.rotate_left(t % 5);
                assert_eq!(s, five(field(key)), "{file}: {key}");
            }

            let mut mask = [0u32];
            crate::filter::scalar::masks(core::slice::from_ref(&block), &mut mask);
            assert_eq!(
                mask[0],
                u32::from_str_radix(field("ubc_dvmask"), 16).unwrap(),
                "{file}"
            );

            let dv = DVS
                .iter()
                .position(|d| d.k == 52 && d.b == 0 && d.kind == crate::dv::DvType::II)
                .unwrap();
            let (in2, out2) = recompress(&DVS[dv], &w, state_before(65, &ihv_in, &ihv_out, &w));
            assert_eq!(in2, five(field("recompressed ihv2_in")), "{file}");
            assert_eq!(out2, five(field("recompressed ihv2_out")), "{file}");

            let full = entry.contains("full_collision(ihv2_out==ihv_out)=1");
            let reduced = entry.contains("reduced_round(ihv2_in==ihv_in)=1");
            assert_eq!(out2 == ihv_out, full, "{file}");
            assert_eq!(in2 == ihv_in, reduced, "{file}");
            assert_eq!(
                first_match(&w, &ihv_in, &ihv_out, mask[0], false),
                full.then_some(dv),
                "{file}"
            );
            assert_eq!(
                first_match(&w, &ihv_in, &ihv_out, mask[0], true),
                Some(dv),
                "{file}"
            );
            checked += 1;
        }
        assert_eq!(checked, 5, "entries in RECOMPRESSION_KAT.txt");
    }
}
