// A symbolic link that leads back into the record directory is reported,
// naming the link, instead of walking forever (the fixture is made by
// tests/ui.rs).
#[error_catalog::catalog(path = "target/ui-fixtures/loop")]
enum AppError {}

fn main() {}
