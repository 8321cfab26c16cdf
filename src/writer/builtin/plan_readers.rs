//! The ordered list of plan-step readers (`plan_steps.rs`, `edit_mode.rs`) and the one walk
//! over it, apart from the readers so that the readers' files can share their helpers without
//! importing each other.
//!
//! Main function: [`read_plan_step`]; [`PLAN_READERS`] is the ordered list of readers.

use crate::script::PageState;
use crate::writer::builtin::discourse::Discourse;
use crate::writer::builtin::edit_mode;
use crate::writer::builtin::field_reference::the_field_just_used;
use crate::writer::builtin::plan_counts;
use crate::writer::builtin::plan_states;
use crate::writer::builtin::plan_steps::{
    Reading, Said, add_and_mark, app_loads, click_checkbox_to, each_named_action, each_named_check,
    empty_list, gone, in_the_footer, press_to_submit, references, reload, the_checkbox,
    url_fragment,
};
use crate::writer::builtin::plan_typing;
use crate::writer::builtin::plan_unnamed;
use crate::writer::builtin::tokens::{normalize, tokenize};

/// One reader of plan steps: its name and what it makes of a sentence.
pub(crate) struct PlanReader {
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the name says which reader a row is; tests list them"
        )
    )]
    pub(crate) name: &'static str,
    pub(crate) read: fn(&Said) -> Reading,
}

/// The readers in the order they are tried; the first that reads the sentence wins.
pub(crate) const PLAN_READERS: &[PlanReader] = &[
    PlanReader {
        name: "reload the page",
        read: reload,
    },
    PlanReader {
        name: "the field shows 'x' / is valid / change it to 'x'",
        read: the_field_just_used,
    },
    PlanReader {
        name: "the application loads",
        read: app_loads,
    },
    PlanReader {
        name: "the list is empty",
        read: empty_list,
    },
    PlanReader {
        name: "the URL changes to #fragment",
        read: url_fragment,
    },
    PlanReader {
        name: "the 'x' button appears in the footer",
        read: in_the_footer,
    },
    PlanReader {
        name: "the checkbox is checked",
        read: the_checkbox,
    },
    PlanReader {
        name: "the 'x' filter link is highlighted",
        read: plan_states::highlighted,
    },
    PlanReader {
        name: "one completed and two active",
        read: plan_counts::counted_states,
    },
    PlanReader {
        name: "only active todos are visible",
        read: plan_counts::only_in_state,
    },
    PlanReader {
        name: "the first todo is marked as complete",
        read: plan_states::position_state,
    },
    PlanReader {
        name: "click the 'x' checkbox",
        read: plan_states::click_named_control,
    },
    PlanReader {
        name: "click the checkbox to uncomplete it",
        read: click_checkbox_to,
    },
    PlanReader {
        name: "press Enter to submit the todo",
        read: press_to_submit,
    },
    PlanReader {
        name: "add three todos and mark one as complete",
        read: plan_unnamed::add_unnamed,
    },
    PlanReader {
        name: "add 'a' and mark it as complete",
        read: add_and_mark,
    },
    PlanReader {
        name: "mark 'a' and 'b' as complete",
        read: each_named_action,
    },
    PlanReader {
        name: "'a' and 'b' remain visible",
        read: each_named_check,
    },
    PlanReader {
        name: "'a' is removed from the list",
        read: gone,
    },
    PlanReader {
        name: "type 'x' and press Enter",
        read: plan_typing::type_and_press,
    },
    PlanReader {
        name: "double-click to edit and change text to 'x'",
        read: plan_typing::edit_and_change,
    },
    PlanReader {
        name: "the edit textbox shows the text with spaces",
        read: plan_typing::editor_shows,
    },
    PlanReader {
        name: "press Enter to save",
        read: plan_typing::press_to_save,
    },
    PlanReader {
        name: "the todo is saved as 'x' without leading or trailing whitespace",
        read: plan_typing::kept_as,
    },
    PlanReader {
        name: "double-click the todo to enter edit mode",
        read: edit_mode::to_edit,
    },
    PlanReader {
        name: "the todo enters edit mode",
        read: edit_mode::in_edit_mode,
    },
    PlanReader {
        name: "change the text to 'x' and press Enter",
        read: edit_mode::change_text,
    },
    PlanReader {
        name: "the todo is updated to 'x'",
        read: edit_mode::updated,
    },
    PlanReader {
        name: "the changes are saved",
        read: edit_mode::changes_saved,
    },
    PlanReader {
        name: "click the checkbox next to the todo",
        read: references,
    },
];

/// What `sentence` means as a plan step in a test with `discourse`, on the page of `state`;
/// `None` when no reader reads it.
pub(crate) fn read_plan_step(
    discourse: &Discourse,
    sentence: &str,
    columns: &[String],
    state: &PageState,
) -> Reading {
    let raw = tokenize(sentence, columns);
    let said = Said {
        toks: normalize(raw.clone()),
        raw,
        discourse,
        state,
    };
    PLAN_READERS.iter().find_map(|reader| (reader.read)(&said))
}

/// What the plan readers make of `sentence` as text, for their unit tests: each part's text, a
/// decline's text after `DECLINE: `, or `NONE` when no reader reads it.
#[cfg(test)]
pub(crate) fn read_as_text(
    discourse: &Discourse,
    sentence: &str,
    state: &PageState,
) -> Vec<String> {
    match read_plan_step(discourse, sentence, &[], state) {
        Some(Ok(parts)) => crate::writer::builtin::discourse::texts(parts),
        Some(Err(decline)) => vec![format!("DECLINE: {}", decline.0)],
        None => vec!["NONE".to_owned()],
    }
}
