//! Which element of the current side stands for which element of the version, so removed
//! words are shown in the place they had: in their own list item or table cell, not drifted
//! into a neighbour.
//!
//! Equal words map their containers from the top down while the names agree; then, under
//! every mapped pair, children that no word mapped are paired in order by name (a cell whose
//! whole text was replaced still maps to the cell at its place).

use super::align::Step;
use super::document::{Document, ElementId};

/// `map[old element] = Some(current element)`.
pub(super) type ElementMap = Vec<Option<ElementId>>;

/// The ancestors of `element` (itself included), outermost first.
fn chain(doc: &Document, element: Option<ElementId>, into: &mut Vec<ElementId>) {
    into.clear();
    let mut at = element;
    while let Some(e) = at {
        into.push(e);
        at = doc.elements[e].parent;
    }
    into.reverse();
}

/// Maps the version's elements onto the current ones.
pub(super) fn map_elements(
    old: &Document,
    new: &Document,
    old_compared: &[usize],
    new_compared: &[usize],
    steps: &[Step],
) -> ElementMap {
    let mut map: ElementMap = vec![None; old.elements.len()];
    let mut taken = vec![false; new.elements.len()];
    let (mut old_chain, mut new_chain) = (Vec::new(), Vec::new());
    for step in steps {
        let Step::Equal(o, n) = *step else { continue };
        let (Some(old_atom), Some(new_atom)) =
            (old_compared.get(o).and_then(|i| old.atoms.get(*i)), new_compared.get(n).and_then(|i| new.atoms.get(*i)))
        else {
            continue;
        };
        if old_atom.element.is_some_and(|e| map[e].is_some()) {
            continue;
        }
        chain(old, old_atom.element, &mut old_chain);
        chain(new, new_atom.element, &mut new_chain);
        for (a, b) in old_chain.iter().zip(&new_chain) {
            if old.elements[*a].name != new.elements[*b].name {
                break;
            }
            match map[*a] {
                Some(mapped) if mapped != *b => break,
                Some(_) => {}
                None => {
                    map[*a] = Some(*b);
                    taken[*b] = true;
                }
            }
        }
    }
    pair_unmapped_children(old, new, &mut map, &mut taken);
    map
}

/// Pairs, under each mapped pair (and at the top level), the children no word mapped, in
/// order and by name; repeats for the children so paired.
fn pair_unmapped_children(old: &Document, new: &Document, map: &mut ElementMap, taken: &mut [bool]) {
    let top_old: Vec<ElementId> = (0..old.elements.len()).filter(|e| old.elements[*e].parent.is_none()).collect();
    let top_new: Vec<ElementId> = (0..new.elements.len()).filter(|e| new.elements[*e].parent.is_none()).collect();
    let mut work: Vec<(Vec<ElementId>, Vec<ElementId>)> = vec![(top_old, top_new)];
    let mut seen = vec![false; old.elements.len()];
    while let Some((old_children, new_children)) = work.pop() {
        let mut from = 0;
        for a in old_children {
            if seen[a] {
                continue;
            }
            seen[a] = true;
            if map[a].is_none() {
                let name = old.elements[a].name;
                if let Some(offset) =
                    new_children[from..].iter().position(|b| !taken[*b] && new.elements[*b].name == name)
                {
                    let b = new_children[from + offset];
                    map[a] = Some(b);
                    taken[b] = true;
                    from += offset + 1;
                }
            } else if let Some(b) = map[a]
                && let Some(at) = new_children[from..].iter().position(|c| *c == b)
            {
                from += at + 1;
            }
            if let Some(b) = map[a] {
                work.push((old.elements[a].children.clone(), new.elements[b].children.clone()));
            }
        }
    }
}
