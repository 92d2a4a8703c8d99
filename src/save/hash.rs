//! Fingerprints: a stable 64-bit hash of any serialisable value, computed
//! by a serde serializer that feeds the value's fields straight into the
//! hash (no text made). The encoding is binary and unambiguous: lengths before
//! sequences and strings, variant indices for enums, a tag for `Option`;
//! floats by their bits (so NaN equals itself, as the save's text did).
//!
//! The hash is FNV-1a over that encoding: stable across builds, platforms
//! and Rust versions, unlike `std::hash`. It tells a replay apart from the
//! saved game; it is not meant to resist a forger.
//!
//! Two hashes walk that encoding: FNV-1a a byte a step ([`fingerprint`],
//! the checkpoints of formats 2 to 7 and the journal's `f` records), and
//! [`Words`], a step a number or eight bytes of text ([`by_words`], the
//! fingerprints by ids of format 8 on and the journal's `g` records,
//! see [`super::print`]), a fraction of the work.

use serde::ser::{self, Serialize};

pub use crate::stdx::Fnv;

/// The fingerprint of `value`: FNV-1a of its encoding.
pub fn fingerprint<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut hasher = Hashing(Fnv::default());
    // Hashing cannot fail: every method below returns Ok.
    let _ = value.serialize(&mut hasher);
    hasher.0.0
}

/// The fingerprint of `value` by [`Words`]: the same encoding, hashed a
/// number (or eight bytes of a string) a step.
pub fn by_words<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut hasher = Hashing(Words::default());
    let _ = value.serialize(&mut hasher);
    hasher.0.0
}

/// What the encoding is fed to: its numbers and tags as little-endian
/// bytes, and strings' bytes.
pub trait Sink {
    /// Little-endian bytes of a number, a tag or a string.
    fn le(&mut self, bytes: &[u8]);
}

impl Sink for Fnv {
    fn le(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
    }
}

/// A hash a 64-bit word a step (FxHash's step: rotate, xor, multiply by
/// an odd constant, so a word that differs always changes the hash):
/// each number of the encoding is one word, a string eight bytes a word
/// after its length (its last word padded with zeros). Stable across
/// builds and platforms (words read little-endian); a state's fingerprint
/// by it is a fraction of FNV-1a's work, which takes eight steps for a
/// number of eight bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words(pub u64);

impl Default for Words {
    fn default() -> Self {
        Words(0xcbf2_9ce4_8422_2325)
    }
}

impl Words {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Sink for Words {
    fn le(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0_u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
    }
}

/// The serializer that feeds a value's encoding to a [`Sink`].
pub struct Hashing<H>(pub H);

/// Never produced; serde wants an error type.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("hashing failed")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

impl<H: Sink> Hashing<H> {
    fn bytes(&mut self, bytes: &[u8]) {
        self.0.le(bytes);
    }

    fn len(&mut self, len: Option<usize>) {
        // A sequence of unknown length is ended by a marker instead.
        match len {
            Some(n) => self.bytes(&(n as u64).to_le_bytes()),
            None => self.bytes(&[0xff; 8]),
        }
    }

    fn variant(&mut self, index: u32) {
        self.bytes(&index.to_le_bytes());
    }
}

macro_rules! le {
    ($($method:ident: $t:ty),* $(,)?) => {
        $(fn $method(self, v: $t) -> Result<(), Never> {
            self.bytes(&v.to_le_bytes());
            Ok(())
        })*
    };
}

impl<H: Sink> ser::Serializer for &mut Hashing<H> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    le!(
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128,
    );

    fn serialize_bool(self, v: bool) -> Result<(), Never> {
        self.bytes(&[u8::from(v)]);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Never> {
        self.bytes(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Never> {
        self.bytes(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Never> {
        self.bytes(&u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Never> {
        self.len(Some(v.len()));
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Never> {
        self.len(Some(v.len()));
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Never> {
        self.bytes(&[0]);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Never> {
        self.bytes(&[1]);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), Never> {
        self.variant(index);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        self.variant(index);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Never> {
        self.len(len);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        self.variant(index);
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Never> {
        self.len(len);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Never> {
        self.variant(index);
        Ok(self)
    }
}

macro_rules! compound {
    ($($trait:ident: $method:ident),* $(,)?) => {
        $(impl<H: Sink> ser::$trait for &mut Hashing<H> {
            type Ok = ();
            type Error = Never;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Never> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        })*
    };
}

compound!(
    SerializeSeq: serialize_element,
    SerializeTuple: serialize_element,
    SerializeTupleStruct: serialize_field,
    SerializeTupleVariant: serialize_field,
);

impl<H: Sink> ser::SerializeMap for &mut Hashing<H> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Never> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Never> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl<H: Sink> ser::SerializeStruct for &mut Hashing<H> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        value.serialize(&mut **self)
    }
    fn skip_field(&mut self, _: &'static str) -> Result<(), Never> {
        // A field left out (its default) hashes apart from any value.
        self.bytes(&[0xfe]);
        Ok(())
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

impl<H: Sink> ser::SerializeStructVariant for &mut Hashing<H> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_values_hash_apart_and_equal_ones_alike() {
        let a = (vec![1_u32, 2], Some("x".to_string()), 0.5_f64);
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        let values = [
            fingerprint(&a),
            fingerprint(&(vec![1_u32, 2], Some("y".to_string()), 0.5_f64)),
            fingerprint(&(vec![1_u32], Some("x".to_string()), 0.5_f64)),
            fingerprint(&(vec![1_u32, 2], None::<String>, 0.5_f64)),
            fingerprint(&(vec![1_u32, 2], Some("x".to_string()), 0.25_f64)),
            // Lengths keep ["ab", ""] apart from ["a", "b"].
            fingerprint(&["ab", ""]),
            fingerprint(&["a", "b"]),
        ];
        for (i, x) in values.iter().enumerate() {
            for y in &values[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(fingerprint(&f64::NAN), fingerprint(&f64::NAN));
    }

    #[test]
    fn by_words_different_values_hash_apart_and_equal_ones_alike() {
        let a = (vec![1_u32, 2], Some("x".to_string()), 0.5_f64);
        assert_eq!(by_words(&a), by_words(&a.clone()));
        let long = "eight by eight by eight, and a tail";
        let values = [
            by_words(&a),
            by_words(&(vec![1_u32, 2], Some("y".to_string()), 0.5_f64)),
            by_words(&(vec![1_u32], Some("x".to_string()), 0.5_f64)),
            by_words(&(vec![1_u32, 2], None::<String>, 0.5_f64)),
            by_words(&(vec![1_u32, 2], Some("x".to_string()), 0.25_f64)),
            by_words(&["ab", ""]),
            by_words(&["a", "b"]),
            // A string's tail is padded, its length told first.
            by_words("a"),
            by_words("a\0"),
            by_words(long),
            by_words(&long.replace("tail", "tale")),
            // A bit anywhere in a number.
            by_words(&1_u64),
            by_words(&(1_u64 << 63)),
            by_words(&((1_u64 << 63) | 1)),
        ];
        for (i, x) in values.iter().enumerate() {
            for y in &values[i + 1..] {
                assert_ne!(x, y);
            }
        }
        // Not FNV-1a: the two kinds of fingerprint never pass for each other.
        assert_ne!(by_words(&a), fingerprint(&a));
        assert_eq!(by_words(&f64::NAN), by_words(&f64::NAN));
    }
}
