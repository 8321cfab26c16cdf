//! The `prettyplay` binary: parse, resolve, execute, map the outcome to an exit code.

fn main() -> std::process::ExitCode {
    prettyplay::cli::main()
}
