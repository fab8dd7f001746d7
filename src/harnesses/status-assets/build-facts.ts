/** What the build needs to make the status assets, from their one source: the marker line, the pager tools and search_sessions as JSON Schema. */
export { STATUS_MARKER } from '../../hooks/install/target.ts';
export { pagerToolSpecs } from '../../pager/tool-schemas.ts';
export { searchToolSpec } from '../../search/tool-schema.ts';
