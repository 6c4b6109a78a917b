//! Futhark's binary value format (anchor-futhark.md §2.3).
//!
//! One value is: the byte `b`, the version byte 2, the rank (one byte), a
//! four-byte type tag (`" i32"`, `"bool"`, …), `rank` little-endian `u64`
//! sizes, then the elements little-endian in row-major order (bool as one
//! byte). There is no padding. A scalar has rank 0 and one element.

use ogham_prim::PrimType;

use crate::value::{element_count, shape_text};
use crate::{Buffer, DataError, Value};

/// The only version of the format there is.
pub const BINARY_VERSION: u8 = 2;

/// The four-byte tag naming an element type, right-aligned and space-padded.
pub fn type_tag(t: PrimType) -> [u8; 4] {
    let name = t.name().as_bytes();
    let mut tag = [b' '; 4];
    tag[4 - name.len()..].copy_from_slice(name);
    tag
}

fn type_from_tag(tag: &[u8]) -> Option<PrimType> {
    PrimType::ALL.into_iter().find(|&t| type_tag(t) == tag)
}

/// Appends the binary form of `v` to `out`.
pub fn write_binary(v: &Value, out: &mut Vec<u8>) {
    out.push(b'b');
    out.push(BINARY_VERSION);
    // A Value's rank comes from the text parser (capped at 255) or from this
    // format, so it always fits the rank byte.
    out.push(v.rank() as u8);
    out.extend_from_slice(&type_tag(v.elem_type()));
    for &d in v.shape() {
        out.extend_from_slice(&(d as u64).to_le_bytes());
    }
    match v {
        Value::Scalar(x) => Buffer::filled(*x, 1).write_le_bytes(out),
        Value::Array(a) => a.data().write_le_bytes(out),
    }
}

/// The binary form of one value.
pub fn value_to_binary(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_binary(v, &mut out);
    out
}

/// The binary forms of several values, concatenated.
pub fn values_to_binary(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        write_binary(v, &mut out);
    }
    out
}

/// Reads one binary value whose `b` byte is at `start`; returns it with the
/// offset just past it. Errors point at the offending header field.
pub fn read_binary(input: &[u8], start: usize) -> Result<(Value, usize), DataError> {
    let err = |offset: usize, msg: String| DataError::at(input, offset, msg);
    let header = |n: usize, what: &str| -> Result<&[u8], DataError> {
        input
            .get(start..start + n)
            .ok_or_else(|| err(start, format!("binary value truncated in its header (missing the {what})")))
    };
    if input.get(start) != Some(&b'b') {
        return Err(err(start, "a binary value must start with the byte `b`".to_string()));
    }
    let version = header(2, "version byte")?[1];
    if version != BINARY_VERSION {
        return Err(err(
            start + 1,
            format!("unsupported binary format version {version} (only {BINARY_VERSION} exists)"),
        ));
    }
    let rank = header(3, "rank byte")?[2] as usize;
    let tag = &header(7, "type tag")?[3..7];
    let elem = type_from_tag(tag).ok_or_else(|| {
        err(start + 3, format!("unknown element type tag {:?} in binary value", String::from_utf8_lossy(tag)))
    })?;
    let dims_bytes = &header(7 + 8 * rank, "sizes")?[7..];
    let mut shape = Vec::with_capacity(rank);
    for (i, chunk) in dims_bytes.chunks_exact(8).enumerate() {
        let d = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        let d = i64::try_from(d).map_err(|_| err(start + 7 + 8 * i, format!("binary array size {d} is too large")))?;
        shape.push(d);
    }
    let payload_start = start + 7 + 8 * rank;
    let count = element_count(&shape)
        .ok_or_else(|| err(start + 7, format!("binary array shape {} has too many elements", shape_text(&shape))))?;
    let payload_len = count
        .checked_mul(elem.byte_size())
        .ok_or_else(|| err(start + 7, format!("binary array shape {} has too many elements", shape_text(&shape))))?;
    // Check the length before allocating, so a corrupt size cannot ask for
    // terabytes of memory.
    let available = input.len() - payload_start;
    if payload_len > available {
        return Err(err(
            payload_start,
            format!(
                "binary value of type {}{elem} needs {payload_len} bytes of elements, but only {available} remain",
                shape_text(&shape)
            ),
        ));
    }
    let payload = &input[payload_start..payload_start + payload_len];
    let data = Buffer::from_le_bytes(elem, payload).expect("payload length is a multiple of the element size");
    let end = payload_start + payload_len;
    let value = if rank == 0 {
        Value::Scalar(data.at(0))
    } else {
        Value::array(shape, data).map_err(|e| err(start, e.message))?
    };
    Ok((value, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_text_value;
    use ogham_prim::PrimValue;

    #[test]
    fn layout_matches_the_specification() {
        // [500]i64 header from the notes: 62 02 01 " i64" f4 01 00 ...
        let v = Value::vector(Buffer::I64(vec![7; 500]));
        let bytes = value_to_binary(&v);
        assert_eq!(&bytes[..15], &[0x62, 2, 1, b' ', b'i', b'6', b'4', 0xf4, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(bytes.len(), 15 + 500 * 8);
        // A scalar: no sizes, one element.
        assert_eq!(value_to_binary(&Value::Scalar(PrimValue::I32(-2))), b"b\x02\x00 i32\xfe\xff\xff\xff".to_vec());
        assert_eq!(value_to_binary(&Value::Scalar(PrimValue::Bool(true))), b"b\x02\x00bool\x01".to_vec());
        assert_eq!(type_tag(PrimType::U8), *b"  u8");
    }

    #[test]
    fn round_trips_every_type() {
        for text in [
            "[1i8, -1i8]",
            "[[1i16, 2i16], [3i16, 4i16]]",
            "-5i32",
            "[9223372036854775807i64]",
            "[255u8]",
            "[65535u16]",
            "4294967295u32",
            "[1u64]",
            "[0.5f16, -f16.inf]",
            "[[0.1f32], [f32.nan]]",
            "1e300f64",
            "[true, false, true]",
            "empty([3][0]f64)",
        ] {
            let v = parse_text_value(text).unwrap();
            let bytes = value_to_binary(&v);
            let (back, end) = read_binary(&bytes, 0).unwrap();
            assert_eq!(end, bytes.len());
            // Compare through the text form so NaN compares equal to itself.
            assert_eq!(back.to_string(), v.to_string(), "{text}");
            assert_eq!(back.value_type(), v.value_type());
        }
    }

    #[test]
    fn f16_bits_are_preserved() {
        let v = parse_text_value("[1.0f16]").unwrap();
        assert_eq!(&value_to_binary(&v)[15..], &[0x00, 0x3c]);
    }

    #[test]
    fn malformed_binary_is_an_error() {
        let good = value_to_binary(&parse_text_value("[1i32, 2i32]").unwrap());
        for cut in 1..good.len() {
            assert!(read_binary(&good[..cut], 0).is_err(), "cut at {cut}");
        }
        let mut bad_version = good.clone();
        bad_version[1] = 1;
        assert!(read_binary(&bad_version, 0).unwrap_err().message.contains("version 1"));
        let mut bad_tag = good.clone();
        bad_tag[3..7].copy_from_slice(b" i31");
        assert!(read_binary(&bad_tag, 0).unwrap_err().message.contains("unknown element type tag"));
        let mut huge = good.clone();
        huge[7..15].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_binary(&huge, 0).unwrap_err().message.contains("too large"));
        let mut big = good.clone();
        big[7..15].copy_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(read_binary(&big, 0).unwrap_err().message.contains("only 8 remain"));
        let mut two_d = b"b\x02\x02 i32".to_vec();
        two_d.extend_from_slice(&(1u64 << 62).to_le_bytes());
        two_d.extend_from_slice(&(1u64 << 62).to_le_bytes());
        assert!(read_binary(&two_d, 0).unwrap_err().message.contains("too many elements"));
    }
}
