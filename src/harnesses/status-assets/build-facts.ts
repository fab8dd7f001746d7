/** What the build needs to make the status assets, from their one source: the marker line and the pager tools as JSON Schema. */
export { STATUS_MARKER } from '../../hooks/install/target.ts';
export { pagerToolSpecs } from '../../pager/tool-schemas.ts';
