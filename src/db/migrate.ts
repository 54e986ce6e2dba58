import { Migrator, PostgresAdapter, sql, type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './create-db.js';
import { schemaIntrospector, withIntrospector } from './schema-introspector.js';
import * as foundation from './migrations/2026_11_20_0001_foundation.js';
import * as ledger from './migrations/2026_11_20_0002_ledger.js';
import * as sandboxBank from './migrations/2026_11_21_0003_sandbox_bank.js';
import * as payments from './migrations/2026_11_22_0004_payments.js';
import * as authorisations from './migrations/2026_11_23_0005_authorisations.js';
import * as signingBaskets from './migrations/2026_11_24_0006_signing_baskets.js';
import * as ledgerBalances from './migrations/2026_11_25_0007_ledger_balances.js';
import * as execution from './migrations/2026_11_26_0008_execution.js';
import * as requestRecords from './migrations/2026_11_27_0009_request_records.js';
import * as scaBrowserSessions from './migrations/2026_11_28_0010_sca_browser_sessions.js';
import * as psuCodeAttempts from './migrations/2026_11_28_0011_psu_code_attempts.js';
import * as paymentSubmissions from './migrations/2026_11_29_0012_payment_submissions.js';
import * as paymentBodyVersion from './migrations/2026_11_29_0013_payment_body_version.js';
import * as accountInformation from './migrations/2026_11_30_0014_account_information.js';
import * as unattendedReads from './migrations/2026_12_01_0015_unattended_reads.js';
import * as sandboxCoreSystemFaults from './migrations/2026_12_01_0016_sandbox_core_system_faults.js';
import * as sandboxAccountInformation from './migrations/2026_12_01_0017_sandbox_account_information.js';
import * as consentSecondApprover from './migrations/2026_12_02_0018_consent_second_approver.js';
import * as sandboxInstantPaymentFees from './migrations/2026_12_02_0019_sandbox_instant_payment_fees.js';
import * as statusNotifications from './migrations/2026_12_02_0020_status_notifications.js';
import * as psuOverviewSessions from './migrations/2026_12_02_0021_psu_overview_sessions.js';
import * as psuPageLinks from './migrations/2026_12_03_0022_psu_page_links.js';
import * as statementOrder from './migrations/2026_12_03_0023_statement_order.js';
import * as statementCounts from './migrations/2026_12_04_0024_statement_counts.js';
import * as postingDetails from './migrations/2026_12_05_0025_posting_details.js';
import * as serverSecrets from './migrations/2026_12_06_0026_server_secrets.js';
import * as ledgerDayTotals from './migrations/2026_12_07_0027_ledger_day_totals.js';

/**
 * The versioned migrations, in order. Listed here (not read from a folder) so they work the same
 * from TypeScript sources and from the compiled `dist/`.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_20_0001_foundation': foundation,
  '2026_11_20_0002_ledger': ledger,
  '2026_11_21_0003_sandbox_bank': sandboxBank,
  '2026_11_22_0004_payments': payments,
  '2026_11_23_0005_authorisations': authorisations,
  '2026_11_24_0006_signing_baskets': signingBaskets,
  '2026_11_25_0007_ledger_balances': ledgerBalances,
  '2026_11_26_0008_execution': execution,
  '2026_11_27_0009_request_records': requestRecords,
  '2026_11_28_0010_sca_browser_sessions': scaBrowserSessions,
  '2026_11_28_0011_psu_code_attempts': psuCodeAttempts,
  '2026_11_29_0012_payment_submissions': paymentSubmissions,
  '2026_11_29_0013_payment_body_version': paymentBodyVersion,
  '2026_11_30_0014_account_information': accountInformation,
  '2026_12_01_0015_unattended_reads': unattendedReads,
  '2026_12_01_0016_sandbox_core_system_faults': sandboxCoreSystemFaults,
  '2026_12_01_0017_sandbox_account_information': sandboxAccountInformation,
  '2026_12_02_0018_consent_second_approver': consentSecondApprover,
  '2026_12_02_0019_sandbox_instant_payment_fees': sandboxInstantPaymentFees,
  '2026_12_02_0020_status_notifications': statusNotifications,
  '2026_12_02_0021_psu_overview_sessions': psuOverviewSessions,
  '2026_12_03_0022_psu_page_links': psuPageLinks,
  '2026_12_03_0023_statement_order': statementOrder,
  '2026_12_04_0024_statement_counts': statementCounts,
  '2026_12_05_0025_posting_details': postingDetails,
  '2026_12_06_0026_server_secrets': serverSecrets,
  '2026_12_07_0027_ledger_day_totals': ledgerDayTotals,
};

/** The versions, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

/**
 * Applies every pending migration. On PostgreSQL Kysely's lock serialises concurrent starts; on
 * SQLite two processes migrating one new file at once can collide (`serve --workers N` migrates
 * once, before it forks).
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

/**
 * Applies the pending migrations up to and including `name` (a name of MIGRATION_NAMES): a
 * database as an older server left it, for tests that write rows the way that server did.
 */
export async function migrateTo(db: Db, name: string): Promise<MigrationResultSet> {
  if (!MIGRATION_NAMES.includes(name)) throw new Error(`no migration named ${name}`);
  return migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Db, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  // On PostgreSQL the bookkeeping tables live in the connection's own schema: without saying so,
  // Kysely finds another schema's tables in the same database and skips creating its own. Its
  // look at the catalogue is kept to that schema too (schema-introspector.ts).
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: schema ? withIntrospector(db, schemaIntrospector(db, schema)) : db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await run(migrator);
  if (result.error) {
    throw result.error instanceof Error ? result.error : new Error(`migration failed: ${JSON.stringify(result.error)}`);
  }
  return result;
}
