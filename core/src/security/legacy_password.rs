//! Password hashes a site brings along when it moves here from Zope/Plone: the schemes of
//! Zope's AuthEncoding (`{SSHA}`, `{SSHA512}`, `{SHA}`, `{SHA256}`, `{BCRYPT}`) and clear text,
//! which Zope keeps for a password stored without a scheme. They are checked as Zope checks
//! them, and replaced by an argon2 hash at the first login they let in
//! ([`super::basic::CredentialCache::verify`]), so a moved site's users keep their passwords
//! while the weak hashes disappear as they log in.

use base64::Engine;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};
use subtle::ConstantTimeEq;

/// The schemes a stored hash may name; anything else in braces never matches.
const SCHEMES: [&str; 5] = ["{SSHA512}", "{SSHA}", "{SHA256}", "{SHA}", "{BCRYPT}"];

/// Whether `stored` is not one of our own argon2 hashes, so a login it lets in replaces it.
pub fn is_legacy(stored: &str) -> bool {
    !stored.starts_with("$argon2")
}

/// Whether a legacy hash can be checked at all: a known scheme, or clear text. An unknown
/// scheme (`{CRYPT}`, `{MYSQL}`…) cannot, and an importer reports such users.
pub fn is_supported(stored: &str) -> bool {
    !stored.starts_with('{') || SCHEMES.iter().any(|scheme| stored.starts_with(scheme))
}

/// Checks `password` against a legacy hash, in constant time where the scheme allows.
pub fn verify_legacy(password: &str, stored: &str) -> bool {
    let pw = password.as_bytes();
    if stored.is_empty() || password.is_empty() {
        return false;
    }
    if let Some(encoded) = stored.strip_prefix("{SSHA512}") {
        salted::<Sha512>(pw, encoded)
    } else if let Some(encoded) = stored.strip_prefix("{SSHA}") {
        salted::<Sha1>(pw, encoded)
    } else if let Some(hex) = stored.strip_prefix("{SHA256}") {
        same(hex::encode(Sha256::digest(pw)).as_bytes(), hex.trim().to_ascii_lowercase().as_bytes())
    } else if let Some(encoded) = stored.strip_prefix("{SHA}") {
        decode(encoded).is_some_and(|digest| same(&Sha1::digest(pw), &digest))
    } else if let Some(hash) = stored.strip_prefix("{BCRYPT}") {
        bcrypt::verify(pw, hash).unwrap_or(false)
    } else if stored.starts_with('{') {
        false
    } else {
        same(pw, stored.as_bytes())
    }
}

/// `base64(digest(password + salt) + salt)`: the salt is what follows the digest.
fn salted<D: Digest>(password: &[u8], encoded: &str) -> bool {
    let Some(decoded) = decode(encoded) else { return false };
    let size = <D as Digest>::output_size();
    if decoded.len() < size {
        return false;
    }
    let (digest, salt) = decoded.split_at(size);
    let mut hasher = D::new();
    hasher.update(password);
    hasher.update(salt);
    same(&hasher.finalize(), digest)
}

fn decode(encoded: &str) -> Option<Vec<u8>> {
    base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn encode(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    /// What AuthEncoding's `pw_encrypt(password, 'SSHA')` writes, with a known salt.
    fn ssha(password: &str, salt: &[u8]) -> String {
        let digest = Sha1::new().chain_update(password).chain_update(salt).finalize();
        format!("{{SSHA}}{}", encode(&[&digest[..], salt].concat()))
    }

    #[test]
    fn zope_ssha_hashes_match_their_password_only() {
        let stored = ssha("geheim", b"\x01\x02\x03\x04\x05\x06\x07");
        assert!(verify_legacy("geheim", &stored));
        assert!(!verify_legacy("Geheim", &stored));
        assert!(!verify_legacy("", &stored));
    }

    #[test]
    fn a_known_ssha_vector_from_zope_matches() {
        // AuthEncoding's own test: pw_encrypt('good', 'SSHA') with the salt b'\x00' * 7 is
        // base64(sha1(b'good' + salt) + salt).
        let digest = Sha1::digest(b"good\0\0\0\0\0\0\0");
        let stored = format!("{{SSHA}}{}", encode(&[&digest[..], &[0u8; 7]].concat()));
        assert!(verify_legacy("good", &stored));
        assert!(!verify_legacy("bad", &stored));
    }

    #[test]
    fn ssha512_sha_sha256_bcrypt_and_clear_text_are_checked() {
        let salt = b"salzsalz";
        let digest = Sha512::new().chain_update("pw").chain_update(salt).finalize();
        let ssha512 = format!("{{SSHA512}}{}", encode(&[&digest[..], salt].concat()));
        let sha = format!("{{SHA}}{}", encode(&Sha1::digest(b"pw")));
        let sha256 = format!("{{SHA256}}{}", hex::encode(Sha256::digest(b"pw")));
        let bcrypt = format!("{{BCRYPT}}{}", bcrypt::hash("pw", 4).unwrap());
        for stored in [ssha512, sha, sha256, bcrypt, "pw".to_owned()] {
            assert!(verify_legacy("pw", &stored), "{stored}");
            assert!(!verify_legacy("wp", &stored), "{stored}");
            assert!(is_supported(&stored) && is_legacy(&stored), "{stored}");
        }
    }

    #[test]
    fn unknown_schemes_and_broken_hashes_never_match() {
        for stored in
            ["{CRYPT}abJnggxhB/yWI", "{MYSQL}0123456789abcdef", "{SSHA}not base64!", "{SSHA}AAAA", "{BCRYPT}$2b$"]
        {
            assert!(!verify_legacy("", stored) && !verify_legacy("abJnggxhB/yWI", stored), "{stored}");
        }
        assert!(!is_supported("{CRYPT}abJnggxhB/yWI"));
        assert!(!verify_legacy("", ""), "an empty stored password lets nobody in");
        assert!(!is_legacy("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"));
    }
}
