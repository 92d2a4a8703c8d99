//! A writer of RON for saves: the same bytes as `ron` 0.12's pretty
//! serialiser with the configuration saves use (`PrettyConfig::default()`,
//! a depth limit, `escape_strings(false)`), for a fraction of its work.
//!
//! `ron` checks every field's and type's name character by character as an
//! identifier (twice: once to validate it, once to decide whether it needs
//! `r#`), and formats every integer through `core::fmt`; for a save's world
//! of a few hundred fields rewritten at every autosave that was most of the
//! writer thread's work. Here a name that is plain ASCII (all of the save
//! format's are) is written as it is, integers are written by hand, and the
//! layout rules are `ron`'s own, step for step (including its `is_empty`
//! flag, which is one for the whole serialiser, not one per level).
//!
//! Anything this writer does not do the same as `ron` without doubt (a name
//! that is not plain ASCII, bytes, 128-bit integers, `ron`'s raw values)
//! is refused with [`Unsupported`], and the caller writes with `ron` itself.
//! Tests hold the two byte for byte over real saves and hand-made values.

use serde::ser::{self, Serialize};
use std::fmt::Write as _;

/// What this writer leaves to `ron`.
#[derive(Debug)]
pub struct Unsupported(String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, Unsupported>;

/// `value` as `ron::ser::to_string_pretty(value, PrettyConfig::default()
/// .depth_limit(depth_limit).escape_strings(false))` writes it, or
/// [`Unsupported`].
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T, depth_limit: usize) -> Result<String> {
    to_string_pretty_in(value, depth_limit, String::with_capacity(4096))
}

/// [`to_string_pretty`] written into `out` (emptied first): a buffer
/// whose memory the caller keeps (a save's text grows to tens of
/// kilobytes, doubled a step at a time from nothing otherwise).
pub fn to_string_pretty_in<T: ?Sized + Serialize>(
    value: &T,
    depth_limit: usize,
    out: String,
) -> Result<String> {
    to_string_spliced(value, depth_limit, out, Splice::default()).map(|(text, ..)| text)
}

/// The first struct of a type's name in a value, written from text made
/// before, or where its text is: see [`to_string_spliced`].
#[derive(Debug, Default)]
pub struct Splice {
    /// The struct's type name (`""`: none).
    pub name: &'static str,
    /// Its text, as this writer wrote it for an equal value at the same
    /// place: written as it is, the struct itself not walked. None: the
    /// struct is written, and where its text is said.
    pub text: Option<String>,
}

/// [`to_string_pretty_in`], but the first struct named `splice.name` (not
/// nested in one of the same name) is written as `splice.text` when there
/// is one, its fields not serialised; otherwise it is written. Where its
/// text is in the result is returned, and the splice (its text handed back
/// for the next time). The text is the same bytes as
/// the struct's own only if the caller hands it the text of an equal
/// value at the same place (same depth, same field of the same type):
/// the writer's state after a struct (its indent, `ron`'s `is_empty`
/// flag, cleared by any compound's end) is the same whatever the struct
/// held, and a struct's text does not depend on that state before it.
pub fn to_string_spliced<T: ?Sized + Serialize>(
    value: &T,
    depth_limit: usize,
    mut out: String,
    splice: Splice,
) -> Result<(String, Option<std::ops::Range<usize>>, Splice)> {
    out.clear();
    let mut writer = Writer {
        out,
        indent: 0,
        limit: depth_limit,
        is_empty: None,
        seen: [(0, 0); SEEN],
        splice,
        spliced: None,
        found: None,
    };
    value.serialize(&mut writer)?;
    Ok((writer.out, writer.found, writer.splice))
}

const NEW_LINE: &str = "\n";
const INDENTOR: &str = "    ";
const SEPARATOR: &str = " ";

struct Writer {
    out: String,
    indent: usize,
    limit: usize,
    /// `ron`'s flag: set by a compound's start, cleared by any compound's end.
    is_empty: Option<bool>,
    /// Names found plain, by address and length ([`Writer::seen`]).
    seen: [(usize, usize); SEEN],
    /// The struct written from text made before, or found ([`Splice`]).
    splice: Splice,
    /// Where the struct to find starts, while it is written.
    spliced: Option<usize>,
    /// Where the struct found is, once written.
    found: Option<std::ops::Range<usize>>,
}

/// How many names [`Writer::seen`] remembers (a save has some sixty).
const SEEN: usize = 128;

/// Whether `name` is written as it is by `ron`: plain ASCII letters, digits
/// and `_`, not starting with a digit, and not one of its reserved words
/// (those would get `r#`; refused here, so `ron` writes them).
fn plain(name: &str) -> bool {
    let bytes = name.as_bytes();
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
        _ => return false,
    }
    bytes
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        // The reserved words all start with one of these letters.
        && !(matches!(bytes[0], b't' | b'f' | b'S' | b'N' | b'i')
            && matches!(
            name,
            "true"
                | "false"
                | "Some"
                | "None"
                | "inf"
                | "inff32"
                | "inff64"
                | "NaN"
                | "NaNf32"
                | "NaNf64"
        ))
}

impl Writer {
    /// Whether `name` was found plain before: the names are the program's
    /// own (`&'static`), so one found once is the same name when seen again
    /// at the same address.
    fn seen(&mut self, name: &'static str) -> bool {
        let at = name.as_ptr() as usize;
        let slot = (at >> 3 ^ name.len()) % SEEN;
        if self.seen[slot] == (at, name.len()) {
            return true;
        }
        if !plain(name) {
            return false;
        }
        self.seen[slot] = (at, name.len());
        true
    }

    fn identifier(&mut self, name: &'static str) -> Result<()> {
        if !self.seen(name) {
            return Err(Unsupported(format!("the name `{name}`")));
        }
        self.out.push_str(name);
        Ok(())
    }

    /// A type's name, which `ron` validates but does not write (a plain
    /// name is valid; anything else is left to `ron`).
    fn type_name(&mut self, name: &'static str) -> Result<()> {
        if !self.seen(name) {
            return Err(Unsupported(format!("the type name `{name}`")));
        }
        Ok(())
    }

    fn unsigned(&mut self, value: u64) {
        let mut buf = [0u8; 20];
        let at = crate::stdx::decimal(value, &mut buf);
        // Digits only: always UTF-8.
        self.out
            .push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
    }

    fn signed(&mut self, value: i64) {
        if value < 0 {
            self.out.push('-');
        }
        self.unsigned(value.unsigned_abs());
    }

    fn start_indent(&mut self) {
        self.indent += 1;
        if self.indent <= self.limit && !self.is_empty.unwrap_or(false) {
            self.out.push_str(NEW_LINE);
        }
    }

    fn write_indent(&mut self) {
        if self.indent <= self.limit {
            for _ in 0..self.indent {
                self.out.push_str(INDENTOR);
            }
        }
    }

    fn end_indent(&mut self) {
        if self.indent <= self.limit && !self.is_empty.unwrap_or(false) {
            for _ in 1..self.indent {
                self.out.push_str(INDENTOR);
            }
        }
        self.indent -= 1;
        self.is_empty = None;
    }

    /// Between the members of a pretty compound (array, map, struct).
    fn between(&mut self, first: &mut bool) {
        if *first {
            *first = false;
        } else {
            self.out.push(',');
            if self.indent <= self.limit {
                self.out.push_str(NEW_LINE);
            } else {
                self.out.push_str(SEPARATOR);
            }
        }
        self.write_indent();
    }

    /// The end of a pretty compound, before its closing bracket.
    fn close(&mut self, first: bool) {
        if !first && self.indent <= self.limit {
            self.out.push(',');
            self.out.push_str(NEW_LINE);
        }
        self.end_indent();
    }

    fn string(&mut self, value: &str) {
        if value.contains('"') || value.contains('\\') {
            let mut count = 0usize;
            let mut max = 0usize;
            // By bytes: `#` is one, and no other character's contain it.
            for b in value.bytes() {
                if b == b'#' {
                    count += 1;
                    max = max.max(count);
                } else {
                    count = 0;
                }
            }
            self.out.push('r');
            for _ in 0..=max {
                self.out.push('#');
            }
            self.out.push('"');
            self.out.push_str(value);
            self.out.push('"');
            for _ in 0..=max {
                self.out.push('#');
            }
        } else {
            self.out.push('"');
            self.out.push_str(value);
            self.out.push('"');
        }
    }

    fn float(&mut self, value: f64) {
        if value.is_nan() && value.is_sign_negative() {
            self.out.push('-');
        }
        // Whole numbers well inside f64's exact integers print as `ron`
        // (`{:?}`) prints them, `75.0`; the rest go through `{:?}` itself.
        if value.fract() == 0.0 && value.abs() < 1e15 && !(value == 0.0 && value.is_sign_negative())
        {
            self.signed(value as i64);
            self.out.push_str(".0");
        } else {
            let _ = write!(self.out, "{value:?}");
        }
    }
}

/// A compound in progress: `first` until its first member is written.
struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
    /// A struct written from its [`Splice`] text: its fields are passed over.
    skip: bool,
    /// The struct to find: where it ends is noted.
    found: bool,
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }

    fn serialize_i16(self, v: i16) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }

    fn serialize_i32(self, v: i32) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }

    fn serialize_i64(self, v: i64) -> Result<()> {
        self.signed(v);
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.unsigned(v.into());
        Ok(())
    }

    fn serialize_u16(self, v: u16) -> Result<()> {
        self.unsigned(v.into());
        Ok(())
    }

    fn serialize_u32(self, v: u32) -> Result<()> {
        self.unsigned(v.into());
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        self.unsigned(v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<()> {
        if v.is_nan() && v.is_sign_negative() {
            self.out.push('-');
        }
        let _ = write!(self.out, "{v:?}");
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.out.push('\'');
        if v == '\\' || v == '\'' {
            self.out.push('\\');
        }
        self.out.push(v);
        self.out.push('\'');
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<()> {
        Err(Unsupported("bytes".into()))
    }

    fn serialize_none(self) -> Result<()> {
        self.out.push_str("None");
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        self.out.push_str("Some(");
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_unit(self) -> Result<()> {
        self.out.push_str("()");
        Ok(())
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        self.type_name(name)?;
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.type_name(name)?;
        self.identifier(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        // `ron`'s raw values pass through here under a name of their own,
        // which is not a plain type name.
        self.type_name(name)?;
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.type_name(name)?;
        self.identifier(variant)?;
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.out.push('[');
        if let Some(len) = len {
            self.is_empty = Some(len == 0);
        }
        self.start_indent();
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: false,
        })
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>> {
        self.out.push('(');
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: false,
        })
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.type_name(name)?;
        self.serialize_tuple(len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        self.type_name(name)?;
        self.identifier(variant)?;
        self.out.push('(');
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: false,
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.out.push('{');
        if let Some(len) = len {
            self.is_empty = Some(len == 0);
        }
        self.start_indent();
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: false,
        })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>> {
        // `ron` writes ranges of numbers (structs named `Range` …) its own
        // way only when asked to; a plain struct otherwise.
        self.type_name(name)?;
        let to_splice = name == self.splice.name && self.spliced.is_none() && self.found.is_none();
        if to_splice && let Some(text) = self.splice.text.as_deref() {
            // As the struct's own end leaves the writer.
            self.out.push_str(text);
            self.is_empty = None;
            self.found = Some(self.out.len() - text.len()..self.out.len());
            return Ok(Compound {
                w: self,
                first: true,
                skip: true,
                found: false,
            });
        }
        if to_splice {
            self.spliced = Some(self.out.len());
        }
        self.out.push('(');
        self.is_empty = Some(len == 0);
        self.start_indent();
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: to_splice,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.type_name(name)?;
        self.identifier(variant)?;
        self.out.push('(');
        self.is_empty = Some(len == 0);
        self.start_indent();
        Ok(Compound {
            w: self,
            first: true,
            skip: false,
            found: false,
        })
    }

    fn serialize_i128(self, _: i128) -> Result<()> {
        Err(Unsupported("128-bit integers".into()))
    }

    fn serialize_u128(self, _: u128) -> Result<()> {
        Err(Unsupported("128-bit integers".into()))
    }
}

impl Compound<'_> {
    /// Between a tuple's members: always on one line.
    fn tuple_member<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.first {
            self.first = false;
        } else {
            self.w.out.push(',');
            self.w.out.push_str(SEPARATOR);
        }
        value.serialize(&mut *self.w)
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.w.between(&mut self.first);
        self.w.identifier(key)?;
        self.w.out.push(':');
        self.w.out.push_str(SEPARATOR);
        value.serialize(&mut *self.w)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.w.between(&mut self.first);
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<()> {
        self.w.close(self.first);
        self.w.out.push(']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.tuple_member(value)
    }

    fn end(self) -> Result<()> {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.tuple_member(value)
    }

    fn end(self) -> Result<()> {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.tuple_member(value)
    }

    fn end(self) -> Result<()> {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.w.between(&mut self.first);
        key.serialize(&mut *self.w)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.w.out.push(':');
        self.w.out.push_str(SEPARATOR);
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<()> {
        self.w.close(self.first);
        self.w.out.push('}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        if self.skip {
            return Ok(());
        }
        self.field(key, value)
    }

    fn end(self) -> Result<()> {
        if self.skip {
            return Ok(());
        }
        self.w.close(self.first);
        self.w.out.push(')');
        if self.found
            && let Some(start) = self.w.spliced.take()
        {
            self.w.found = Some(start..self.w.out.len());
        }
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }

    fn end(self) -> Result<()> {
        self.w.close(self.first);
        self.w.out.push(')');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn by_ron<T: Serialize>(value: &T, depth: usize) -> String {
        let config = ron::ser::PrettyConfig::default()
            .depth_limit(depth)
            .escape_strings(false);
        ron::ser::to_string_pretty(value, config).expect("ron writes it")
    }

    fn same<T: Serialize + std::fmt::Debug>(value: &T) {
        for depth in [0, 1, 2, 3, 5, usize::MAX] {
            let ours = to_string_pretty(value, depth).expect("writes it");
            assert_eq!(ours, by_ron(value, depth), "depth {depth}: {value:?}");
        }
    }

    #[derive(Debug, Serialize)]
    struct Empty {}

    #[derive(Debug, Serialize)]
    struct Unit;

    #[derive(Debug, Serialize)]
    struct Wrap(u32);

    #[derive(Debug, Serialize)]
    struct Pair(i32, String);

    #[derive(Debug, Serialize)]
    enum Kind {
        Plain,
        One(f64),
        Two(u8, bool),
        Named { a: Vec<u32>, b: Option<char> },
        Hollow {},
    }

    #[derive(Debug, Serialize)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        gone: Option<u32>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        none: Vec<u32>,
    }

    #[derive(Debug, Serialize)]
    struct Deep {
        name: String,
        floats: Vec<f64>,
        ints: (i64, u64, i8, u16),
        kinds: Vec<Kind>,
        map: BTreeMap<String, Vec<Option<Wrap>>>,
        empty_map: BTreeMap<u8, u8>,
        nested: Vec<Vec<Vec<Pair>>>,
        empty: Empty,
        unit: Unit,
        unit_value: (),
        skips: Vec<Skips>,
        chars: Vec<char>,
        after: bool,
    }

    #[test]
    fn writes_what_ron_writes() {
        let strings = [
            "",
            "plain",
            "say \"hi\"",
            r"back\slash",
            "hashes # ## \"###\" #",
            "line\nbreak\ttab",
            "中文，破折号——和框线 ┌─┐",
            "\u{0}\u{7f}\u{200b}",
        ];
        let floats = [
            0.0,
            -0.0,
            1.0,
            -6.0,
            75.0,
            0.1,
            -6.814955040227166,
            1e15,
            1e16,
            123456789012345.0,
            1e-7,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        for s in strings {
            same(&s);
            same(&vec![s.to_string(), s.to_string()]);
        }
        for f in floats {
            same(&f);
            same(&(f as f32));
        }
        let deep = Deep {
            name: strings.join("|"),
            floats: floats.to_vec(),
            ints: (i64::MIN, u64::MAX, -1, 0),
            kinds: vec![
                Kind::Plain,
                Kind::One(2.5),
                Kind::Two(7, true),
                Kind::Named {
                    a: vec![],
                    b: Some('\''),
                },
                Kind::Named {
                    a: vec![1, 2, 3],
                    b: Some('\\'),
                },
                Kind::Named {
                    a: vec![4],
                    b: None,
                },
                Kind::Hollow {},
            ],
            map: [
                ("a".to_string(), vec![Some(Wrap(1)), None]),
                ("b \"q\"".to_string(), vec![]),
            ]
            .into_iter()
            .collect(),
            empty_map: BTreeMap::new(),
            nested: vec![
                vec![],
                vec![vec![], vec![Pair(-3, "x".into()), Pair(4, "y\"".into())]],
            ],
            empty: Empty {},
            unit: Unit,
            unit_value: (),
            skips: vec![
                Skips {
                    gone: None,
                    none: vec![],
                },
                Skips {
                    gone: Some(3),
                    none: vec![],
                },
                Skips {
                    gone: None,
                    none: vec![9],
                },
            ],
            chars: vec!['a', '中', '\'', '\\', '"', '\n'],
            after: false,
        };
        same(&deep);
        same(&vec![deep]);
        same(&Vec::<u8>::new());
        same(&Some(Some(Unit)));
        same(&Skips {
            gone: None,
            none: vec![],
        });
    }

    #[test]
    fn leaves_to_ron_what_it_does_not_write_alike() {
        #[derive(Serialize)]
        struct Odd {
            r#true: u8,
        }
        assert!(to_string_pretty(&Odd { r#true: 1 }, 2).is_err());
        assert!(to_string_pretty(&serde_bytes_like(), 2).is_err());
    }

    fn serde_bytes_like() -> impl Serialize {
        struct Bytes;
        impl Serialize for Bytes {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_bytes(b"ab")
            }
        }
        Bytes
    }
}
