//! No platform: the kernels a build lacks (the AVX-512 ones, by a compiler
//! without their intrinsics; the ARMv8 SHA-1 ones likewise) as an enum
//! with no value, so that the code over them needs no `cfg`.

use crate::block::Block;
use crate::detect::Found;
use crate::platform::Kernels;
use crate::vector::OnVectors;

/// No value: nothing here is ever called.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {}

impl Kernels for Platform {
    fn name(self) -> &'static str {
        match self {}
    }

    fn compress(self, _: &mut [u32; 5], _: &[Block]) {
        match self {}
    }

    fn detects_per_block(self) -> bool {
        match self {}
    }

    fn detect_per_block(self, _: &mut [u32; 5], _: &[Block], _: bool) -> Option<Option<Found>> {
        match self {}
    }

    fn run_on_vectors<W: OnVectors>(self, _: W) -> W::Output {
        match self {}
    }
}
