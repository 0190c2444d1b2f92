//! `@vocabularies/plone.app.vocabularies.SupportedContentLanguages`: the languages content may
//! be written in (the language panel's available languages), each titled in itself, which
//! Volto's select for the language field offers.

use super::site::AVAILABLE_LANGUAGES;
use crate::content::language::{autonym, codes};
use crate::service::Vocabulary;

/// The vocabulary's name.
pub const SUPPORTED_CONTENT_LANGUAGES: &str = "plone.app.vocabularies.SupportedContentLanguages";

/// The vocabulary.
pub static SUPPORTED_LANGUAGES: Vocabulary = Vocabulary {
    name: SUPPORTED_CONTENT_LANGUAGES,
    terms: |ctx| {
        Box::pin(async move {
            let available = ctx.app.record_value(&AVAILABLE_LANGUAGES).await?;
            Ok(codes(&available)
                .into_iter()
                .map(|code| {
                    let title = autonym(&code);
                    (code, title)
                })
                .collect())
        })
    },
};
