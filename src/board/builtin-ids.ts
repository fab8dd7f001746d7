/** The builtin pack unassigned sessions show until the operator picks another (pure: the web app imports it). */
export const DEFAULT_ACTIVE_PACK = 'critters';
