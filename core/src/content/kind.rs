//! Which content something applies to: services, serializers, components and hooks say it
//! with a [`ContentKind`], matched against a type's profile.

use super::TypeProfile;

/// Which content a service, serializer or component applies to. When several match, the most
/// specific wins: exact type, then behaviour, then folderish, then any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContentKind {
    /// Exactly this portal type.
    Type(&'static str),
    /// Types carrying this behaviour.
    Behaviour(&'static str),
    /// Containers.
    Folderish,
    /// Everything.
    Any,
}

impl ContentKind {
    /// Higher is more specific.
    pub fn specificity(self) -> u8 {
        match self {
            ContentKind::Type(_) => 3,
            ContentKind::Behaviour(_) => 2,
            ContentKind::Folderish => 1,
            ContentKind::Any => 0,
        }
    }

    /// Whether content of `profile` is of this kind.
    pub fn matches(self, profile: &TypeProfile) -> bool {
        match self {
            ContentKind::Type(name) => profile.id == name,
            ContentKind::Behaviour(name) => profile.has_behaviour(name),
            ContentKind::Folderish => profile.folderish,
            ContentKind::Any => true,
        }
    }

    /// A short label for documents and error messages.
    pub fn label(self) -> String {
        match self {
            ContentKind::Type(name) => format!("type {name}"),
            ContentKind::Behaviour(name) => format!("behaviour {name}"),
            ContentKind::Folderish => "folderish content".into(),
            ContentKind::Any => "any content".into(),
        }
    }
}
