//! The UCI front end (being written: issue 4).

/// Speaks UCI on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    log::error!("the UCI loop is not written yet");
}
