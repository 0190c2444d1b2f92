//! HTML pages for browsers, rendered with tera from the templates shipped in `templates/`.

use tera::{Context, Tera};

/// The compiled templates; HTML ones are autoescaped.
pub struct Templates {
    tera: Tera,
}

const TEMPLATES: [(&str, &str); 3] = [
    ("layout.html", include_str!("../../templates/layout.html")),
    ("content.html", include_str!("../../templates/content.html")),
    ("login.html", include_str!("../../templates/login.html")),
];

impl Templates {
    /// Compiles core's templates and those plugins registered.
    pub fn load(plugin_templates: &[(&'static str, &'static str)]) -> Result<Templates, String> {
        let mut tera = Tera::new();
        tera.add_raw_templates(TEMPLATES.iter().chain(plugin_templates).copied()).map_err(|e| e.to_string())?;
        Ok(Templates { tera })
    }

    /// Renders a template with a JSON-serializable context.
    pub fn render(&self, name: &str, context: &serde_json::Value) -> Result<String, String> {
        let context = Context::from_serialize(context).map_err(|e| e.to_string())?;
        self.tera.render(name, &context).map_err(|e| e.to_string())
    }
}
