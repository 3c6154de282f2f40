//! Categories: the kinds of animal a shop sells. Names are unique, case-insensitively.

use serde::{Deserialize, Serialize};

use super::{double_option, not_null, required, text, DomainError};

/// A category as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: i64,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The body of `POST /categories` and `PUT /categories/{id}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CategoryInput {
    pub name: Option<String>,
    pub description: Option<String>,
}

/// A validated new category (or the whole replacement of one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCategory {
    pub name: String,
    pub description: Option<String>,
}

impl TryFrom<CategoryInput> for NewCategory {
    type Error = DomainError;

    fn try_from(input: CategoryInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        Ok(Self {
            name: text::name("name", &name)?,
            description: text::description("description", input.description.as_deref())?,
        })
    }
}

/// The body of `PATCH /categories/{id}` as sent (a merge patch).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CategoryPatchInput {
    #[serde(default, deserialize_with = "double_option")]
    pub name: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub description: Option<Option<String>>,
}

/// A validated merge patch of a category.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CategoryPatch {
    pub name: Option<String>,
    pub description: Option<Option<String>>,
}

impl TryFrom<CategoryPatchInput> for CategoryPatch {
    type Error = DomainError;

    fn try_from(input: CategoryPatchInput) -> Result<Self, DomainError> {
        let name = not_null("name", input.name, |n| text::name("name", &n))?;
        let description = match input.description {
            None => None,
            Some(d) => Some(text::description("description", d.as_deref())?),
        };
        Ok(Self { name, description })
    }
}

impl CategoryPatch {
    /// The category as it is after this patch.
    pub fn apply(&self, category: &Category) -> NewCategory {
        NewCategory {
            name: self.name.clone().unwrap_or_else(|| category.name.clone()),
            description: self
                .description
                .clone()
                .unwrap_or_else(|| category.description.clone()),
        }
    }
}
