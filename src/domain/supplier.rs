//! Suppliers: the wholesalers a shop buys from. Names are unique, case-insensitively; the
//! contact fields are free text, stored trimmed (empty means none).

use serde::{Deserialize, Serialize};

use super::sale::{bounded_text, email_address};
use super::{double_option, not_null, required, text, DomainError};
use crate::contract::Bound;

/// Characters of a supplier's contact person.
pub const CONTACT: Bound = crate::contract::CONTACT;
/// Characters of a supplier's phone number.
pub const PHONE: Bound = crate::contract::PHONE;
/// Characters of a supplier's email address.
pub const EMAIL: Bound = crate::contract::EMAIL;

/// A supplier as the interface shows it (every field present, `null` when empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Supplier {
    pub id: i64,
    pub name: String,
    pub contact: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub note: Option<String>,
}

/// The body of `POST /store/suppliers` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SupplierInput {
    pub name: Option<String>,
    pub contact: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub note: Option<String>,
}

/// A validated supplier (new, or as it is after a patch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSupplier {
    pub name: String,
    pub contact: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub note: Option<String>,
}

fn email(raw: Option<&str>) -> Result<Option<String>, DomainError> {
    email_address("email", raw, "orders@example.com")
}

impl TryFrom<SupplierInput> for NewSupplier {
    type Error = DomainError;

    fn try_from(input: SupplierInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        Ok(Self {
            name: text::name("name", &name)?,
            contact: bounded_text("contact", input.contact.as_deref(), CONTACT)?,
            phone: bounded_text("phone", input.phone.as_deref(), PHONE)?,
            email: email(input.email.as_deref())?,
            note: text::description("note", input.note.as_deref())?,
        })
    }
}

/// The body of `PATCH /store/suppliers/{id}` as sent (a merge patch).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SupplierPatchInput {
    #[serde(default, deserialize_with = "double_option")]
    pub name: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub contact: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub email: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub note: Option<Option<String>>,
}

/// A validated merge patch of a supplier: `Some(None)` clears a field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SupplierPatch {
    pub name: Option<String>,
    pub contact: Option<Option<String>>,
    pub phone: Option<Option<String>>,
    pub email: Option<Option<String>>,
    pub note: Option<Option<String>>,
}

impl TryFrom<SupplierPatchInput> for SupplierPatch {
    type Error = DomainError;

    fn try_from(input: SupplierPatchInput) -> Result<Self, DomainError> {
        let name = not_null("name", input.name, |n| text::name("name", &n))?;
        Ok(Self {
            name,
            contact: input
                .contact
                .map(|c| bounded_text("contact", c.as_deref(), CONTACT))
                .transpose()?,
            phone: input
                .phone
                .map(|p| bounded_text("phone", p.as_deref(), PHONE))
                .transpose()?,
            email: input.email.map(|e| email(e.as_deref())).transpose()?,
            note: input
                .note
                .map(|n| text::description("note", n.as_deref()))
                .transpose()?,
        })
    }
}

impl SupplierPatch {
    /// The supplier as it is after this patch.
    pub fn apply(&self, s: &Supplier) -> NewSupplier {
        NewSupplier {
            name: self.name.clone().unwrap_or_else(|| s.name.clone()),
            contact: self.contact.clone().unwrap_or_else(|| s.contact.clone()),
            phone: self.phone.clone().unwrap_or_else(|| s.phone.clone()),
            email: self.email.clone().unwrap_or_else(|| s.email.clone()),
            note: self.note.clone().unwrap_or_else(|| s.note.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(body: &str) -> SupplierInput {
        serde_json::from_str(body).unwrap()
    }

    #[test]
    fn a_supplier_needs_a_name_and_stores_its_fields_trimmed() {
        assert!(NewSupplier::try_from(input(r#"{"phone": "1"}"#)).is_err());
        let s = NewSupplier::try_from(input(
            r#"{"name": " Acme ", "contact": " ", "email": "a@b.example"}"#,
        ))
        .unwrap();
        assert_eq!(s.name, "Acme");
        assert_eq!(s.contact, None);
        assert_eq!(s.email.as_deref(), Some("a@b.example"));
    }

    #[test]
    fn a_malformed_email_is_refused_naming_the_field() {
        let err = NewSupplier::try_from(input(r#"{"name": "A", "email": "nope"}"#)).unwrap_err();
        assert!(err.to_string().starts_with("email"), "{err}");
    }

    #[test]
    fn a_patch_with_null_clears_a_field_and_keeps_the_others() {
        let patch: SupplierPatchInput = serde_json::from_str(r#"{"phone": null}"#).unwrap();
        let patch = SupplierPatch::try_from(patch).unwrap();
        let s = Supplier {
            id: 1,
            name: "Acme".into(),
            contact: Some("Jo".into()),
            phone: Some("555".into()),
            email: None,
            note: None,
        };
        let after = patch.apply(&s);
        assert_eq!(after.phone, None);
        assert_eq!(after.contact.as_deref(), Some("Jo"));
    }
}
