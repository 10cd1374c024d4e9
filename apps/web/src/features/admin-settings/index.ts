export { adminSettingsKeys } from "./api/settings";
export { AdminApiKeysPage } from "./components/api-keys-page";
export { AdminSettingsPage } from "./components/settings-page";
