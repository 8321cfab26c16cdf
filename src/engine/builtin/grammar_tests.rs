use super::*;

fn intent(sentence: &str) -> Intent {
    parse(sentence, &[]).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
}

#[test]
fn politeness_articles_and_should_are_optional() {
    let plain = intent("click the \"Add\" button");
    assert_eq!(intent("Please click on the \"Add\" button."), plain);
    assert_eq!(intent("then I click \"Add\" button"), plain);
    assert_eq!(
        intent("the \"Add\" button should be visible"),
        intent("the \"Add\" button is visible")
    );
    assert_eq!(
        intent("the \"Add\" button should not be visible"),
        intent("the \"Add\" button is hidden")
    );
}

#[test]
fn targets_read_names_kinds_and_scopes() {
    let Intent::Click { target, .. } = intent("click the checkbox \"buy milk\"") else {
        panic!()
    };
    assert_eq!(target.name.as_deref(), Some("buy milk"));
    assert_eq!(target.kind, Some(Kind::Checkbox));
    let Intent::Fill { target, .. } = intent("type \"x\" into the new todo field") else {
        panic!()
    };
    assert_eq!(
        (target.name.as_deref(), target.quoted, target.kind),
        (Some("new todo"), false, Some(Kind::Field))
    );
    let Intent::Click { target, .. } = intent("click the \"Delete\" button of \"buy milk\"") else {
        panic!()
    };
    assert_eq!(target.scope.as_deref(), Some("buy milk"));
}

#[test]
fn keys_are_spelled_as_playwright_does() {
    for (sentence, key) in [
        ("press enter", "Enter"),
        ("press the Escape key", "Escape"),
        ("hit the down arrow", "ArrowDown"),
        ("press \"Control+A\"", "Control+A"),
        ("press Tab", "Tab"),
    ] {
        assert_eq!(
            intent(sentence),
            Intent::Press {
                key: key.to_owned(),
                target: None
            },
            "{sentence}"
        );
    }
}

#[test]
fn values_must_be_quoted_or_placeholders() {
    assert!(parse("type milk into the field", &[]).is_err());
    assert_eq!(
        intent("type ${NAME} into the field"),
        Intent::Fill {
            value: Literal("${NAME}".into()),
            target: Target {
                name: None,
                quoted: false,
                kind: Some(Kind::Field),
                scope: None,
                phrase: "field".into()
            },
            then_press: None
        }
    );
    let why = parse("click \"${BUTTON}\"", &[]).unwrap_err();
    assert!(why.0.contains("a variable names the element"), "{}", why.0);
}

#[test]
fn other_sentences_are_declined() {
    for sentence in [
        "make it faster",
        "",
        "wait for the spinner to go away",
        "type \"a\" into the field and click \"Add\"",
    ] {
        assert!(parse(sentence, &[]).is_err(), "{sentence:?}");
    }
}
