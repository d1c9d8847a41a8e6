//! The fold of a move token lives in the text stage: [`crate::text::fold`].

pub use crate::text::fold::move_token as fold;
