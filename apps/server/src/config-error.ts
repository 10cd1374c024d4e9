/** A configuration problem that stops the start. Its message names the variable or file. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
