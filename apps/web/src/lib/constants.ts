/** Constants of the user-side spec (section 9) used by the web app. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const UPLOAD_TIMEOUT_MS = 60_000;
/** A loading indicator appears only when loading takes longer than this. */
export const LOADING_INDICATOR_DELAY_MS = 100;
export const COPYRIGHT_YEAR = 2025;
export const SETTINGS_ERROR_MESSAGE = "Failed to load settings. Using defaults.";
