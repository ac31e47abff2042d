//! The recompression against the reference's values for each block that
//! fires (tests/data/RECOMPRESSION_KAT.txt), and every backend's own
//! compression and test of a candidate against them.

use super::recompress::{TestStates, first_match, partner_at_boundary, recompress};
use super::{Candidates, Found};
use crate::block::{Block, expand};
use crate::compress::{IV, compress_expanded, steps_forward};
use crate::dv::{DVS, DisturbanceVector, DvKind};
use crate::platform::choice::Vendor;
use crate::platform::{Backend, Kernels, OnKernels, Platform, Traits};

fn words(s: &str) -> Vec<u32> {
    s.split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect()
}

fn five(s: &str) -> [u32; 5] {
    words(s).try_into().expect("five words")
}

/// One entry of RECOMPRESSION_KAT.txt.
struct Entry<'a> {
    text: &'a str,
    file: &'a str,
    block: Block,
    /// The plain chaining value into the block.
    chain_in: [u32; 5],
}

impl<'a> Entry<'a> {
    fn parse(text: &'a str) -> Self {
        let header = text.lines().next().unwrap();
        let value = |key: &str| {
            let field = header.split_whitespace().find(|f| f.starts_with(key));
            field.unwrap().split_once('=').unwrap().1
        };
        let file = value("file=");
        let index: usize = value("block=").parse().unwrap();
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read(path).unwrap();
        let (blocks, _) = crate::block::split_blocks(&data);
        let mut chain_in = IV;
        for b in &blocks[..index] {
            compress_expanded(&mut chain_in, &expand(b));
        }
        Entry {
            text,
            file,
            block: blocks[index],
            chain_in,
        }
    }

    /// The value of `key = ...`, without a trailing remark.
    fn field(&self, key: &str) -> &'a str {
        let line = self.text.lines().find(|l| l.starts_with(key));
        let value = line.unwrap_or_else(|| panic!("{key}")).split_once("= ");
        value.unwrap().1.split("   (").next().unwrap()
    }

    fn says(&self, verdict: &str) -> bool {
        self.text.contains(verdict)
    }
}

/// The expanded message, the compression, and the states before steps 58
/// and 65, as the reference computes them.
fn check_compression(e: &Entry, w: &[u32; 80]) -> ([u32; 5], TestStates) {
    assert_eq!(e.chain_in, five(e.field("ihv_in")), "{}", e.file);
    let w_text: Vec<&str> = e.text.lines().skip(4).take(10).collect();
    assert_eq!(w.to_vec(), words(&w_text.join(" ")), "{}", e.file);
    let mut chain_out = e.chain_in;
    compress_expanded(&mut chain_out, w);
    assert_eq!(chain_out, five(e.field("ihv_out")), "{}", e.file);
    let mut before_60 = e.chain_in;
    steps_forward(&mut before_60, 0, 60, |t| w[t]);
    let states = TestStates::from_before_60(before_60, w);
    // The reference names its registers a..e by a scheme that rotates one
    // place per step, so its tuple before step t is ours rotated by t mod 5.
    for (t, mut s, key) in [
        (58, states.before_58, "state_before_step58"),
        (65, states.before_65, "state_before_step65"),
    ] {
        s.rotate_left(t % 5);
        assert_eq!(s, five(e.field(key)), "{}: {key}", e.file);
    }
    (chain_out, states)
}

/// Each entry: the block's expanded message, compression, derived states,
/// filter mask and the partner's values; the scalar test and every
/// backend's compression and test of the candidate give the verdict.
#[test]
fn recompression_known_answers() {
    let text = include_str!("../../tests/data/RECOMPRESSION_KAT.txt");
    let entries: Vec<Entry> = text
        .split("\n\n")
        .filter(|e| e.starts_with("file="))
        .map(Entry::parse)
        .collect();
    assert_eq!(entries.len(), 5, "entries in RECOMPRESSION_KAT.txt");
    let dv = DVS
        .iter()
        .position(|d| (d.kind, d.k, d.b) == (DvKind::II, 52, 0))
        .unwrap();
    for e in &entries {
        let w = expand(&e.block);
        let (chain_out, states) = check_compression(e, &w);
        let mut mask = [0u32];
        crate::filter::scalar_masks(core::slice::from_ref(&e.block), &mut mask);
        let want_mask = u32::from_str_radix(e.field("ubc_dvmask"), 16).unwrap();
        assert_eq!(mask[0], want_mask, "{}", e.file);
        let (in2, out2) = recompress(&DVS[dv], &w, states.before_65);
        assert_eq!(in2, five(e.field("recompressed ihv2_in")), "{}", e.file);
        assert_eq!(out2, five(e.field("recompressed ihv2_out")), "{}", e.file);
        let full = e.says("full_collision(ihv2_out==ihv_out)=1");
        assert_eq!(out2 == chain_out, full, "{}", e.file);
        let reduced = e.says("reduced_round(ihv2_in==ihv_in)=1");
        assert_eq!(in2 == e.chain_in, reduced, "{}", e.file);
        for reduced_round in [false, true] {
            let c = Candidates {
                mask: mask[0],
                reduced_round,
            };
            let want = (full || reduced_round).then_some(DisturbanceVector::from_index(dv));
            let got = first_match(&w, &e.chain_in, &chain_out, &states, c);
            assert_eq!(got, want, "{}", e.file);
            // Every backend's own compress-and-test agrees, and compresses
            // as plain SHA-1 does.
            for name in crate::available_backends() {
                let backend = Backend::named(name).unwrap();
                for vendor in Vendor::ALL {
                    let mut chain = e.chain_in;
                    let work = CompressCandidate(&mut chain, &e.block, c);
                    let got = backend.on(vendor).run_on_kernels(work);
                    let what = format!("{}: {name} for {vendor:?}, rr={reduced_round}", e.file);
                    assert_eq!((got, chain), (want, chain_out), "{what}");
                }
            }
        }
    }
}

/// The partner's state at the group boundary, in a few additions, is the
/// partner stepped from the shared state before its DV's test step, for
/// every DV on random blocks.
#[test]
fn partner_at_boundary_is_the_stepped_partner() {
    let mut rng = crate::splitmix::SplitMix64(0xb0d1);
    for round in 0..200 {
        let mut block = [0u8; 64];
        rng.fill(&mut block);
        let w = expand(&block);
        let mut before_60: [u32; 5] = core::array::from_fn(|_| rng.next_u64() as u32);
        steps_forward(&mut before_60, 0, 60, |t| w[t]);
        let states = TestStates::from_before_60(before_60, &w);
        for dv in &DVS {
            let partner = |t: usize| w[t] ^ dv.dm[t];
            let want = if dv.test_step == 58 {
                let mut s = states.before_58;
                steps_forward(&mut s, 58, 60, partner);
                (s, 60)
            } else {
                let mut s = states.before_65;
                crate::compress::steps_backward(&mut s, 64, 65, partner);
                (s, 64)
            };
            let got = partner_at_boundary(dv, &before_60, |t| w[t]);
            assert_eq!(got, want, "round {round}, DV {:?}", (dv.kind, dv.k, dv.b));
        }
    }
}

/// Every per-block form of this build (of each backend that has one) finds
/// a collision block wherever it falls in a call (first, last, at each
/// place of a form's unrolled loop, with up to four blocks after it, as a
/// form that tests a candidate beside a later block's rounds sees them),
/// with the plain chain after it, as the scalar test finds it; and a call
/// without one compresses as plain SHA-1. Reduced-round detection on its
/// own collision. Each backend's form as every vendor's CPU runs it (the
/// AVX-512 backend's 4-lane filter beside the rounds and its 8-lane one
/// with short calls behind, each schedule expansion), whichever vendor
/// this CPU is.
#[test]
fn per_block_forms_find_the_block_anywhere_in_a_call() {
    let files: [(&[u8], bool); 3] = [
        (include_bytes!("../../tests/data/shattered-1.pdf"), false),
        (include_bytes!("../../tests/data/sha-mbles-2.bin"), false),
        (
            include_bytes!("../../tests/data/sha1_reducedsha_coll.bin"),
            true,
        ),
    ];
    // Each backend's form for every vendor (this CPU's and the others'),
    // those this CPU cannot run skipped (failed under CI).
    // A platform without a per-block filter tests every DV of every block
    // there: the portable one stands for them.
    let mut forms: Vec<(String, Platform)> = vec![("portable".into(), Platform::Portable)];
    for backend in Backend::all() {
        let (_, per_block, _) = backend.other.run_on_kernels(Traits);
        if !per_block {
            continue;
        }
        if (backend.supported)() {
            for vendor in Vendor::ALL {
                let form = backend.on(vendor);
                if !forms.iter().any(|&(_, f)| f == form) {
                    forms.push((format!("{} for {vendor:?}", backend.name()), form));
                }
            }
        } else {
            crate::skip::skip_or_fail(&format!(
                "this CPU cannot run backend {}: its per-block form is not tested",
                backend.name()
            ));
        }
    }
    for (data, reduced_round) in files {
        let blocks = crate::block::split_blocks(data).0;
        // The reference: block by block, the scalar test of every DV.
        let mut chains = vec![IV];
        let mut flagged = None;
        for (i, block) in blocks.iter().enumerate() {
            let chain_in = *chains.last().unwrap();
            let w = expand(block);
            let mut chain_out = chain_in;
            compress_expanded(&mut chain_out, &w);
            let mut before_60 = chain_in;
            steps_forward(&mut before_60, 0, 60, |t| w[t]);
            let states = TestStates::from_before_60(before_60, &w);
            let c = Candidates {
                mask: u32::MAX,
                reduced_round,
            };
            if flagged.is_none() {
                flagged = first_match(&w, &chain_in, &chain_out, &states, c).map(|dv| (i, dv));
            }
            chains.push(chain_out);
        }
        let (at, dv) = flagged.expect("the file has a collision block");
        for (name, form) in &forms {
            for start in 0..=at {
                for end in start + 1..=(at + 5).min(blocks.len()) {
                    let mut chain = chains[start];
                    let work = DetectPerBlock(&mut chain, &blocks[start..end], reduced_round);
                    let got = form.run_on_kernels(work);
                    let what = format!("{name}: blocks {start}..{end}");
                    if end > at {
                        let index = at - start;
                        assert_eq!(got, Some(Found { index, dv }), "{what}");
                        assert_eq!(chain, chains[at + 1], "{what}");
                    } else {
                        assert_eq!(got, None, "{what}");
                        assert_eq!(chain, chains[end], "{what}");
                    }
                }
            }
        }
    }
}

/// [`Kernels::compress_candidate`] on a platform's kernels.
struct CompressCandidate<'a>(&'a mut [u32; 5], &'a Block, Candidates);

impl OnKernels for CompressCandidate<'_> {
    type Output = Option<DisturbanceVector>;

    unsafe fn run<K: Kernels>(self) -> Self::Output {
        // SAFETY: as this function's.
        unsafe { K::compress_candidate(self.0, self.1, self.2) }
    }
}

/// [`Kernels::detect_per_block`] on a platform's kernels.
struct DetectPerBlock<'a>(&'a mut [u32; 5], &'a [Block], bool);

impl OnKernels for DetectPerBlock<'_> {
    type Output = Option<Found>;

    unsafe fn run<K: Kernels>(self) -> Self::Output {
        // SAFETY: as this function's.
        unsafe { K::detect_per_block(self.0, self.1, self.2) }
    }
}
