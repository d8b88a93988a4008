// pins broken
// Every mistake of a hand-edited names file is reported at once, with its
// file, line and column; the records are still generated.
#[error_catalog::catalog(path = "tests/ui/data/pins_broken")]
enum AppErrorPinsBroken {}

// pins duplicate
// Two records pinned to one variant name: an error on the second line; the
// first keeps the name, the second is named by the rule.
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "tests/ui/data/pins_duplicate")]
enum ImportedPinsDuplicate {
    #[catalog(id = "a1b2c3d4e5f60718")]
    Failed { addr: String, n: u8 },
}

#[error_catalog::catalog(path = "tests/ui/data/pins_duplicate")]
enum AppErrorPinsDuplicate {}

// pins missing
// A record pinned by the names file is gone from the data: the compile error
// says which variant went with it and what to do, on the names file's line.
// The other records keep their pinned names.
#[error_catalog::catalog(path = "tests/ui/data/pins_missing")]
enum AppErrorPinsMissing {}

fn main() {
    let _ = AppErrorPinsBroken::ConnectionTo { addr: "db".into(), n: 3 };
    let _ = AppErrorPinsDuplicate::Failed { addr: "db".into(), n: 3 };
    let _ = AppErrorPinsDuplicate::Disk { volume: "/".into() };
    let _ = ImportedPinsDuplicate::Failed { addr: "db".into(), n: 3 };
    let lost = AppErrorPinsMissing::LostConnection { addr: "db".into(), n: 3 };
    assert_eq!(lost.to_string(), "connection to db lost after 3 retries");
    let _ = AppErrorPinsMissing::DiskFull { volume: "/".into() };
}
