//! What the Content Rules panel answers, for the OpenAPI document.

use poem_openapi::registry::{MetaSchema, Registry};
use wcs_core::http::Shape;
use wcs_core::http::schema::{any_object, array_of, boolean, object, string};

/// The panel: its rules.
pub struct RulesPanelShape;

impl Shape for RulesPanelShape {
    const NAME: &'static str = "ContentRulesPanel";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "The Content Rules panel: its rules as one list inside `items` (plone.restapi's nesting), each with \
             @id, id, title, description, trigger, enabled, assigned and row_class",
            vec![
                ("@id", string()),
                ("title", string()),
                ("group", string()),
                ("items", array_of(array_of(any_object()))),
            ],
            &["@id", "title", "group", "items"],
        )
    }
}

/// One rule.
pub struct RuleShape;

impl Shape for RuleShape {
    const NAME: &'static str = "ContentRule";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A content rule: its settings, its conditions and actions (title, summary, idx), the kinds of each that \
             may be added (with their forms), and the objects it is assigned to",
            vec![
                ("@id", string()),
                ("id", string()),
                ("title", string()),
                ("description", string()),
                ("event", string()),
                ("enabled", boolean()),
                ("stop", boolean()),
                ("cascading", boolean()),
                ("group", string()),
                ("conditions", array_of(any_object())),
                ("actions", array_of(any_object())),
                ("addable_conditions", array_of(any_object())),
                ("addable_actions", array_of(any_object())),
                ("assignments", array_of(any_object())),
            ],
            &["@id", "id", "title", "event", "conditions", "actions"],
        )
    }
}

/// One condition or action: its values, with its form.
pub struct RuleElementShape;

impl Shape for RuleElementShape {
    const NAME: &'static str = "ContentRuleElement";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A condition or an action of a rule: its form's values by field name (write-only ones left out), its \
             @id and its form as @schema",
            vec![("@id", string()), ("@schema", any_object())],
            &["@id", "@schema"],
        )
    }
}

/// A new rule, or a rule's changed settings.
pub struct RuleInputShape;

impl Shape for RuleInputShape {
    const NAME: &'static str = "ContentRuleInput";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A rule's settings: `event` is a trigger's title or token (`plone.contentrules.events`); PATCH changes \
             the keys it names, and `form.button.ApplyOnWholeSite` assigns the rule to the whole site",
            vec![
                ("title", string()),
                ("description", string()),
                ("event", string()),
                ("enabled", boolean()),
                ("stop", boolean()),
                ("cascading", boolean()),
            ],
            &[],
        )
    }
}

/// A new condition or action, or changed values of one.
pub struct RuleElementInputShape;

impl Shape for RuleElementInputShape {
    const NAME: &'static str = "ContentRuleElementInput";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A condition's or action's values by field name; to add one, `type` names its kind (an add view such as \
             plone.actions.Mail); to move one, `form.button.Move` is `_move_up` or `_move_down`",
            vec![("type", string()), ("form.button.Move", string())],
            &[],
        )
    }
}
