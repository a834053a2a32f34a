-- Labeled-event rules (server/labeled, docs/labeled-events.md). A derived event names its rule
-- (rule_id, already a column) and the event it was derived from (source_uuid).
--
-- Rules match the element chain of pp.click and pp.form_submit events through columns filled as
-- the event is stored, one list entry per element of the chain (target first), so matching never
-- parses the JSON again: el_tags (lowercase tag), el_ids (id, NULL without one), el_classes (the
-- classes with a space on each side, ' btn primary ', NULL without any), el_nth (nth_child) and
-- el_attrs (every attribute as chr(30) name chr(31) value ... chr(30), id and class included;
-- chr(30) alone without any; only names of lowercase letters, digits, '_', ':' and '-' that start
-- with a letter, as every attribute the tracker captures), plus el_text, the target's text. The
-- pp_el_* macros compute them from the JSON chain; server/ingest/elementColumns.ts computes the
-- same in TypeScript at ingest. Events stored before this migration keep them NULL: the jobs and
-- previews that match in SQL compute them from the chain for such rows (server/labeled/derive.ts).
-- Filling them here would move every stored click: DuckDB updates a list column by deleting the
-- row and appending it again, which the rollup folder's rowids cannot follow.
ALTER TABLE events ADD COLUMN source_uuid UUID;
ALTER TABLE events ADD COLUMN el_tags VARCHAR[];
ALTER TABLE events ADD COLUMN el_ids VARCHAR[];
ALTER TABLE events ADD COLUMN el_classes VARCHAR[];
ALTER TABLE events ADD COLUMN el_nth INTEGER[];
ALTER TABLE events ADD COLUMN el_attrs VARCHAR[];
ALTER TABLE events ADD COLUMN el_text VARCHAR;

-- The chain's elements, or NULL when `elements` is not a JSON array.
CREATE MACRO pp_el_chain(elements) AS CASE WHEN json_type(elements) = 'ARRAY' THEN CAST(elements AS JSON[]) END;
-- A string member of an element, NULL when absent or of another type.
CREATE MACRO pp_el_string(x, key) AS CASE WHEN json_type(json_extract(x, key)) = 'VARCHAR' THEN json_extract_string(x, key) END;
-- Separators cannot appear inside an encoded name or value.
CREATE MACRO pp_el_clean(s) AS replace(replace(s, chr(30), ' '), chr(31), ' ');
-- The element's string classes, empty ones left out.
CREATE MACRO pp_el_class_list(x) AS CASE WHEN json_type(json_extract(x, 'classes')) = 'ARRAY'
  THEN list_transform(list_filter(CAST(json_extract(x, 'classes') AS JSON[]), lambda c: json_type(c) = 'VARCHAR' AND json_extract_string(c, '$') <> ''), lambda c: json_extract_string(c, '$')) END;

CREATE MACRO pp_el_tags(elements) AS list_transform(pp_el_chain(elements), lambda x: lower(pp_el_string(x, 'tag')));
CREATE MACRO pp_el_ids(elements) AS list_transform(pp_el_chain(elements), lambda x: nullif(pp_el_string(x, 'id'), ''));
CREATE MACRO pp_el_classes(elements) AS list_transform(pp_el_chain(elements),
  lambda x: CASE WHEN len(pp_el_class_list(x)) > 0 THEN ' ' || array_to_string(pp_el_class_list(x), ' ') || ' ' END);
CREATE MACRO pp_el_nth(elements) AS list_transform(pp_el_chain(elements),
  lambda x: CASE WHEN json_type(json_extract(x, 'nth_child')) IN ('UBIGINT', 'BIGINT') THEN TRY_CAST(json_extract_string(x, 'nth_child') AS INTEGER) END);
CREATE MACRO pp_el_attrs(elements) AS list_transform(pp_el_chain(elements), lambda x: chr(30)
  || CASE WHEN nullif(pp_el_string(x, 'id'), '') IS NOT NULL THEN 'id' || chr(31) || pp_el_clean(json_extract_string(x, 'id')) || chr(30) ELSE '' END
  || CASE WHEN len(pp_el_class_list(x)) > 0 THEN 'class' || chr(31) || pp_el_clean(array_to_string(pp_el_class_list(x), ' ')) || chr(30) ELSE '' END
  || CASE WHEN json_type(json_extract(x, 'attributes')) = 'OBJECT' THEN array_to_string(list_transform(
       list_filter(map_entries(CAST(json_extract(x, 'attributes') AS MAP(VARCHAR, JSON))),
         lambda a: regexp_full_match(a.key, '[a-z][a-z0-9_:-]*') AND json_type(a.value) = 'VARCHAR'),
       lambda a: a.key || chr(31) || pp_el_clean(json_extract_string(a.value, '$')) || chr(30)), '') ELSE '' END);
CREATE MACRO pp_el_text(elements) AS CASE WHEN json_type(elements) = 'ARRAY' THEN pp_el_string(json_extract(elements, '$[0]'), 'text') END;
