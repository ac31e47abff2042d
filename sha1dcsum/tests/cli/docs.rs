//! The man page and the shell completions `--generate` prints: every option
//! of --help is in each, the man page renders, the completions complete.

use std::path::Path;
use std::process::Command;

use crate::support::*;
use crate::tempdir::TempDir;

/// The long options --help lists (`--name`), in order.
fn help_options() -> Vec<String> {
    let help = stdout(&run(["--help"]));
    let options: Vec<String> = help
        .lines()
        .filter(|l| l.starts_with("  -") || l.starts_with("      --"))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(str::to_owned)
        .collect();
    assert!(options.len() >= 20, "{options:?}");
    options
}

fn generate(what: &str) -> String {
    let o = run(["--generate", what]);
    assert_eq!((code(&o), stderr(&o).as_str()), (0, ""), "{what}");
    stdout(&o)
}

#[test]
fn every_option_is_in_the_man_page_and_each_completion() {
    let man = generate("man");
    let bash = generate("complete-bash");
    let zsh = generate("complete-zsh");
    let fish = generate("complete-fish");
    for option in help_options() {
        let name = &option[2..];
        assert!(man.contains(&option.replace('-', "\\-")), "man: {option}");
        let mut words = bash.split(|c: char| c.is_whitespace() || "'|)".contains(c));
        assert!(words.any(|w| w == option), "bash: {option}");
        assert!(zsh.contains(&format!("--{name}")), "zsh: {option}");
        assert!(fish.contains(&format!(" -l {name} ")), "fish: {option}");
    }
    let o = run(["--generate", "pdf"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with(
            "sha1dcsum: invalid argument 'pdf' for '--generate' \
             (one of: man, complete-bash, complete-zsh, complete-fish)\n"
        ),
        "{}",
        stderr(&o)
    );
}

/// Roff that man(1) reads: the sections, only known requests, only the
/// escapes written on purpose.
#[test]
fn man_page_is_plain_roff() {
    let man = generate("man");
    assert!(man.starts_with(".TH SHA1DCSUM 1 "), "{man}");
    for section in [
        ".SH NAME\nsha1dcsum \\- ",
        ".SH SYNOPSIS\n",
        ".SH DESCRIPTION\n",
        ".SH OPTIONS\n",
        ".SH CHECKING\n",
        ".SH \"EXIT STATUS\"\n",
    ] {
        assert!(man.contains(section), "{section}");
    }
    for line in man.lines() {
        if let Some(request) = line.strip_prefix('.') {
            let name = request.split(' ').next().unwrap();
            let known = ["TH", "SH", "PP", "TP", "B", "BR", "nh"];
            assert!(known.contains(&name), "{line}");
        }
        assert!(!line.starts_with('\''), "{line}");
        for (i, _) in line.match_indices('\\') {
            let escape = &line[i + 1..];
            let ok = ["e", "-", "fB", "fI", "fR", "&"];
            let after_e = i > 0 && line[..i].ends_with("\\e");
            assert!(
                after_e || ok.iter().any(|e| escape.starts_with(e)),
                "{line}"
            );
        }
    }
}

/// groff renders the man page without a warning, with every option in the
/// text.
#[test]
#[cfg_attr(missing = "groff", ignore = "groff is not installed")]
fn man_page_renders_in_groff() {
    require("groff");
    let tmp = TempDir::new("man");
    let page = tmp.write("sha1dcsum.1", generate("man").as_bytes());
    let o = Command::new("groff")
        // Plain text: no overstrikes for bold and underline.
        .args(["-man", "-Tascii", "-ww", "-P-cbu"])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!((code(&o), stderr(&o).as_str()), (0, ""));
    let text = stdout(&o);
    for option in help_options() {
        assert!(text.contains(&option), "rendered page lacks {option}");
    }
    assert!(text.contains("EXIT STATUS"));
}

/// Runs bash's completion function on `words` (the last is completed), with
/// this sha1dcsum first on PATH; what it offers.
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let o = Command::new("bash")
        .arg("-c")
        .arg(
            "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); \
             _sha1dcsum; printf '%s\\n' \"${COMPREPLY[@]}\"",
        )
        .arg("bash")
        .arg(script)
        .args(words)
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(stderr(&o), "");
    stdout(&o)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
#[cfg_attr(missing = "bash", ignore = "bash is not installed")]
fn bash_completion_completes() {
    require("bash");
    let tmp = TempDir::new("bash-completion");
    let script = tmp.write("sha1dcsum.bash", generate("complete-bash").as_bytes());
    let offered = |words: &[&str]| bash_complete(&script, words);
    assert_eq!(offered(&["sha1dcsum", "--st"]), ["--status", "--strict"]);
    assert_eq!(offered(&["sha1dcsum", "-c", "--ig"]), ["--ignore-missing"]);
    let backends: Vec<String> = stdout(&run(["--backends"]))
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(offered(&["sha1dcsum", "--backend", ""]), backends);
    assert_eq!(
        offered(&["sha1dcsum", "--backend", "=", "portab"]),
        ["portable"]
    );
    assert_eq!(
        offered(&["sha1dcsum", "--generate", "complete-"]),
        ["complete-bash", "complete-zsh", "complete-fish"]
    );
    // A file name: left to bash's own completion.
    assert!(offered(&["sha1dcsum", "-j", "2", "sha"]).is_empty());
}

/// zsh reads its script without a syntax error.
#[test]
#[cfg_attr(missing = "zsh", ignore = "zsh is not installed")]
fn zsh_completion_loads() {
    require("zsh");
    let tmp = TempDir::new("zsh-completion");
    let script = tmp.write("_sha1dcsum", generate("complete-zsh").as_bytes());
    let o = Command::new("zsh").arg("-n").arg(&script).output().unwrap();
    assert_eq!((code(&o), stderr(&o).as_str()), (0, ""));
}

/// fish's script completes as bash's.
#[test]
#[cfg_attr(missing = "fish", ignore = "fish is not installed")]
fn fish_completion_completes() {
    require("fish");
    let tmp = TempDir::new("fish-completion");
    let script = tmp.write("sha1dcsum.fish", generate("complete-fish").as_bytes());
    let o = Command::new("fish")
        .arg("-c")
        .arg("source $argv[1]; complete -C'sha1dcsum --st'; complete -C'sha1dcsum --generate '")
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(stderr(&o), "");
    let text = stdout(&o);
    let offered: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(
        offered,
        [
            "--status",
            "--strict",
            "complete-bash",
            "complete-fish",
            "complete-zsh",
            "man"
        ]
    );
}
