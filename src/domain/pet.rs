//! Pets: the animals for sale, and the rules for creating and changing them.

use serde::{Deserialize, Serialize};

use super::{double_option, text, DomainError};

/// A pet's status. A pet may also have none (the field is then omitted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PetStatus {
    Available,
    Pending,
    Sold,
}

impl PetStatus {
    /// Every status, in the order the interface lists them.
    pub const ALL: [PetStatus; 3] = [Self::Available, Self::Pending, Self::Sold];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::Pending => "pending",
            Self::Sold => "sold",
        }
    }

    /// Parses a status as the interface spells it.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw)
    }

    fn from_field(field: &str, raw: &str) -> Result<Self, DomainError> {
        Self::parse(raw)
            .ok_or_else(|| DomainError::invalid(field, "must be one of available, pending, sold"))
    }
}

/// A pet as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pet {
    pub id: i64,
    pub name: String,
    pub category_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<PetStatus>,
}

/// The body of `POST /pets` and `PUT /pets/{petId}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PetInput {
    pub name: Option<String>,
    pub category_id: Option<i64>,
    pub status: Option<String>,
}

/// A validated new pet (or the whole replacement of one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPet {
    pub name: String,
    pub category_id: i64,
    pub status: Option<PetStatus>,
}

impl TryFrom<PetInput> for NewPet {
    type Error = DomainError;

    fn try_from(input: PetInput) -> Result<Self, DomainError> {
        let name = input
            .name
            .ok_or_else(|| DomainError::invalid("name", "is required"))?;
        let category_id = input
            .category_id
            .ok_or_else(|| DomainError::invalid("categoryId", "is required"))?;
        Ok(Self {
            name: text::name("name", &name)?,
            category_id: positive_id("categoryId", category_id)?,
            status: input
                .status
                .map(|s| PetStatus::from_field("status", &s))
                .transpose()?,
        })
    }
}

/// The body of `PATCH /pets/{petId}` as sent (a merge patch).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PetPatchInput {
    #[serde(default, deserialize_with = "double_option")]
    pub name: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub category_id: Option<Option<i64>>,
    #[serde(default, deserialize_with = "double_option")]
    pub status: Option<Option<String>>,
}

/// A validated merge patch of a pet. `status: Some(None)` clears the status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PetPatch {
    pub name: Option<String>,
    pub category_id: Option<i64>,
    pub status: Option<Option<PetStatus>>,
}

impl TryFrom<PetPatchInput> for PetPatch {
    type Error = DomainError;

    fn try_from(input: PetPatchInput) -> Result<Self, DomainError> {
        let name = match input.name {
            None => None,
            Some(None) => return Err(DomainError::invalid("name", "cannot be null")),
            Some(Some(n)) => Some(text::name("name", &n)?),
        };
        let category_id = match input.category_id {
            None => None,
            Some(None) => return Err(DomainError::invalid("categoryId", "cannot be null")),
            Some(Some(id)) => Some(positive_id("categoryId", id)?),
        };
        let status = match input.status {
            None => None,
            Some(None) => Some(None),
            Some(Some(s)) => Some(Some(PetStatus::from_field("status", &s)?)),
        };
        Ok(Self {
            name,
            category_id,
            status,
        })
    }
}

impl PetPatch {
    /// The pet as it is after this patch.
    pub fn apply(&self, pet: &Pet) -> NewPet {
        NewPet {
            name: self.name.clone().unwrap_or_else(|| pet.name.clone()),
            category_id: self.category_id.unwrap_or(pet.category_id),
            status: self.status.unwrap_or(pet.status),
        }
    }
}

/// An id given in a body: a positive integer.
pub fn positive_id(field: &str, id: i64) -> Result<i64, DomainError> {
    if id > 0 {
        Ok(id)
    } else {
        Err(DomainError::invalid(field, "must be a positive integer"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: Option<&str>, category: Option<i64>, status: Option<&str>) -> PetInput {
        PetInput {
            name: name.map(str::to_owned),
            category_id: category,
            status: status.map(str::to_owned),
        }
    }

    #[test]
    fn a_new_pet_needs_a_name_and_a_category() {
        assert!(NewPet::try_from(input(None, Some(1), None)).is_err());
        assert!(NewPet::try_from(input(Some("Rex"), None, None)).is_err());
        let pet = NewPet::try_from(input(Some(" Rex "), Some(1), Some("sold"))).unwrap();
        assert_eq!(pet.name, "Rex");
        assert_eq!(pet.status, Some(PetStatus::Sold));
    }

    #[test]
    fn an_unknown_status_is_refused_naming_the_field() {
        let err = NewPet::try_from(input(Some("Rex"), Some(1), Some("lost"))).unwrap_err();
        assert_eq!(err.code(), "validation_failed");
        assert!(err.to_string().starts_with("status"));
    }

    #[test]
    fn a_patch_with_null_status_clears_it() {
        let patch: PetPatchInput = serde_json::from_str(r#"{"status": null}"#).unwrap();
        let patch = PetPatch::try_from(patch).unwrap();
        let pet = Pet {
            id: 1,
            name: "Rex".into(),
            category_id: 2,
            status: Some(PetStatus::Pending),
        };
        assert_eq!(patch.apply(&pet).status, None);
        let empty = PetPatch::try_from(PetPatchInput::default()).unwrap();
        assert_eq!(empty.apply(&pet).status, Some(PetStatus::Pending));
    }
}
