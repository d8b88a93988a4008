//! `errcat extract`: a dataset from a project's source code (the work is
//! `catalog-extract`'s).

use std::io;

use catalog_extract::{lang, Provenance};

use crate::args::ExtractArgs;
use crate::exit::{FOUND, TROUBLE};
use crate::style::Out;

pub fn run(args: &ExtractArgs, out: &mut Out) -> io::Result<u8> {
    let Some(language) = lang::language(&args.lang) else {
        let known: Vec<&str> = lang::languages().iter().map(|l| l.name()).collect();
        eprintln!("errcat: --lang {}: not a known language (known: {})", args.lang, known.join(", "));
        return Ok(TROUBLE);
    };
    if !args.repo.contains('/') {
        eprintln!("errcat: --repo {}: expected OWNER/NAME", args.repo);
        return Ok(TROUBLE);
    }
    let name = args.name.clone().unwrap_or_else(|| args.repo.rsplit('/').next().unwrap_or(&args.repo).to_string());
    let provenance = Provenance { repo: args.repo.clone(), sha: args.sha.clone(), stamp: args.stamp.clone() };
    let dataset = catalog_extract::extract(language, &args.src, &provenance)?;
    let dir = args.out.join(&name);
    dataset.write(&dir)?;
    out.line(&format!(
        "{} records from {} {} files written to {}",
        dataset.records.len(),
        dataset.files,
        language.name(),
        dir.display()
    ))?;
    out.flush()?;
    Ok(FOUND)
}
