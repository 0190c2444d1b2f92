//! Placeholder until the comparison benchmark lands in the next commit.
fn main() {}
