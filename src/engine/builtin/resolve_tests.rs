use super::*;
use crate::engine::builtin::snapshot::fixtures::{LOGIN, TODOS};

fn named(name: &str, kind: Option<Kind>) -> Target {
    Target {
        name: Some(name.to_owned()),
        kind,
        ..Target::default()
    }
}

#[test]
fn names_match_exactly_then_in_any_case_then_by_words() {
    let snap = Snapshot::parse(LOGIN);
    for name in ["Username", "username", "USERNAME"] {
        let found = element(&snap, &named(name, Some(Kind::Field)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('textbox', { name: 'Username' })"
        );
    }
    let snap = Snapshot::parse("- textbox \"Email address\"\n- textbox \"Password\"");
    let found = element(&snap, &named("email", Some(Kind::Field)), &[], false).unwrap();
    assert_eq!(
        found.locator,
        "page.getByRole('textbox', { name: 'Email address' })"
    );
}

#[test]
fn a_name_inside_another_elements_name_gets_exact() {
    let snap = Snapshot::parse("- button \"Add\"\n- button \"Add all\"");
    let found = element(&snap, &named("Add", Some(Kind::Button)), &[], false).unwrap();
    assert_eq!(
        found.locator,
        "page.getByRole('button', { name: 'Add', exact: true })"
    );
}

#[test]
fn same_names_are_ambiguous_and_declined() {
    let snap = Snapshot::parse("- button \"Save\"\n- button \"Save\"");
    let why = element(&snap, &named("Save", None), CLICKABLE, false).unwrap_err();
    assert!(why.0.starts_with("2 elements"), "{}", why.0);
    let snap = Snapshot::parse("- button \"Save draft\"\n- button \"Save copy\"");
    let why = element(&snap, &named("save", None), CLICKABLE, false).unwrap_err();
    assert!(why.0.starts_with("2 elements"), "{}", why.0);
}

#[test]
fn the_list_is_the_one_holding_the_values() {
    let snap = Snapshot::parse(TODOS);
    assert_eq!(
        list(&snap, &["walk the dog".to_owned()], None).unwrap(),
        "page.getByRole('list', { name: 'Todo list' })"
    );
    assert_eq!(
        list(&snap, &[], Some("todos")).unwrap(),
        "page.getByRole('list', { name: 'Todo list' })"
    );
    assert!(list(&snap, &[], Some("items")).is_err());
}
