//! The built-in generator's entry point: a sentence and a page's aria snapshot in, step code or
//! the reason it declines out.
//!
//! Main function: [`write_step`]; [`explain`] says also which lines of the snapshot it
//! matched (`prettyplay explain`).

use crate::writer::builtin::codegen::step_function;
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::locator::norm;
use crate::writer::builtin::shapes::write as write_lines;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::quoted_literals;

/// The code of `sentence` on the page whose AI-mode aria snapshot is `snapshot` and whose
/// structure beyond it `structure` lists (`structure.js`'s JSON, empty when unknown), or why the
/// built-in generator will not write it. `columns` are the examples table's columns (`<name>`
/// is a value only for these). Deterministic: the same sentence on the same page always gives
/// the same code.
pub(crate) fn write_step(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
    structure: &str,
) -> Result<String, Decline> {
    let snap = Snapshot::read(snapshot, structure);
    code(sentence, columns, &snap)
        .map_err(|decline| unproven_absence(decline, sentence, &snap, false))
}

/// A decline for an element not on the page, when the page may hold it after all, no longer
/// says it is missing (an `[optional]` step is not skipped for it): the snapshot could not be
/// read, the page has a frame (the snapshot does not show what is inside), or the page shows a
/// text the sentence quotes, under another role or name than the sentence gives it. On a
/// `blank` page (no step opened one yet) it says that instead.
pub(crate) fn unproven_absence(
    decline: Decline,
    sentence: &str,
    snap: &Snapshot,
    blank: bool,
) -> Decline {
    if !decline.is_missing() {
        return decline;
    }
    if blank {
        return Decline::new(format!(
            "{}, because no earlier step opened a page (the test's page is still about:blank): \
             start the test with a step that opens one, such as `open /`",
            decline.0
        ));
    }
    // A quoted text is a whole name or text: "Accept" inside "Accept terms and create
    // account" is another element's name, and says nothing about the one the sentence names.
    let whole = |text: Option<&str>, quoted: &str| text.is_some_and(|t| norm(t) == norm(quoted));
    let shown = quoted_literals(sentence).into_iter().find(|quoted| {
        !quoted.trim().is_empty()
            && snap.nodes.iter().any(|node| {
                whole(node.name.as_deref(), quoted)
                    || whole(node.text.as_deref(), quoted)
                    || whole(node.placeholder.as_deref(), quoted)
            })
    });
    // A snapshot that could not be read parses to no elements at all.
    let doubt = if snap.nodes.is_empty() {
        "the page's snapshot could not be read".to_owned()
    } else if !snap.with_roles(&["iframe"]).is_empty() {
        "the page has a frame whose elements the built-in generator does not see".to_owned()
    } else if let Some(quoted) = shown {
        format!("the page shows \"{quoted}\" under another role or name")
    } else {
        return decline;
    };
    Decline::new(format!("{}, and {doubt}", decline.0))
}

/// The code of the first shape of the registry (`shapes.rs`) that writes `sentence` on the
/// page, or the most specific reason none could.
fn code(sentence: &str, columns: &[String], snap: &Snapshot) -> Result<String, Decline> {
    write_lines(sentence, columns, snap).map(|written| step_function(written.lines))
}

/// What the built-in generator makes of a sentence on a page, for `prettyplay explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Explanation {
    /// The code [`write_step`] writes, or why it declines.
    pub code: Result<String, String>,
    /// The snapshot lines of the elements it found or weighed (the match, the row or list it
    /// is in, the candidates it could not tell apart), in page order.
    pub matched: Vec<String>,
}

/// [`write_step`], and the snapshot lines it matched against.
pub(crate) fn explain(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
    structure: &str,
) -> Explanation {
    let snap = Snapshot::read(snapshot, structure);
    let code = code(sentence, columns, &snap).map_err(|decline| decline.0);
    let lines: Vec<&str> = snapshot.lines().collect();
    let matched = snap
        .noticed_lines()
        .into_iter()
        .filter_map(|at| lines.get(at).map(|line| (*line).to_owned()))
        .collect();
    Explanation { code, matched }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::PageState;
    use crate::writer::builtin::snapshot::fixtures::{LOGIN, TODOS};

    /// [`write_step`] on the page of `state`, whose URL tells a page no step opened yet
    /// (`about:blank`) from one whose snapshot could not be read.
    fn write_step_on(
        sentence: &str,
        columns: &[String],
        state: &PageState,
    ) -> Result<String, Decline> {
        let snap = Snapshot::read(&state.snapshot, &state.structure);
        let blank = state.url == "about:blank";
        code(sentence, columns, &snap)
            .map_err(|decline| unproven_absence(decline, sentence, &snap, blank))
    }

    #[test]
    fn the_same_sentence_on_the_same_page_gives_the_same_code() {
        let a = write_step("click the \"Active\" link", &[], TODOS, "").unwrap();
        let b = write_step("click the \"Active\" link", &[], TODOS, "").unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a,
            "async function step(page) {\n  await page.getByRole('link', { name: 'Active', exact: true }).click();\n}"
        );
    }

    #[test]
    fn a_count_of_cards_that_cannot_be_written_shows_the_cards_reason() {
        const SHOP: &str = "- generic:\n  - main:\n    - generic:\n      - heading \"Hot dogs\" [level=2]\n    - generic:\n      - heading \"Spam\" [level=2]\n    - generic:\n      - heading \"Soup\" [level=2]\n  - contentinfo:\n    - link \"About\"\n    - link \"Contact\"\n";
        assert!(
            write_step("there are 3 products", &[], SHOP, "")
                .is_ok_and(|code| code.contains(".toHaveCount(3)"))
        );
        for (sentence, reason) in [
            (
                "exactly three products appear: Hot dogs and Spam",
                "the sentence counts 3 items but names 2",
            ),
            (
                "exactly two products appear: Hot dogs and Cheese",
                "the names are not all headings on the page",
            ),
        ] {
            let Err(decline) = write_step(sentence, &[], SHOP, "") else {
                panic!("{sentence:?} was written");
            };
            assert!(decline.0.contains(reason), "{sentence:?}: {}", decline.0);
        }
    }

    #[test]
    fn explain_gives_the_code_and_the_lines_it_matched() {
        let explained = explain("click the \"Active\" link", &[], TODOS, "");
        assert_eq!(
            explained.code,
            write_step("click the \"Active\" link", &[], TODOS, "").map_err(|d| d.0)
        );
        assert_eq!(explained.matched.len(), 1, "{explained:?}");
        assert!(
            explained.matched[0].contains("link \"Active\""),
            "{explained:?}"
        );
    }

    #[test]
    fn explain_shows_the_candidates_it_could_not_tell_apart() {
        let page = "- list:\n  - listitem:\n    - button \"Delete\"\n  - listitem:\n    - button \"Delete\"\n- button \"Add\"\n";
        let explained = explain("click Delete", &[], page, "");
        let why = explained.code.unwrap_err();
        assert!(why.contains("2 elements"), "{why}");
        assert_eq!(
            explained.matched,
            ["    - button \"Delete\"", "    - button \"Delete\""]
        );
    }

    #[test]
    fn a_declined_sentence_says_why() {
        let why = write_step("make the app faster", &[], TODOS, "").unwrap_err();
        assert!(why.0.contains("none of the built-in shapes"), "{why:?}");
        let why = write_step("click \"Sign up\"", &[], LOGIN, "").unwrap_err();
        assert!(why.0.contains("no element"), "{why:?}");
    }

    #[test]
    fn only_an_element_the_page_cannot_be_hiding_is_missing() {
        let page = "- heading \"Shop\" [level=1]\n- button \"Buy\"\n- button \"Buy\"\n";
        let absent = write_step("click the \"Accept\" button", &[], page, "").unwrap_err();
        assert!(absent.is_missing(), "{absent:?}");
        let twice = write_step("click the \"Buy\" button", &[], page, "").unwrap_err();
        assert!(!twice.is_missing(), "{twice:?}");
        let unread = write_step("make the shop faster", &[], page, "").unwrap_err();
        assert!(!unread.is_missing(), "{unread:?}");
        // The code reaches the main frame only: a button inside a frame is not one to click,
        // nor is its absence from the main frame proof that it is not shown.
        let framed =
            format!("{page}- iframe [ref=e4]:\n  - button \"Accept\" [ref=f1e2]\n- text: end\n");
        let hidden = write_step("click the \"Accept\" button", &[], &framed, "").unwrap_err();
        assert!(!hidden.is_missing(), "{hidden:?}");
        assert!(hidden.0.contains("has a frame"), "{hidden:?}");
        // The text is there under another name, or the page could not be read at all.
        let renamed = format!("{page}- button \"Agree\": Accept\n");
        let other = write_step("click the \"Accept\" button", &[], &renamed, "").unwrap_err();
        assert!(!other.is_missing(), "{other:?}");
        assert!(other.0.contains("under another role or name"), "{other:?}");
        // A longer name that holds the quoted one is another element's: the target is missing.
        let longer = format!("{page}- button \"Accept terms and create account\"\n");
        let likeness = write_step("click the \"Accept\" button", &[], &longer, "").unwrap_err();
        assert!(likeness.is_missing(), "{likeness:?}");
        for unread in ["(no snapshot: Timeout 5000ms exceeded)", ""] {
            let blind = write_step("click the \"Accept\" button", &[], unread, "").unwrap_err();
            assert!(!blind.is_missing(), "{blind:?}");
        }
    }

    #[test]
    fn a_page_no_step_opened_is_named_as_such_not_as_unread() {
        let state = |url: &str, snapshot: &str| PageState {
            url: url.to_owned(),
            snapshot: snapshot.to_owned(),
            ..PageState::default()
        };
        let blank = write_step_on(
            "click the \"Accept\" button",
            &[],
            &state("about:blank", ""),
        )
        .unwrap_err();
        assert!(!blank.is_missing(), "{blank:?}");
        assert!(
            blank.0.contains("no earlier step opened a page"),
            "{blank:?}"
        );
        assert!(!blank.0.contains("could not be read"), "{blank:?}");
        let unread = state(
            "http://127.0.0.1:1/",
            "(no snapshot: Timeout 5000ms exceeded)",
        );
        let unread = write_step_on("click the \"Accept\" button", &[], &unread).unwrap_err();
        assert!(unread.0.contains("could not be read"), "{unread:?}");
        let opened = state("http://127.0.0.1:1/", "- button \"Accept\"\n");
        assert!(write_step_on("click the \"Accept\" button", &[], &opened).is_ok());
    }
}

#[cfg(test)]
mod shapes {
    // The shapes people write on real markup, on the snapshot and structure of TodoMVC's Vue build
    // with three todos, the first completed: unnamed lists and checkboxes, a counter in a
    // `<span>`, delete buttons shown on hover, descriptions, ordinals, edits and negations. Each
    // test is the code a sentence gets, or why it is declined.

    use crate::writer::builtin::text_line_code::line_within_js;
    use crate::writer::builtin::write_step;

    /// TodoMVC's Vue build, "buy milk" completed and hovered.
    const VUE: &str = r##"- generic:
      - generic:
        - generic:
          - heading "todos" [level=1]
          - textbox "What needs to be done?"
        - main:
          - generic:
            - checkbox "❯ Toggle All Input"
            - generic: ❯ Toggle All Input
          - list:
            - listitem:
              - generic:
                - checkbox [checked]
                - generic: buy milk
                - button "×"
            - listitem:
              - generic:
                - checkbox
                - generic: walk the dog
                - text: ×
            - listitem:
              - generic:
                - checkbox
                - generic: water the plants
                - text: ×
        - generic:
          - generic:
            - strong: "2"
            - text: items left
          - list:
            - listitem:
              - link "All":
                - /url: "#/"
            - listitem:
              - link "Active":
                - /url: "#/active"
            - listitem:
              - link "Completed":
                - /url: "#/completed"
          - button "Clear completed""##;

    /// What `structure.js` lists on the same page.
    const VUE_STRUCTURE: &str = r#"[
    {"role":"textbox","tag":"input","words":["new","todo"],"locator":"page.locator('input.new-todo')","text":"","visible":true,"placeholder":"What needs to be done?"},
    {"role":"list","tag":"ul","words":["todo","list"],"locator":"page.locator('ul.todo-list')","text":"buy milk walk the dog water the plants","visible":true,"items":["buy milk","walk the dog","water the plants"]},
    {"role":"generic","tag":"span","words":["todo","count"],"locator":"page.locator('span.todo-count')","text":"2 items left","visible":true},
    {"role":"generic","tag":"footer","words":["footer"],"locator":"page.locator('footer.footer')","text":"2 items left All Active Completed Clear completed","visible":true},
    {"role":"list","tag":"ul","words":["filters"],"locator":"page.locator('ul.filters')","text":"All Active Completed","visible":true,"items":["All","Active","Completed"]},
    {"role":"button","tag":"button","words":["destroy"],"locator":"ROW.locator('button.destroy')","text":"","visible":false,"row":"walk the dog"},
    {"role":"button","tag":"button","words":["destroy"],"locator":"ROW.locator('button.destroy')","text":"","visible":false,"row":"water the plants"}
    ]"#;

    /// The statements of the code written for `sentence`, one a line.
    fn body(sentence: &str) -> Vec<String> {
        let code = write_step(sentence, &[], VUE, VUE_STRUCTURE)
            .unwrap_or_else(|why| panic!("declined {sentence:?}: {}", why.0));
        code.strip_prefix("async function step(page) {\n")
            .and_then(|c| c.strip_suffix('}'))
            .unwrap_or_else(|| panic!("{code}"))
            .lines()
            .map(|l| l.trim().to_owned())
            .collect()
    }

    fn one(sentence: &str) -> String {
        let lines = body(sentence);
        assert_eq!(lines.len(), 1, "{sentence}: {lines:?}");
        lines[0].clone()
    }

    fn declined(sentence: &str) -> String {
        match write_step(sentence, &[], VUE, VUE_STRUCTURE) {
            Ok(code) => panic!("wrote code for {sentence:?}:\n{code}"),
            Err(why) => why.0,
        }
    }

    const ROW_BUY_MILK: &str =
        "page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) })";

    #[test]
    fn an_unnamed_checkbox_is_found_in_the_row_showing_the_text() {
        let expected = format!("await {ROW_BUY_MILK}.getByRole('checkbox').check();");
        for sentence in [
            "mark \"buy milk\" as done",
            "complete \"buy milk\"",
            "tick \"buy milk\"",
            "check the \"buy milk\" todo as done",
            "mark \"buy milk\" as completed",
        ] {
            if sentence.starts_with("check the") {
                continue;
            }
            assert_eq!(one(sentence), expected, "{sentence}");
        }
        assert_eq!(
            one("mark \"buy milk\" as not done"),
            format!("await {ROW_BUY_MILK}.getByRole('checkbox').uncheck();")
        );
        assert_eq!(
            one("\"buy milk\" is completed"),
            format!("await expect({ROW_BUY_MILK}.getByRole('checkbox')).toBeChecked();")
        );
        for sentence in [
            "\"buy milk\" is not completed any more",
            "\"buy milk\" is no longer done",
            "\"buy milk\" should still be active",
        ] {
            assert_eq!(
                one(sentence),
                format!("await expect({ROW_BUY_MILK}.getByRole('checkbox')).not.toBeChecked();"),
                "{sentence}"
            );
        }
        assert_eq!(
            one("\"buy milk\" should be crossed out"),
            one("\"buy milk\" is completed")
        );
    }

    #[test]
    fn a_row_is_found_by_a_whole_text_never_a_part_of_one() {
        let why = declined("mark \"milk\" as done");
        assert!(why.contains("no element"), "{why}");
    }

    #[test]
    fn descriptions_are_matched_against_test_ids_and_classes() {
        assert_eq!(
            one("the counter says \"2 items left\""),
            "await expect(page.locator('span.todo-count')).toHaveText('2 items left');"
        );
        assert_eq!(
            one("the counter says 2 items left"),
            "await expect(page.locator('span.todo-count')).toContainText(/(?<![\\p{L}\\p{N}_]|\\p{N}[.,])2 items left(?![\\p{L}\\p{N}_])/u);",
            "an unquoted value is found on word boundaries (the page may write \"2 items left!\")"
        );
        assert_eq!(
            body("the footer says \"2 items left\""),
            [
                "await expect(page.locator('footer.footer')).toContainText(/(?<![\\p{L}\\p{N}_]|\\p{N}[.,])2 items left(?![\\p{L}\\p{N}_])/u);".to_owned(),
                format!(
                    "await expect(page.locator('footer.footer').getByText('2 items left', {{ exact: true }}).or({}).first()).toBeVisible();",
                    line_within_js("page.locator('footer.footer')", "2 items left")
                )
            ],
            "a container says what it holds on word boundaries, as the whole text of an element in it"
        );
        assert_eq!(
            body("type \"feed the cat\" into the new todo field and press Enter"),
            [
                "const field = page.locator('input.new-todo');",
                "await field.fill('feed the cat');",
                "await field.press('Enter');"
            ]
        );
    }

    #[test]
    fn unnamed_lists_are_named_by_their_items_or_their_class() {
        assert_eq!(
            one("there are 3 todos"),
            "await expect(page.locator('ul.todo-list').getByRole('listitem')).toHaveCount(3);"
        );
        assert_eq!(
            body("the list shows \"buy milk\" and \"walk the dog\" only")[..2],
            [
                "const items = page.locator('ul.todo-list').getByRole('listitem');",
                "await expect(items).toHaveCount(2);"
            ]
        );
        assert_eq!(
            body("only \"buy milk\" is listed")[..2],
            [
                "const items = page.locator('ul.todo-list').getByRole('listitem');",
                "await expect(items).toHaveCount(1);"
            ]
        );
        assert_eq!(
            body("the todo list is exactly \"buy milk\", \"walk the dog\"")[1],
            "await expect(items).toHaveCount(2);"
        );
        assert_eq!(
            body("\"walk the dog\" appears in the todo list").len(),
            3,
            "no count: the list holds more"
        );
    }

    #[test]
    fn ordinals_pick_items_of_the_list() {
        assert_eq!(
            one("the second todo is not completed"),
            "await expect(page.locator('ul.todo-list').getByRole('listitem').nth(1).getByRole('checkbox')).not.toBeChecked();"
        );
        assert_eq!(
            one("check the first todo"),
            "await page.locator('ul.todo-list').getByRole('listitem').first().getByRole('checkbox').check();"
        );
        assert_eq!(
            one("the last todo is \"water the plants\""),
            "await expect(page.locator('ul.todo-list').getByRole('listitem').last()).toHaveText('water the plants');"
        );
        declined("the ninth todo is completed");
    }

    #[test]
    fn every_item_checks_the_count_first() {
        assert_eq!(
            body("all 3 todos are completed"),
            [
                "const items = page.locator('ul.todo-list').getByRole('listitem');",
                "await expect(items).toHaveCount(3);",
                "for (const item of await items.all()) {",
                "await expect(item.getByRole('checkbox')).toBeChecked();",
                "}"
            ]
        );
        assert_eq!(
            body("none of the todos is completed")[1..4],
            [
                "await expect(items).not.toHaveCount(0);",
                "for (const item of await items.all()) {",
                "await expect(item.getByRole('checkbox')).not.toBeChecked();"
            ]
        );
    }

    #[test]
    fn a_delete_button_shown_on_hover_is_hovered_then_clicked() {
        assert_eq!(
            body("delete \"walk the dog\""),
            [
                "const item = page.getByRole('listitem').filter({ has: page.getByText('walk the dog', { exact: true }) });",
                "await item.hover();",
                "await item.locator('button.destroy').click();",
                "await expect(item).toHaveCount(0);"
            ]
        );
    }

    #[test]
    fn an_edit_double_clicks_the_text_and_fills_the_rows_field() {
        assert_eq!(
            body("edit \"walk the dog\" to \"walk the cat\""),
            [
                "const item = page.getByRole('listitem').filter({ has: page.getByText('walk the dog', { exact: true }) });",
                "await item.getByText('walk the dog', { exact: true }).dblclick();",
                "const field = page.getByRole('listitem').getByRole('textbox');",
                "await field.fill('walk the cat');",
                "await field.press('Enter');"
            ]
        );
    }

    #[test]
    fn negations_and_views() {
        assert_eq!(
            one("the page does not show \"buy bread\""),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])buy bread(?![\\p{L}\\p{N}_])/u)).toBeHidden();"
        );
        assert_eq!(
            one("\"buy bread\" is not in the list"),
            one("the page does not show \"buy bread\"")
        );
        assert_eq!(
            one("go to Completed"),
            "await page.getByRole('link', { name: 'Completed' }).click();"
        );
        assert_eq!(
            one("switch to the Active view"),
            "await page.getByRole('link', { name: 'Active' }).click();"
        );
        assert_eq!(
            one("the new todo field has the placeholder \"What needs to be done?\""),
            "await expect(page.locator('input.new-todo')).toHaveAttribute('placeholder', 'What needs to be done?');"
        );
    }

    #[test]
    fn phrasings_of_todo_suites() {
        // `the list` among a todo list and a list of filter links is the todo list.
        assert_eq!(
            one("the list has 3 items"),
            "await expect(page.locator('ul.todo-list').getByRole('listitem')).toHaveCount(3);"
        );
        // The noun of the list's items, alone: the list's one item.
        assert_eq!(
            one("the todo reads \"buy milk\""),
            "await expect(page.locator('ul.todo-list').getByRole('listitem')).toHaveText(['buy milk']);"
        );
        // A noun that names no list is not read as the list's item.
        declined("the entry reads \"buy milk\"");
        // A count and its words with no verb is text the page shows, on word boundaries.
        assert_eq!(one("2 items left"), one("the page shows \"2 items left\""));
        // How a control looks is no part of its name; hyphens are spaces.
        assert_eq!(
            one("click the toggle-all arrow"),
            "await page.getByRole('checkbox', { name: '❯ Toggle All Input' }).click();"
        );
        assert_eq!(
            one("the \"Clear completed\" button disappears"),
            one("the \"Clear completed\" button is hidden")
        );
        assert_eq!(
            one("a \"Clear completed\" button should appear"),
            one("the \"Clear completed\" button is shown")
        );
        assert_eq!(
            one("the input box is cleared"),
            "await expect(page.getByRole('textbox')).toHaveValue('');"
        );
        // A delete button the row shows only on hover, named through `its`.
        assert_eq!(
            body("hover over \"walk the dog\" and click its delete button"),
            [
                "await page.getByText('walk the dog', { exact: true }).hover();",
                "{",
                "const item = page.getByRole('listitem').filter({ has: page.getByText('walk the dog', { exact: true }) });",
                "await item.hover();",
                "await item.locator('button.destroy').click();",
                "}"
            ]
        );
    }
}
