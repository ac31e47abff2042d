//! The shared library's soname: libsha1detectcoll.so.1, the reference's
//! (its libtool version 1:0:0), so programs linked against either load the
//! other. scripts/install-c.sh installs the file under that name.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let family = std::env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    // ELF systems only: macOS names libraries by install name, Windows by DLL.
    if family == "unix" && os != "macos" && os != "ios" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libsha1detectcoll.so.1");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
