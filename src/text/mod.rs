//! Text before parsing: bytes to UTF-8 ([`decode`]; the Vietnamese legacy encodings
//! VNI, TCVN3, VISCII and VIQR in [`legacy`], named with the rest by [`TextEncoding`]; text decoded twice repaired in [`mojibake`]) and Unicode folds ([`normalize`]).
//!
//! Decoding reports the encoding used and whether anything was replaced; normalization
//! is NFC for all text and, for move tokens only, a fold of look-alike characters to
//! their ASCII forms ([`fold::move_token`]).

pub mod decode;
pub mod encoding;
pub mod fold;
pub mod legacy;
pub mod mojibake;
pub mod normalize;

pub use decode::{
    DecodeReport, EncodingSource, decode_chunk, guess_legacy, sniff_bom, sniff_utf16,
};
pub use encoding::TextEncoding;
pub use fold::move_token;
pub use normalize::nfc;
