//! Marks the tests of a program this machine lacks (git, GNU sha1sum, zsh,
//! ...: tests/cli/tools.rs) ignored, with their reason, by the cfg
//! `missing = "<name>"`; with `CI` set, none: there a missing program fails
//! its tests. Only the tests read the cfg: the command is the same
//! whatever it says.

#[path = "tests/cli/tools.rs"]
mod tools;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tests/cli/tools.rs");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    let names: Vec<String> = tools::TOOLS
        .iter()
        .map(|(name, _)| format!("{name:?}"))
        .collect();
    println!(
        "cargo:rustc-check-cfg=cfg(missing, values({}))",
        names.join(", ")
    );
    if std::env::var_os("CI").map_or(false, |v| !v.is_empty()) {
        return;
    }
    for (name, present) in tools::TOOLS {
        if !present() {
            println!("cargo:rustc-cfg=missing={name:?}");
        }
    }
}
