// Hostile records: nested too deep, enormous, a regex that would compile to
// a huge automaton, too many placeholders, not UTF-8. Each is refused with
// its file, line, column and field, and nothing hangs; the records whose
// names or fields are Rust keywords, or collide, are still generated.
#[error_catalog::catalog(path = "tests/ui/data/hostile")]
enum AppError {}

fn main() {
    let _ = AppError::SelfError;
    let _: AppError = AppError::Type { type_: String::new(), self_: String::new(), match_: 1 };
    let _ = AppError::StreamClosedA100000000000008 { arg0: String::new() };
    let _ = AppError::StreamClosedA100000000000009 { arg0: String::new() };
    compile_error!("the records above are generated");
}
