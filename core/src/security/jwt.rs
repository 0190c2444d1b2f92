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

/// What a valid, unexpired token that names a token generation says.
fn verified(secret: &[u8], token: &str) -> Option<VerifiedToken> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    let claims = decode::<Claims>(token, &DecodingKey::from_secret(secret), &validation).ok()?.claims;
    Some(VerifiedToken { user_id: claims.sub, generation: claims.generation?, expires: claims.exp })
}

/// What a valid token says.
#[derive(Clone)]
struct VerifiedToken {
    user_id: String,
    generation: String,
    expires: i64,
}

/// The most tokens remembered; tokens come from requests, so the memory starts over when full.
const MAX_VERIFIED: usize = 4_096;

/// Tokens verified before, by their exact text: an editor's client sends its token with every
/// request, and checking the signature and decoding the claims again each time was a twentieth
/// of a document GET. Only a token that verified is remembered, so no other text is ever taken
/// for it; it is taken until it expires. Revoking it (a new token generation, on logout or a
/// password change) is checked against the user's account on every request, as before.
#[derive(Default)]
pub struct VerifiedTokens {
    tokens: std::sync::Mutex<std::collections::HashMap<String, VerifiedToken>>,
}

impl VerifiedTokens {
    /// The user id and token generation of a valid, unexpired token that names one; from
    /// memory when `token` verified before and has not expired since.
    pub fn verify(&self, secret: &[u8], token: &str) -> Option<(String, String)> {
        let now = chrono::Utc::now().timestamp();
        let remembered = self.tokens().get(token).filter(|known| known.expires > now).cloned();
        let known = match remembered {
            Some(known) => known,
            None => {
                let known = verified(secret, token)?;
                let mut tokens = self.tokens();
                if tokens.len() >= MAX_VERIFIED {
                    tokens.clear();
                }
                tokens.insert(token.to_owned(), known.clone());
                known
            }
        };
        Some((known.user_id, known.generation))
    }

    fn tokens(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, VerifiedToken>> {
        self.tokens.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_tampering() {
        let verify = |secret: &[u8], token: &str| VerifiedTokens::default().verify(secret, token);
        let token = issue(b"k1", "anna", "Anna", "g1").unwrap_or_default();
        assert_eq!(verify(b"k1", &token), Some(("anna".to_owned(), "g1".to_owned())));
        assert_eq!(verify(b"k2", &token), None);
        let mut forged = token.clone();
        forged.push('x');
        assert_eq!(verify(b"k1", &forged), None);
    }

    #[test]
    fn remembered_tokens_are_only_those_that_verified_and_until_they_expire() {
        let memory = VerifiedTokens::default();
        let token = issue(b"k1", "anna", "Anna", "g1").unwrap_or_default();
        assert_eq!(memory.verify(b"k1", &token), Some(("anna".to_owned(), "g1".to_owned())));
        assert_eq!(memory.verify(b"k1", &token), Some(("anna".to_owned(), "g1".to_owned())), "from memory");
        let mut forged = token.clone();
        forged.push('x');
        assert_eq!(memory.verify(b"k1", &forged), None);
        assert_eq!(memory.tokens().len(), 1, "a token that failed is not remembered");

        let expired = Claims { sub: "anna".to_owned(), exp: 1, fullname: "Anna".to_owned(), generation: None };
        memory.tokens().insert(
            "old".to_owned(),
            VerifiedToken { user_id: expired.sub, generation: "g1".to_owned(), expires: expired.exp },
        );
        assert_eq!(memory.verify(b"k1", "old"), None, "an expired token is checked again, and fails");
    }
}
