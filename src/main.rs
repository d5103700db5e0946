//! The `rookling` binary: only dispatches to the library's command line.

fn main() -> std::process::ExitCode {
    rookling::cli::main()
}
