//! An option of a dropdown named as if it were a checkbox: `select 'Soup'` with no dropdown
//! named, `'Vegetables' is selected`. A `<select>`'s option cannot be checked or be checked,
//! so a sentence whose element is one is about the dropdown's chosen option: the action
//! chooses it, and the check reads which option the dropdown shows as chosen.
//!
//! Main type: [`DropdownOption`], the option as found on the page; `dropdown_code.rs` writes
//! the code that chooses it or checks that it is chosen.

use crate::writer::builtin::snapshot::Snapshot;

/// An option of a single-choice dropdown (a `<select>`, role `combobox`) found by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DropdownOption {
    /// The dropdown's exact name; `None` when it has none and is the page's only dropdown,
    /// which its role alone finds.
    pub dropdown: Option<String>,
    /// The option's text, as the page writes it.
    pub option: String,
}

impl DropdownOption {
    /// The option that `node` is, when it is an option of a named single-choice dropdown
    /// (inside an option group or not). `None` for any other element, and for an option of a
    /// list box, which may hold several chosen options at once.
    pub(crate) fn of(snap: &Snapshot, node: usize) -> Option<DropdownOption> {
        let found = snap.nodes.get(node)?;
        if found.role != "option" {
            return None;
        }
        let mut up = found.parent?;
        while snap.nodes[up].role == "group" {
            up = snap.nodes[up].parent?;
        }
        let dropdown = &snap.nodes[up];
        if dropdown.role != "combobox" {
            return None;
        }
        // A dropdown with no label is found by its role alone when it is the page's only one.
        let dropdown = match &dropdown.name {
            Some(name) => Some(name.clone()),
            None if snap.with_roles(&["combobox"]).len() == 1 => None,
            None => return None,
        };
        Some(DropdownOption {
            dropdown,
            option: found.name.clone()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "- combobox \"Choose a category:\":\n  - option \"All\" [selected]\n  - option \"Vegetables\"\n- listbox \"Sizes\":\n  - option \"Small\"\n- combobox:\n  - option \"Anonymous\"\n";

    fn option(name: &str) -> Option<DropdownOption> {
        let snap = Snapshot::parse(PAGE);
        let node = snap
            .nodes
            .iter()
            .position(|n| n.name.as_deref() == Some(name))?;
        DropdownOption::of(&snap, node)
    }

    #[test]
    fn an_option_of_a_named_dropdown_carries_the_dropdowns_name() {
        assert_eq!(
            option("Vegetables"),
            Some(DropdownOption {
                dropdown: Some("Choose a category:".to_owned()),
                option: "Vegetables".to_owned(),
            })
        );
    }

    #[test]
    fn the_only_dropdown_needs_no_name() {
        let snap = Snapshot::parse(
            "- combobox:\n  - option \"Please select\" [disabled] [selected]\n  - option \"Option 2\"\n",
        );
        assert_eq!(
            DropdownOption::of(&snap, 2),
            Some(DropdownOption {
                dropdown: None,
                option: "Option 2".to_owned(),
            })
        );
    }

    #[test]
    fn a_list_box_option_an_unnamed_dropdown_and_other_elements_are_not_read_here() {
        assert_eq!(option("Small"), None);
        // An unnamed dropdown among others: its role alone does not find it.
        assert_eq!(option("Anonymous"), None);
        assert_eq!(option("Choose a category:"), None);
    }
}
