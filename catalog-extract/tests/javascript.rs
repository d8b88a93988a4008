//! The JavaScript extractor against the Node.js dataset in `datasets/nodejs-node`.

mod common;

use std::path::Path;

use catalog_extract::lang::javascript::{messages, skip_path};
use common::{assert_fixtures_give_dataset, assert_tree_gives_dataset, extract_tree, Expected};

fn extract(root: &Path) -> Vec<Expected> {
    extract_tree(root, "nodejs/node", ("js", "lib/"), skip_path, messages)
}

/// Whole files of Node's `lib/` (MIT, see `fixtures/javascript/LICENSE`)
/// give exactly the dataset's records of those files.
#[test]
fn node_files_give_their_dataset_records() {
    assert_fixtures_give_dataset("javascript", "nodejs-node", extract, "js");
}

/// Node v20.20.2's `lib/` as the `node` binary holds it (`NODE_SRC`, see
/// `datasets/nodejs-node/README.md`) gives the dataset.
#[test]
fn node_lib_gives_the_dataset() {
    assert_tree_gives_dataset("NODE_SRC", "a dump of Node v20.20.2's lib/", "nodejs-node", extract);
}
