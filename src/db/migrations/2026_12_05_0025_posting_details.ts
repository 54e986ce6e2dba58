import { sql, type Kysely } from 'kysely';

/** The columns this migration adds to ledger_transaction, in the order of the backfill below. */
const DETAILS = ['counterparty_name', 'counterparty_iban', 'counterparty_bban', 'remittance_unstructured', 'remittance_reference'];

/**
 * What a statement line shows beside its amount, kept with the posting: the other party's name
 * and account, and the payment's message (free text, or a structured reference such as a KID).
 * A page of 200 sandbox transactions looked each of them up in sandbox_transaction again: about
 * a quarter of the page's CPU. The postings of mock transactions already recorded take their
 * details from there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of DETAILS) {
    await db.schema.alterTable('ledger_transaction').addColumn(column, 'text').execute();
  }
  // substr(…, 21): the mock transaction's id after its key's prefix `sandbox:transaction:`.
  await sql`
    update ledger_transaction
    set (counterparty_name, counterparty_iban, counterparty_bban, remittance_unstructured, remittance_reference) = (
      select s.counterparty_name, s.counterparty_iban, s.counterparty_bban, s.remittance_unstructured, s.remittance_reference
      from sandbox_transaction s
      where s.id = substr(ledger_transaction.idempotency_key, 21)
    )
    where idempotency_key like 'sandbox:transaction:%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of DETAILS) {
    await db.schema.alterTable('ledger_transaction').dropColumn(column).execute();
  }
}
