/** A backup or restore that cannot go on, with a message written for the operator. */
export class BackupError extends Error {
  override name = "BackupError";
}
