//! The trash: `POST <obj>/@trash` hides an object with its subtree and `GET <site>/@trash`
//! lists what is in it; `@untrash` brings an object back, and `DELETE` on a trashed object
//! removes it for good.

pub mod get;
pub mod post;
