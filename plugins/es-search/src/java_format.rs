//! Numbers written as Elasticsearch writes them in aggregation keys, which is as Java does:
//! `Double.toString` (`50.0`, `0.04`, `-9.223372036854776E18`) and `DecimalFormat` patterns
//! (`0.0#`, `Value is ##0.0`) given as an aggregation's `format`; and the hash Elasticsearch's
//! terms `include` partitions terms by.

/// `x` as Java's `Double.toString` writes it: the shortest digits that read back as `x`, in
/// plain notation from 10⁻³ up to 10⁷ and in computerized scientific notation outside.
pub fn double(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    let magnitude = x.abs();
    if (1e-3..1e7).contains(&magnitude) {
        let plain = format!("{x}");
        return if plain.contains('.') { plain } else { format!("{plain}.0") };
    }
    // Rust's `{:e}` gives the shortest digits as `d.ddde±n`.
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let mantissa = if mantissa.contains('.') { mantissa.to_owned() } else { format!("{mantissa}.0") };
    format!("{mantissa}E{exponent}")
}

/// `x` in a `DecimalFormat` pattern: literal text around one number part whose `0`s after the
/// point are required digits and `#`s optional ones (rounded half-even, as Java does);
/// `None` for a pattern without a number part.
pub fn decimal(x: f64, pattern: &str) -> Option<String> {
    let start = pattern.find(['0', '#'])?;
    let end = pattern.rfind(['0', '#']).map_or(start, |e| e + 1);
    let (before, digits_part, after) = (&pattern[..start], &pattern[start..end], &pattern[end..]);
    let (integer, fraction) = digits_part.split_once('.').unwrap_or((digits_part, ""));
    let required = fraction.chars().filter(|c| *c == '0').count();
    let optional = fraction.chars().filter(|c| *c == '#').count();
    let min_integer = integer.chars().filter(|c| *c == '0').count();
    let digits = required + optional;
    let scale = 10f64.powi(i32::try_from(digits).ok()?);
    let scaled = x * scale;
    let rounded = if (scaled - scaled.trunc()).abs() == 0.5 { 2.0 * (scaled / 2.0).round() } else { scaled.round() };
    let mut text = format!("{:.*}", digits, rounded / scale);
    if optional > 0 {
        let keep = text.find('.').map_or(text.len(), |dot| dot + 1 + required);
        while text.len() > keep && text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            text.pop();
        }
    }
    let whole_len = text.find('.').unwrap_or(text.len());
    let negative = text.starts_with('-');
    let shown_digits = whole_len - usize::from(negative);
    if shown_digits < min_integer {
        let padding = "0".repeat(min_integer - shown_digits);
        text.insert_str(usize::from(negative), &padding);
    } else if min_integer == 0 && text.trim_start_matches('-').starts_with("0.") {
        text = text.replacen("0.", ".", 1);
    }
    Some(format!("{before}{text}{after}"))
}

/// Murmur3 (x86, 32 bits) of `bytes`, Lucene's `StringHelper.murmurhash3_x86_32`.
pub fn murmur3(bytes: &[u8], seed: u32) -> u32 {
    let (c1, c2) = (0xcc9e_2d51_u32, 0x1b87_3593_u32);
    let mut h = seed;
    let blocks = bytes.chunks_exact(4);
    let tail = blocks.remainder();
    for block in blocks {
        let mut k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        k = k.wrapping_mul(c1).rotate_left(15).wrapping_mul(c2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let mut k = 0u32;
    for (i, byte) in tail.iter().enumerate() {
        k |= u32::from(*byte) << (8 * i);
    }
    if !tail.is_empty() {
        h ^= k.wrapping_mul(c1).rotate_left(15).wrapping_mul(c2);
    }
    h ^= u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// Lucene's `BitMixer.mix64`, the hash of a number's partition.
pub fn mix64(value: i64) -> i64 {
    let mut z = value as u64;
    z = (z ^ (z >> 32)).wrapping_mul(0x4cd6_944c_5cc2_0b6d);
    z = (z ^ (z >> 29)).wrapping_mul(0xfc12_c5b1_9d3f_bb6b);
    z ^= z >> 32;
    z as i64
}

/// The partition (of `partitions`) Elasticsearch's terms `include: {partition, num_partitions}`
/// puts a term in: strings by Murmur3 with seed 31, numbers by `mix64`.
pub fn partition(key: &serde_json::Value, partitions: u64) -> Option<u64> {
    let partitions = i64::try_from(partitions).ok().filter(|p| *p > 0)?;
    let hash = match key {
        serde_json::Value::String(term) => i64::from(murmur3(term.as_bytes(), 31) as i32),
        serde_json::Value::Number(n) => mix64(n.as_i64()?),
        _ => return None,
    };
    u64::try_from(hash.rem_euclid(partitions)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_read_as_java_writes_them() {
        assert_eq!(double(50.0), "50.0");
        assert_eq!(double(0.04), "0.04");
        assert_eq!(double(24.9), "24.9");
        assert_eq!(double(-9.223372036854776e18), "-9.223372036854776E18");
        assert_eq!(double(1e7), "1.0E7");
    }

    #[test]
    fn decimal_formats_pad_and_trim() {
        assert_eq!(decimal(0.0, "0.0#").as_deref(), Some("0.0"));
        assert_eq!(decimal(0.04, "0.0#").as_deref(), Some("0.04"));
        assert_eq!(decimal(0.0152, "0.0###").as_deref(), Some("0.0152"));
        assert_eq!(decimal(50.0, "Value is ##0.0").as_deref(), Some("Value is 50.0"));
        assert_eq!(decimal(1.0, "0.0#").as_deref(), Some("1.0"));
    }

    #[test]
    fn murmur3_is_lucenes() {
        // Known values of murmur3_x86_32 (seed 0).
        assert_eq!(murmur3(b"", 0), 0);
        assert_eq!(murmur3(b"hello", 0), 0x248b_fa47);
    }
}
