import type { CommandName } from './usage.js';

/**
 * A command line that cannot be run as written. The CLI prints it with the usage of `commands`
 * (every command's when none is named), or alone when `brief`: a message that already says
 * exactly what to add needs no page of usage after it.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  constructor(
    message: string,
    readonly details: { readonly commands?: readonly CommandName[]; readonly brief?: boolean } = {},
  ) {
    super(message);
  }
}
