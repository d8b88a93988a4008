// Two records pinned to one variant name: an error on the second line; the
// first keeps the name, the second is named by the rule.
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "tests/ui/data/pins_duplicate")]
enum Imported {
    #[catalog(id = "a1b2c3d4e5f60718")]
    Failed { addr: String, n: u8 },
}

#[error_catalog::catalog(path = "tests/ui/data/pins_duplicate")]
enum AppError {}

fn main() {
    let _ = AppError::Failed { addr: "db".into(), n: 3 };
    let _ = AppError::Disk { volume: "/".into() };
    let _ = Imported::Failed { addr: "db".into(), n: 3 };
}
