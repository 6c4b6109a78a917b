//! Reading data files from disk, decompressing gzip transparently
//! (`input @ data/big.in.gz`).

use std::io::Read;
use std::path::Path;

use crate::{read_values, DataError, Value};

/// The two magic bytes that open every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `bytes` decompressed if they are gzip data (recognised by content, not by
/// file name), otherwise unchanged.
pub fn gunzip_if_compressed(bytes: Vec<u8>) -> Result<Vec<u8>, DataError> {
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    // MultiGzDecoder, because `cat a.gz b.gz` is valid gzip holding both.
    flate2::read::MultiGzDecoder::new(bytes.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| DataError::new(format!("corrupt gzip data: {e}")))?;
    Ok(out)
}

/// The contents of a file, decompressed if it is gzipped.
pub fn read_data_file(path: &Path) -> Result<Vec<u8>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::new(format!("cannot read {}: {e}", path.display())))?;
    gunzip_if_compressed(bytes).map_err(|e| e.context(path.display()))
}

/// Every value in a data file (text, binary or mixed; possibly gzipped).
pub fn read_values_file(path: &Path) -> Result<Vec<Value>, DataError> {
    let bytes = read_data_file(path)?;
    read_values(&bytes).map_err(|e| e.context(path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn plain_and_gzipped_files_read_alike() {
        let dir = std::env::temp_dir().join(format!("ogham-data-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"-- two values\n[1i32, 2i32]\n3.5f64\n";
        let plain = dir.join("x.in");
        let packed = dir.join("x.in.gz");
        std::fs::write(&plain, text).unwrap();
        std::fs::write(&packed, gzip(text)).unwrap();
        assert_eq!(read_data_file(&packed).unwrap(), text.to_vec());
        let a = read_values_file(&plain).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a, read_values_file(&packed).unwrap());
        let missing = read_data_file(&dir.join("nope.in")).unwrap_err();
        assert!(missing.message.starts_with("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_gzip_is_an_error() {
        let mut bad = gzip(b"[1, 2, 3]");
        bad.truncate(bad.len() / 2);
        assert!(gunzip_if_compressed(bad).unwrap_err().message.contains("corrupt gzip"));
        assert_eq!(gunzip_if_compressed(b"1i32".to_vec()).unwrap(), b"1i32".to_vec());
    }
}
