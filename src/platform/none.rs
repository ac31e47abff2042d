//! No platform: the kernels a build lacks (the AVX-512 ones, by a compiler
//! without their intrinsics; the ARMv8 SHA-1 ones likewise) as an enum
//! with no value, so that the code over them needs no `cfg`.

use crate::platform::{Arch, OnKernels};

/// No value: nothing here is ever called.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {}

impl Arch for Platform {
    fn run_on_kernels<W: OnKernels>(self, _: W) -> W::Output {
        match self {}
    }
}
