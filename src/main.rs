//! The `xiaoling` binary: parse the command line, run, print errors.

use std::process::ExitCode;

fn main() -> ExitCode {
    match xiaoling::cli::run() {
        Ok(code) => code,
        Err(err) => {
            // In the language the game was asked to speak (`--lang`).
            let locale = xiaoling::cli::error_locale();
            eprintln!("{}", xiaoling::cli::fatal(locale, &err));
            ExitCode::from(2)
        }
    }
}
