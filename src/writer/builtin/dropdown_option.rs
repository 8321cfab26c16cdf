//! An option of a dropdown named as if it were a checkbox: `select 'Soup'` with no dropdown
//! named, `'Vegetables' is selected`. A `<select>`'s option cannot be checked or be checked,
//! so a sentence whose element is one is about the dropdown's chosen option: the action
//! chooses it, and the check reads which option the dropdown shows as chosen.
//!
//! Main type: [`DropdownOption`].

use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::locator::js_str;
use crate::writer::builtin::snapshot::Snapshot;

/// An option of a single-choice dropdown (a `<select>`, role `combobox`) found by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DropdownOption {
    /// The dropdown's locator, by its role and exact name.
    dropdown: String,
    /// The option's text, as the page writes it.
    option: String,
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
        let dropdown = match dropdown.name.as_deref() {
            Some(name) => format!(
                "page.getByRole('combobox', {{ name: {}, exact: true }})",
                js_str(name)
            ),
            None if snap.with_roles(&["combobox"]).len() == 1 => {
                "page.getByRole('combobox')".to_owned()
            }
            None => return None,
        };
        Some(DropdownOption {
            dropdown,
            option: found.name.clone()?,
        })
    }

    /// The code that chooses the option (`on`), or why an option cannot be unchosen.
    pub(crate) fn choose(&self, on: bool) -> Result<Vec<String>, Decline> {
        if !on {
            return Err(Decline::new(format!(
                "\"{}\" is an option of a dropdown, which is unchosen only by choosing another",
                self.option
            )));
        }
        // The option's text is its label; a bare string would also choose an option whose
        // value is that text.
        Ok(vec![format!(
            "await {}.selectOption({{ label: {} }});",
            self.dropdown,
            js_str(&self.option)
        )])
    }

    /// The check that the dropdown shows the option as chosen (`on`) or shows another, its
    /// assertion written with `options`.
    pub(crate) fn chosen(&self, on: bool, options: CheckOptions) -> Vec<String> {
        let matcher = if on { "toHaveText" } else { "not.toHaveText" };
        vec![format!(
            "await expect({}.locator('option:checked')).{};",
            self.dropdown,
            options.matcher(matcher, &[&js_str(&self.option)])
        )]
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
    fn an_option_of_a_named_dropdown_is_chosen_and_checked_through_the_dropdown() {
        let veg = option("Vegetables").unwrap();
        const DROPDOWN: &str =
            "page.getByRole('combobox', { name: 'Choose a category:', exact: true })";
        assert_eq!(
            veg.choose(true).unwrap(),
            [format!(
                "await {DROPDOWN}.selectOption({{ label: 'Vegetables' }});"
            )]
        );
        assert_eq!(
            veg.chosen(true, CheckOptions::default()),
            [format!(
                "await expect({DROPDOWN}.locator('option:checked')).toHaveText('Vegetables');"
            )]
        );
        assert_eq!(
            veg.chosen(false, CheckOptions::default()),
            [format!(
                "await expect({DROPDOWN}.locator('option:checked')).not.toHaveText('Vegetables');"
            )]
        );
        assert!(veg.choose(false).is_err());
    }

    #[test]
    fn the_only_dropdown_needs_no_name() {
        let snap = Snapshot::parse(
            "- combobox:\n  - option \"Please select\" [disabled] [selected]\n  - option \"Option 2\"\n",
        );
        let option = DropdownOption::of(&snap, 2).unwrap();
        assert_eq!(
            option.choose(true).unwrap(),
            ["await page.getByRole('combobox').selectOption({ label: 'Option 2' });"]
        );
        assert_eq!(
            option.chosen(true, CheckOptions::default()),
            [
                "await expect(page.getByRole('combobox').locator('option:checked')).toHaveText('Option 2');"
            ]
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
