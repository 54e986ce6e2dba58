/** A command line that cannot be run as written; the CLI prints it with the usage text. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
