//! `git-sha1dc`: every object of a repository, pack or bundle verified
//! with SHA-1 collision detection (`git sha1dc`, as git runs any
//! `git-NAME` on its PATH).

mod progress;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use gitverify::command::{self as args, Plan};
use gitverify::{Event, Options, Summary, SystemFiles, output};

fn main() -> ExitCode {
    let args = match args::parse(std::env::args_os().skip(1)) {
        Ok(args::Parsed::Run(a)) => a,
        Ok(args::Parsed::Help) => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(args::Parsed::Version) => {
            println!("git-sha1dc {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("git-sha1dc: {e}\n\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    ExitCode::from(run(args) as u8)
}

fn run(args: args::Args) -> i32 {
    let mut options = Options {
        content: args.content,
        ..Options::default()
    };
    if let Some(j) = args.jobs {
        options.threads = j;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let var = |name| std::env::var_os(name).filter(|d| !d.is_empty());
    let (git_dir, objects) = (var("GIT_DIR"), var("GIT_OBJECT_DIRECTORY"));
    let Plan {
        sources,
        unreadable,
        alternates,
    } = args::plan(
        &SystemFiles,
        &args.paths,
        &cwd,
        git_dir.as_deref(),
        objects.as_deref(),
    );
    let mut summary = Summary {
        damage: unreadable,
        ..Summary::default()
    };
    if !args.json {
        for d in &summary.damage {
            eprintln!("git-sha1dc: {}", d.problem);
        }
        for alternate in alternates.iter().filter(|_| !args.quiet) {
            eprintln!("git-sha1dc: {}", output::alternate_note(alternate));
        }
    }
    let mut progress =
        progress::Progress::new(!args.quiet && !args.json && std::io::stderr().is_terminal());
    let mut stdout = std::io::stdout().lock();
    gitverify::verify(&sources, &options, &mut |event| {
        summary.add(event);
        match event {
            Event::Source { objects, .. } => progress.expect(*objects),
            Event::Verified(v) => progress.advance(v.len() as u64),
            Event::Finding(f) if !args.json => {
                progress.clear();
                let _ = writeln!(stdout, "{}", output::finding_line(f));
            }
            Event::Damage(d) if !args.json => {
                progress.clear();
                eprintln!("git-sha1dc: damage: {d}");
            }
            _ => {}
        }
    });
    progress.clear();
    summary.sort();
    if args.json {
        let json = output::json(&summary, &alternates, args.content);
        let _ = writeln!(stdout, "{json}");
    } else if !args.quiet {
        eprintln!("git-sha1dc: {}", output::summary_line(&summary));
        if !summary.findings.is_empty() {
            eprintln!("git-sha1dc: {}", output::FIND_OBJECT_HINT);
        }
    }
    summary.exit_code()
}
