//! The kinds of element a sentence's nouns name (`button`, `field`, `counter`, ...) and the ARIA
//! roles each may have.
//!
//! Main type: [`Kind`]; the nouns are [`KINDS`].

/// The kind of element a noun of the sentence names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Button,
    Link,
    Tab,
    Checkbox,
    Radio,
    Field,
    Dropdown,
    Heading,
    MenuItem,
    Option,
    Switch,
    Image,
    List,
    Status,
    Dialog,
    Row,
    Filter,
    Item,
}

impl Kind {
    /// The ARIA roles an element of this kind may have.
    pub(crate) fn roles(self) -> &'static [&'static str] {
        match self {
            Kind::Button => &["button"],
            Kind::Link => &["link"],
            Kind::Tab => &["tab"],
            Kind::Checkbox => &["checkbox"],
            Kind::Radio => &["radio"],
            Kind::Field => FIELD_ROLES,
            Kind::Dropdown => &["combobox", "listbox"],
            Kind::Heading => &["heading"],
            Kind::MenuItem => &["menuitem", "menuitemcheckbox", "menuitemradio"],
            Kind::Option => &["option"],
            Kind::Switch => &["switch", "checkbox"],
            Kind::Image => &["img"],
            Kind::List => &["list"],
            Kind::Status => &["status", "alert"],
            Kind::Dialog => &["dialog", "alertdialog"],
            Kind::Row => &["row"],
            Kind::Filter => &["link", "button", "tab", "radio"],
            Kind::Item => &["listitem"],
        }
    }
}

pub(crate) const FIELD_ROLES: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton"];

/// The nouns of each kind, singular and plural.
pub(crate) const KINDS: &[(&[&str], Kind)] = &[
    (&["radio", "button"], Kind::Radio),
    (&["radio", "buttons"], Kind::Radio),
    (&["check", "box"], Kind::Checkbox),
    (&["check", "boxes"], Kind::Checkbox),
    (&["text", "box"], Kind::Field),
    (&["text", "field"], Kind::Field),
    (&["search", "box"], Kind::Field),
    (&["input", "field"], Kind::Field),
    (&["input", "box"], Kind::Field),
    (&["combo", "box"], Kind::Dropdown),
    (&["menu", "item"], Kind::MenuItem),
    (&["menu", "items"], Kind::MenuItem),
    (&["button"], Kind::Button),
    (&["buttons"], Kind::Button),
    (&["link"], Kind::Link),
    (&["links"], Kind::Link),
    (&["tab"], Kind::Tab),
    (&["tabs"], Kind::Tab),
    (&["checkbox"], Kind::Checkbox),
    (&["checkboxes"], Kind::Checkbox),
    (&["radio"], Kind::Radio),
    (&["field"], Kind::Field),
    (&["fields"], Kind::Field),
    (&["input"], Kind::Field),
    (&["inputs"], Kind::Field),
    (&["textbox"], Kind::Field),
    (&["searchbox"], Kind::Field),
    (&["box"], Kind::Field),
    (&["dropdown"], Kind::Dropdown),
    (&["drop-down"], Kind::Dropdown),
    (&["select"], Kind::Dropdown),
    (&["combobox"], Kind::Dropdown),
    (&["heading"], Kind::Heading),
    (&["headings"], Kind::Heading),
    (&["option"], Kind::Option),
    (&["options"], Kind::Option),
    (&["switch"], Kind::Switch),
    (&["toggle"], Kind::Switch),
    (&["image"], Kind::Image),
    (&["images"], Kind::Image),
    (&["picture"], Kind::Image),
    (&["list"], Kind::List),
    (&["counter"], Kind::Status),
    (&["status"], Kind::Status),
    (&["message"], Kind::Status),
    (&["notification"], Kind::Status),
    (&["alert"], Kind::Status),
    (&["dialog"], Kind::Dialog),
    (&["modal"], Kind::Dialog),
    (&["row"], Kind::Row),
    (&["rows"], Kind::Row),
    (&["filter"], Kind::Filter),
    (&["view"], Kind::Filter),
    (&["filters"], Kind::Filter),
    (&["item"], Kind::Item),
    (&["items"], Kind::Item),
    (&["todos"], Kind::Item),
    (&["entries"], Kind::Item),
];
