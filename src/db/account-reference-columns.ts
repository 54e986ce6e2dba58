/** An account as a payment or a statement names it: by IBAN, or by a Norwegian BBAN. */
export type StoredAccountReference = { readonly iban: string } | { readonly bban: string };

/**
 * How a table keeps an account reference: two nullable columns, `…_iban` and `…_bban`, one of
 * them set (ledger_transaction's and sandbox_transaction's counterparty).
 */
export function accountReferenceColumns(reference: StoredAccountReference | undefined): { iban: string | null; bban: string | null } {
  if (reference === undefined) return { iban: null, bban: null };
  return 'iban' in reference ? { iban: reference.iban, bban: null } : { iban: null, bban: reference.bban };
}

/** The reference {@link accountReferenceColumns} stored, or undefined when neither column is set. */
export function accountReferenceOf(iban: string | null, bban: string | null): StoredAccountReference | undefined {
  if (iban) return { iban };
  return bban ? { bban } : undefined;
}
