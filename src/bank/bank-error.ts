/**
 * What can go wrong on the bank's side of the core-banking port, in the bank's words. An adapter
 * throws it; the HTTP layer maps it once to the error catalogue (src/http/error-handler.ts):
 *
 * - `unavailable`: the core system cannot be reached or timed out; trying later may work (503).
 * - `missing-data`: the core system answered, but without data it must have (a transaction
 *   without an amount, an account without a currency): never an empty answer (500).
 * - `refused`: the bank will not do this for this PSU or account (blocked, closed), with a
 *   reason a TPP may read (403 SERVICE_BLOCKED).
 * - `unknown-account`: the account (or card account) named is not the bank's, or not visible to
 *   the TPP asking (404 RESOURCE_UNKNOWN).
 *
 * Any other error an adapter throws is a bug and answers a bare 500.
 */
export const BANK_ERROR_KINDS = ['unavailable', 'missing-data', 'refused', 'unknown-account'] as const;
export type BankErrorKind = (typeof BANK_ERROR_KINDS)[number];

/**
 * The mark every BankError carries, in the process-wide symbol registry. A bank's adapter throws
 * the class of its own copy of this package (installed beside the server, compiled apart, or the
 * server bundled into one file), a different class object than the server's: `instanceof` on the
 * class alone would take its refusal for a bug and answer a bare 500.
 */
const BANK_ERROR = Symbol.for('nordic-xs2a.BankError');

export class BankError extends Error {
  /** `error instanceof BankError` holds for a BankError of any copy of this module. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBankError(value);
  }

  readonly kind: BankErrorKind;
  /**
   * A failure a test bank makes on request (the sandbox's core-system fault), not one that
   * happened: answered to the TPP exactly as the real one, but logged as what was asked for,
   * not as an error an operator must look into.
   */
  readonly simulated: boolean;
  readonly [BANK_ERROR] = true;

  /**
   * `message` is shown to the TPP for `refused`, only logged otherwise: `unknown-account`'s would
   * name the account as the bank knows it, which never leaves the server (docs/design.md §4).
   */
  constructor(kind: BankErrorKind, message: string, options?: { cause?: unknown; simulated?: boolean }) {
    super(message, options);
    this.name = 'BankError';
    this.kind = kind;
    this.simulated = options?.simulated === true;
  }
}

export function isBankError(error: unknown): error is BankError {
  return (
    error instanceof Error &&
    (error as Partial<Record<typeof BANK_ERROR, unknown>>)[BANK_ERROR] === true &&
    (BANK_ERROR_KINDS as readonly unknown[]).includes((error as { kind?: unknown }).kind)
  );
}
