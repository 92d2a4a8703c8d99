//! The `xiaoling` binary: parse the command line, run, print errors.

use std::process::ExitCode;

fn main() -> ExitCode {
    match xiaoling::cli::run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
