//! The code of an option of a dropdown named as if it were a checkbox (`dropdown_option.rs`
//! finds it): the dropdown's locator, the statement that chooses the option by its label, and
//! the check of the option the dropdown shows as chosen.
//!
//! Main functions: [`choose`] and [`chosen`], for `codegen.rs` and `check_code.rs`.

use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::dropdown_option::DropdownOption;
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::locator::js_str;

/// The dropdown's locator: by its role and exact name, or by its role alone when it has no
/// name and is the page's only dropdown.
fn dropdown(option: &DropdownOption) -> String {
    match &option.dropdown {
        Some(name) => format!(
            "page.getByRole('combobox', {{ name: {}, exact: true }})",
            js_str(name)
        ),
        None => "page.getByRole('combobox')".to_owned(),
    }
}

/// The code that chooses the option (`on`), or why an option cannot be unchosen.
pub(crate) fn choose(option: &DropdownOption, on: bool) -> Result<Vec<String>, Decline> {
    if !on {
        return Err(Decline::new(format!(
            "\"{}\" is an option of a dropdown, which is unchosen only by choosing another",
            option.option
        )));
    }
    // The option's text is its label; a bare string would also choose an option whose
    // value is that text.
    Ok(vec![format!(
        "await {}.selectOption({{ label: {} }});",
        dropdown(option),
        js_str(&option.option)
    )])
}

/// The check that the dropdown shows the option as chosen (`on`) or shows another, its
/// assertion written with `options`.
pub(crate) fn chosen(option: &DropdownOption, on: bool, options: CheckOptions) -> Vec<String> {
    let matcher = if on { "toHaveText" } else { "not.toHaveText" };
    vec![format!(
        "await expect({}.locator('option:checked')).{};",
        dropdown(option),
        options.matcher(matcher, &[&js_str(&option.option)])
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::snapshot::Snapshot;

    #[test]
    fn an_option_of_a_named_dropdown_is_chosen_and_checked_through_the_dropdown() {
        let veg = DropdownOption {
            dropdown: Some("Choose a category:".to_owned()),
            option: "Vegetables".to_owned(),
        };
        const DROPDOWN: &str =
            "page.getByRole('combobox', { name: 'Choose a category:', exact: true })";
        assert_eq!(
            choose(&veg, true).unwrap(),
            [format!(
                "await {DROPDOWN}.selectOption({{ label: 'Vegetables' }});"
            )]
        );
        assert_eq!(
            chosen(&veg, true, CheckOptions::default()),
            [format!(
                "await expect({DROPDOWN}.locator('option:checked')).toHaveText('Vegetables');"
            )]
        );
        assert_eq!(
            chosen(&veg, false, CheckOptions::default()),
            [format!(
                "await expect({DROPDOWN}.locator('option:checked')).not.toHaveText('Vegetables');"
            )]
        );
        assert!(choose(&veg, false).is_err());
    }

    #[test]
    fn the_only_dropdown_is_found_by_its_role() {
        let snap = Snapshot::parse(
            "- combobox:\n  - option \"Please select\" [disabled] [selected]\n  - option \"Option 2\"\n",
        );
        let option = DropdownOption::of(&snap, 2).unwrap();
        assert_eq!(
            choose(&option, true).unwrap(),
            ["await page.getByRole('combobox').selectOption({ label: 'Option 2' });"]
        );
        assert_eq!(
            chosen(&option, true, CheckOptions::default()),
            [
                "await expect(page.getByRole('combobox').locator('option:checked')).toHaveText('Option 2');"
            ]
        );
    }
}
