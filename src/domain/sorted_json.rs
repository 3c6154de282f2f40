//! JSON with every object's keys in byte order, written straight from a record.
//!
//! Change events have always carried their record as `serde_json::to_value(record)`
//! printed: `Value`'s objects are ordered maps, so the keys come out sorted, whatever the
//! order of the struct's fields. [`to_string`] writes those very bytes without building the
//! tree first (a map node and a string per field, then a second pass to print it): each
//! object's members are written into one buffer as they come, then copied out in key order.
//! The tests below hold it to `to_value(..).to_string()` for every kind of value serde has.

use std::ops::Range;

use serde::ser::{self, Impossible, Serialize};
use serde_json::Error;

/// `value` as `serde_json::to_value(value)?.to_string()` prints it.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut out = Vec::with_capacity(256);
    value.serialize(Sorted { out: &mut out })?;
    // Only JSON text and the bytes of valid `str`s were written.
    String::from_utf8(out).map_err(|_| ser::Error::custom("the JSON is not UTF-8"))
}

fn scalar<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    serde_json::to_writer(out, value)
}

/// Writes one value into `out`.
struct Sorted<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> ser::Serializer for Sorted<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Array<'a>;
    type SerializeTuple = Array<'a>;
    type SerializeTupleStruct = Array<'a>;
    type SerializeTupleVariant = Array<'a>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        // As `Value` keeps it: a number when it fits 64 bits.
        scalar(self.out, &serde_json::to_value(v)?)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        scalar(self.out, &serde_json::to_value(v)?)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        // `Value` widens an f32 to f64 before it prints it.
        scalar(self.out, &f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        scalar(self.out, &v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        scalar(self.out, v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        // `Value` keeps bytes as an array of numbers.
        scalar(self.out, v)
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        // `{"variant": value}`: an object of one member needs no sorting.
        self.out.push(b'{');
        scalar(self.out, variant)?;
        self.out.push(b':');
        value.serialize(Sorted {
            out: &mut *self.out,
        })?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Array<'a>, Error> {
        self.out.push(b'[');
        Ok(Array {
            out: self.out,
            first: true,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Array<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Array<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Array<'a>, Error> {
        self.out.push(b'{');
        scalar(self.out, variant)?;
        self.out.extend_from_slice(b":[");
        Ok(Array {
            out: self.out,
            first: true,
            variant: true,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Object<'a>, Error> {
        Ok(Object::new(self.out, len.unwrap_or(8), false))
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Object<'a>, Error> {
        Ok(Object::new(self.out, len, false))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Object<'a>, Error> {
        self.out.push(b'{');
        scalar(self.out, variant)?;
        self.out.push(b':');
        Ok(Object::new(self.out, len, true))
    }
}

/// An array (or a tuple variant's `{"variant":[…]}`) being written.
struct Array<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    /// Closes a `{"variant":` too.
    variant: bool,
}

impl Array<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        value.serialize(Sorted {
            out: &mut *self.out,
        })
    }

    fn close(self) {
        self.out.push(b']');
        if self.variant {
            self.out.push(b'}');
        }
    }
}

impl ser::SerializeSeq for Array<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTuple for Array<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Array<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Array<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

/// An object being written: its members' values go into `values` as they come, and `end`
/// writes the members in key order (a key given twice keeps its last value, as a map does).
struct Object<'a> {
    out: &'a mut Vec<u8>,
    values: Vec<u8>,
    members: Vec<(Key, Range<usize>)>,
    /// A map's key, waiting for its value.
    key: Option<String>,
    /// Closes a `{"variant":` too.
    variant: bool,
}

enum Key {
    Field(&'static str),
    Owned(String),
}

impl Key {
    fn as_str(&self) -> &str {
        match self {
            Key::Field(name) => name,
            Key::Owned(name) => name,
        }
    }
}

impl<'a> Object<'a> {
    fn new(out: &'a mut Vec<u8>, len: usize, variant: bool) -> Self {
        Self {
            out,
            values: Vec::with_capacity(len * 16),
            members: Vec::with_capacity(len),
            key: None,
            variant,
        }
    }

    fn member<T: Serialize + ?Sized>(&mut self, key: Key, value: &T) -> Result<(), Error> {
        let start = self.values.len();
        value.serialize(Sorted {
            out: &mut self.values,
        })?;
        self.members.push((key, start..self.values.len()));
        Ok(())
    }

    fn close(mut self) -> Result<(), Error> {
        // Stable: of two members with one key, the later stays the later.
        self.members.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        self.out.push(b'{');
        let mut first = true;
        for (i, (key, range)) in self.members.iter().enumerate() {
            let repeated = self
                .members
                .get(i + 1)
                .is_some_and(|next| next.0.as_str() == key.as_str());
            if repeated {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            scalar(self.out, key.as_str())?;
            self.out.push(b':');
            self.out.extend_from_slice(&self.values[range.clone()]);
        }
        self.out.push(b'}');
        if self.variant {
            self.out.push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeStruct for Object<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.member(Key::Field(key), value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Object<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.member(Key::Field(key), value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(KeyText)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("a map value without its key"))?;
        self.member(Key::Owned(key), value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

/// A map key as `Value` keeps it: a string, or a number, a bool or a unit variant as text.
struct KeyText;

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    fn serialize_bool(self, v: bool) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _v: f32) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_f64(self, _v: f64) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::Serialize;
    use serde_json::json;

    use super::to_string;

    /// The bytes `to_value` then printing gives, which every event carried so far.
    fn as_value_prints<T: Serialize>(value: &T) -> String {
        serde_json::to_value(value).unwrap().to_string()
    }

    fn same<T: Serialize>(value: &T) {
        assert_eq!(to_string(value).unwrap(), as_value_prints(value));
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(i64),
        Tuple(i64, &'static str),
        Struct { zeta: i64, alpha: Option<i64> },
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        z_last: &'static str,
        a_first: Vec<u8>,
    }

    #[derive(Serialize)]
    struct Newtype(i64);

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Record {
        id: i64,
        pet_id: i64,
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<i64>,
        none: Option<String>,
        ratio: f64,
        small: f32,
        flag: bool,
        big: u64,
        wide: i128,
        letter: char,
        inner: Inner,
        list: Vec<Inner>,
        shapes: Vec<Shape>,
        newtype: Newtype,
        unit: (),
        pair: (i64, String),
        map: HashMap<String, i64>,
        by_number: BTreeMap<i64, &'static str>,
        value: serde_json::Value,
    }

    #[test]
    fn a_record_of_every_kind_prints_as_its_value_does() {
        let mut map = HashMap::new();
        for (k, v) in [("b", 2), ("a", 1), ("ä", 3), ("B", 4), ("", 5)] {
            map.insert(k.to_owned(), v);
        }
        same(&Record {
            id: 7,
            pet_id: -3,
            name: "Rex \"the\" dog\n\u{1}\\ é 🐕".into(),
            skipped: None,
            none: None,
            ratio: 0.1,
            small: 0.1,
            flag: true,
            big: u64::MAX,
            wide: -5,
            letter: '"',
            inner: Inner {
                z_last: "z",
                a_first: vec![0, 255],
            },
            list: vec![],
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(1),
                Shape::Tuple(2, "two"),
                Shape::Struct {
                    zeta: 3,
                    alpha: None,
                },
            ],
            newtype: Newtype(9),
            unit: (),
            pair: (1, "one".into()),
            map,
            by_number: BTreeMap::from([(10, "ten"), (9, "nine")]),
            value: json!({"z": [1, {"y": null, "x": 1.5}], "a": "b"}),
        });
    }

    #[test]
    fn scalars_and_edges_print_as_their_values_do() {
        same(&f64::NAN);
        same(&f32::INFINITY);
        same(&1e300);
        same(&-0.0);
        same(&i64::MIN);
        same(&u128::from(u64::MAX));
        assert!(to_string(&i128::MIN).is_err());
        assert!(serde_json::to_value(i128::MIN).is_err());
        same(&Option::<i64>::None);
        same(&json!({}));
        same(&json!([]));
        same(&Vec::<Inner>::new());
        same(&"");
    }

    #[derive(Serialize)]
    struct Flattened {
        b: i64,
        #[serde(flatten)]
        rest: BTreeMap<String, i64>,
    }

    #[test]
    fn a_key_given_twice_keeps_its_last_value_as_a_map_does() {
        same(&Flattened {
            b: 1,
            rest: BTreeMap::from([("b".to_owned(), 2), ("a".to_owned(), 0)]),
        });
    }

    #[test]
    fn keys_that_are_not_text_are_refused_as_by_a_value() {
        let by_pair = BTreeMap::from([((1, 2), 3)]);
        assert!(to_string(&by_pair).is_err());
        assert!(serde_json::to_value(&by_pair).is_err());
    }
}
