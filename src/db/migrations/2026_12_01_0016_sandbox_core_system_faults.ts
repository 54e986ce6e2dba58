import type { Kysely } from 'kysely';

/**
 * `sandbox_core_system_fault`: a mock account (or card account) whose core system answers its
 * statement and balance reads with a fault, so a TPP can see how missing data from the bank is
 * answered (docs/design.md §2b). A table of its own beside the mock data: no row, no fault.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sandbox_core_system_fault')
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('fault', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('sandbox_core_system_fault_pk', ['tpp_id', 'account_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_core_system_fault').execute();
}
