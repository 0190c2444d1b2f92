//! The search control panel: the `wcs.backend.search.*` and highlight records as one form.

use crate::records;
use wcs_core::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/search`.
pub static SEARCH_PANEL: ControlPanelDef = ControlPanelDef {
    id: "search",
    title: "Search",
    group: "General",
    fields: &[
        PanelField { name: "popular_searches", source: PanelSource::Record(&records::POPULAR_SEARCHES), widget: None },
        PanelField { name: "suggest", source: PanelSource::Record(&records::SUGGEST), widget: None },
        PanelField { name: "highlight", source: PanelSource::Record(&records::HIGHLIGHT), widget: None },
        PanelField {
            name: "highlight_pre_tags",
            source: PanelSource::Record(&records::HIGHLIGHT_PRE_TAGS),
            widget: None,
        },
        PanelField {
            name: "highlight_post_tags",
            source: PanelSource::Record(&records::HIGHLIGHT_POST_TAGS),
            widget: None,
        },
        PanelField {
            name: "highlight_threshold",
            source: PanelSource::Record(&records::HIGHLIGHT_THRESHOLD),
            widget: None,
        },
        PanelField { name: "regular", source: PanelSource::Record(&records::REGULAR), widget: None },
        PanelField { name: "quoted", source: PanelSource::Record(&records::QUOTED), widget: None },
        PanelField { name: "filter", source: PanelSource::Record(&records::FILTER), widget: None },
        PanelField { name: "aggregations", source: PanelSource::Record(&records::AGGREGATIONS), widget: None },
        PanelField { name: "custom_fields", source: PanelSource::Record(&records::CUSTOM_FIELDS), widget: None },
        PanelField { name: "api_domains", source: PanelSource::Record(&records::API_DOMAINS), widget: None },
        PanelField { name: "api_filter", source: PanelSource::Record(&records::API_FILTER), widget: None },
    ],
    items: None,
};
