//! The library's panic handler: a panic is a bug of this library, and the
//! process ends (SIGABRT), as an `assert` in C would end it. With no
//! unwinding there is no unwinder, landing pad or personality routine to
//! link, and no call can unwind into C.

// The profiles of capi/Cargo.toml say so; another would need an unwinder.
#[cfg(not(panic = "abort"))]
compile_error!("libsha1detectcoll is built with panic = \"abort\" (see capi/Cargo.toml)");

// The one function this library takes from the C library (besides the
// `mem*` functions the compiler calls).
#[cfg_attr(unix, link(name = "c"))]
extern "C" {
    fn abort() -> !;
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: abort takes nothing and does not return.
    unsafe { abort() }
}
