//! Bearer tokens: HS256 JWTs with the claims plone.restapi issues (`sub`, `exp`, `fullname`)
//! and the user's token generation (`gen`), without which a token is not taken.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};

/// How long an issued token stays valid (plone.restapi's default, 12 hours).
pub const TOKEN_LIFETIME_SECS: i64 = 12 * 60 * 60;

/// The claims of our tokens.
#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// Expiry, seconds since the epoch.
    pub exp: i64,
    /// The user's display name.
    pub fullname: String,
    /// The user's token generation when it was issued.
    #[serde(default, rename = "gen")]
    pub generation: Option<String>,
}

/// Signs a token for a user.
pub fn issue(
    secret: &[u8],
    user_id: &str,
    fullname: &str,
    generation: &str,
) -> Result<String, jsonwebtoken::errors::Error> {
    let claims = Claims {
        sub: user_id.to_owned(),
        exp: chrono::Utc::now().timestamp() + TOKEN_LIFETIME_SECS,
        fullname: fullname.to_owned(),
        generation: Some(generation.to_owned()),
    };
    encode(&Header::new(Algorithm::HS256), &claims, &EncodingKey::from_secret(secret))
}

/// The user id and token generation of a valid, unexpired token that names one.
pub fn verify(secret: &[u8], token: &str) -> Option<(String, String)> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    let claims = decode::<Claims>(token, &DecodingKey::from_secret(secret), &validation).ok()?.claims;
    Some((claims.sub, claims.generation?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_tampering() {
        let token = issue(b"k1", "anna", "Anna", "g1").unwrap_or_default();
        assert_eq!(verify(b"k1", &token), Some(("anna".to_owned(), "g1".to_owned())));
        assert_eq!(verify(b"k2", &token), None);
        let mut forged = token.clone();
        forged.push('x');
        assert_eq!(verify(b"k1", &forged), None);
    }
}
