/** Settings' tab for account overlap (`?tab=overlap`), which the notices link to. */
export const OVERLAP_SETTINGS_TAB = "overlap";
