// How a click's or form submit's element chain is stored for rules to match (the element columns,
// migrations/duckdb/0028): the ingest writer encodes it, engines' rule conditions read it.

/** Separators of the attribute encoding (`el_attrs`): before each name and after each value, and between them. */
export const ATTR_END = '\x1e';
export const ATTR_VALUE = '\x1f';

/** The columns, in the table's order. */
export const ELEMENT_COLUMNS = ['el_tags', 'el_ids', 'el_classes', 'el_nth', 'el_attrs', 'el_text'] as const;
