// not empty
#[error_catalog::catalog(path = "tests/ui/data/good")]
enum AppErrorNotEmpty {
    Mine,
}

#[error_catalog::catalog(path = "tests/ui/data/good")]
struct NotAnEnumNotEmpty;

// repr given
// The generated code reaches fields through the layout of `#[repr(u32)]`
// alone, which another `repr` would change, even one behind `cfg_attr`.
#[error_catalog::catalog(path = "tests/ui/data/good")]
#[repr(C)]
enum AppErrorReprGiven {}

#[error_catalog::catalog(path = "tests/ui/data/good")]
#[cfg_attr(all(), repr(C))]
enum OtherErrorReprGiven {}

fn main() {
}
