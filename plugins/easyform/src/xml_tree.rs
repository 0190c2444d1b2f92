//! A small element tree read with quick-xml: enough of XML for zope.schema models (elements,
//! attributes by local name, text, CDATA, predefined and character entities), bounded in depth.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// How deep the XML may nest.
const MAX_DEPTH: usize = 16;

/// A parsed XML element: local name, attributes by local name, text and children.
#[derive(Default)]
pub struct Node {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Node>,
}

impl Node {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.trim())
    }
}

/// Reads the document into a tree, bounded in depth.
pub fn parse_tree(xml: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Node> = vec![Node::default()];
    loop {
        match reader.read_event().map_err(|e| format!("The model is not well-formed XML: {e}"))? {
            Event::Start(start) => {
                if stack.len() > MAX_DEPTH {
                    return Err("The model nests too deeply.".into());
                }
                stack.push(element(&start)?);
            }
            Event::Empty(start) => {
                let node = element(&start)?;
                stack.last_mut().ok_or("unbalanced XML")?.children.push(node);
            }
            Event::End(_) => {
                let node = stack.pop().ok_or("unbalanced XML")?;
                stack.last_mut().ok_or("The model is not well-formed XML.")?.children.push(node);
            }
            Event::Text(text) => {
                let text = text.decode().map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                let text =
                    quick_xml::escape::unescape(&text).map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&text);
            }
            Event::CData(data) => {
                let text = String::from_utf8_lossy(&data).into_owned();
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&text);
            }
            Event::GeneralRef(reference) => {
                let name = reference.decode().map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                let resolved = quick_xml::escape::resolve_predefined_entity(&name)
                    .map(str::to_owned)
                    .or_else(|| reference.resolve_char_ref().ok().flatten().map(String::from))
                    .ok_or_else(|| format!("The model uses an unknown entity '&{name};'."))?;
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&resolved);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut document = stack.pop().filter(|_| stack.is_empty()).ok_or("The model is not well-formed XML.")?;
    document
        .children
        .pop()
        .filter(|_| document.children.is_empty())
        .ok_or_else(|| "The model must have one root element.".into())
}

fn element(start: &BytesStart<'_>) -> Result<Node, String> {
    let local = |name: &[u8]| String::from_utf8_lossy(name.rsplit(|b| *b == b':').next().unwrap_or(name)).into_owned();
    let mut node = Node { name: local(start.name().as_ref()), ..Node::default() };
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| format!("The model is not well-formed XML: {e}"))?;
        let value =
            attribute.unescape_value().map_err(|e| format!("The model is not well-formed XML: {e}"))?.into_owned();
        node.attributes.push((local(attribute.key.as_ref()), value));
    }
    Ok(node)
}
