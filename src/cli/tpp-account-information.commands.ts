import { TppClient } from '../client/tpp-client.js';
import type { ConsentBody } from '../client/wire-types.js';
import { TransactionPageError, type ReportedTransaction } from '../client/transaction-pages.js';
import { loadConfig } from '../config/load-config.js';
import { credentialsIn, httpUrl, parseCommandArgs } from './command-line.js';
import { reportErrorAnswer } from './error-answer.js';
import { UsageError } from './usage-error.js';
import type { CommandName } from './usage.js';

/** How many days a consent made by `tpp consent` lasts unless --valid-until says otherwise. */
const DEFAULT_VALIDITY_DAYS = 90;

/**
 * `nordic-xs2a tpp consent --psu-id ID [--bban B]... [--all-accounts] [--valid-until DATE]
 * [--frequency N] [--redirect-uri URI]`: asks for an account information consent and prints its
 * id and the link to send the PSU to. Named accounts get details, balances and transactions; with
 * none named the PSU picks them on the bank's page (a bank-offered consent); --all-accounts asks
 * for every account the PSU may share.
 */
export async function tppConsentCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs('tpp consent', args, {
    options: {
      'psu-id': { type: 'string' },
      bban: { type: 'string', multiple: true, default: [] },
      'all-accounts': { type: 'boolean', default: false },
      'valid-until': { type: 'string' },
      frequency: { type: 'string', default: '4' },
      'redirect-uri': { type: 'string' },
      tpp: { type: 'string', default: './tpp' },
      server: { type: 'string' },
    },
  });
  if (values['psu-id'] === undefined) {
    throw new UsageError('tpp consent needs --psu-id: the PSU who approves the consent', { commands: ['tpp consent'], brief: true });
  }
  if (values['all-accounts'] && values.bban.length > 0) {
    throw new UsageError('tpp consent takes --bban or --all-accounts, not both', { commands: ['tpp consent'] });
  }
  const accounts = values.bban.map((bban) => ({ bban }));
  const access: ConsentBody['access'] = values['all-accounts']
    ? { allPsd2: 'allAccounts' }
    : { accounts, balances: accounts, transactions: accounts };
  const validUntil = values['valid-until'] ?? new Date(Date.now() + DEFAULT_VALIDITY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const client = clientOf('tpp consent', values.tpp, values.server);
  const headers: Record<string, string> = { 'PSU-ID': values['psu-id'] };
  if (values['redirect-uri'] !== undefined) headers['TPP-Redirect-URI'] = values['redirect-uri'];
  const created = await client.createConsent(
    { access, recurringIndicator: true, validUntil, frequencyPerDay: Number(values.frequency), combinedServiceIndicator: false },
    { headers },
  );
  if (created.status !== 201) return reportErrorAnswer(created);
  process.stdout.write(`consentId: ${created.body.consentId}\n`);
  process.stdout.write(`scaRedirect: ${created.body._links.scaRedirect?.href ?? '(start the authorisation: POST …/authorisations)'}\n`);
  return 0;
}

/**
 * `nordic-xs2a tpp transactions ACCOUNT-ID --consent ID [--card] [--booking-status S] [--date-from D]
 * [--date-to D] [--json]`: every transaction of the account under the consent, all pages, as a
 * statement table (date, amount, counterparty, text) or, with --json, the Berlin Group entries.
 */
export async function tppTransactionsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('tpp transactions', args, {
    options: {
      consent: { type: 'string' },
      card: { type: 'boolean', default: false },
      'booking-status': { type: 'string' },
      'date-from': { type: 'string' },
      'date-to': { type: 'string' },
      json: { type: 'boolean', default: false },
      tpp: { type: 'string', default: './tpp' },
      server: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [accountId] = positionals;
  if (accountId === undefined || values.consent === undefined) {
    throw new UsageError('tpp transactions needs ACCOUNT-ID (a resourceId of GET /v1/accounts) and --consent ID', {
      commands: ['tpp transactions'],
      brief: true,
    });
  }
  const query: Record<string, string> = {};
  if (values['booking-status'] !== undefined) query['bookingStatus'] = values['booking-status'];
  if (values['date-from'] !== undefined) query['dateFrom'] = values['date-from'];
  if (values['date-to'] !== undefined) query['dateTo'] = values['date-to'];
  const client = clientOf('tpp transactions', values.tpp, values.server);
  const accountPath = `/v1/${values.card ? 'card-accounts' : 'accounts'}/${encodeURIComponent(accountId)}`;
  const entries: ReportedTransaction[] = [];
  try {
    for await (const entry of client.transactions(accountPath, { consentId: values.consent, query })) entries.push(entry);
  } catch (error) {
    if (error instanceof TransactionPageError) return reportErrorAnswer(error.response);
    throw error;
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else {
    for (const { status, transaction } of entries) process.stdout.write(`${statementLine(status, transaction)}\n`);
    process.stdout.write(`${entries.length} transactions\n`);
  }
  return 0;
}

function clientOf(command: CommandName, tpp: string, server: string | undefined): TppClient {
  return new TppClient(server === undefined ? loadConfig().publicUrl : httpUrl(command, '--server', server), credentialsIn('--tpp', tpp));
}

/** One line of the statement: date, status, amount with its currency, counterparty, text. */
function statementLine(status: string, transaction: Record<string, unknown>): string {
  const text = (name: string): string => (typeof transaction[name] === 'string' ? transaction[name] : '');
  const amount = transaction['transactionAmount'] as { amount?: string; currency?: string } | undefined;
  const date = text('bookingDate') || text('transactionDate') || text('valueDate');
  const counterparty = text('creditorName') || text('debtorName') || text('transactionDetails');
  const remittance = text('remittanceInformationUnstructured');
  return [
    date.padEnd(10),
    status.padEnd(11),
    `${amount?.amount ?? ''} ${amount?.currency ?? ''}`.padStart(16),
    counterparty.padEnd(30).slice(0, 30),
    remittance,
  ]
    .join('  ')
    .trimEnd();
}
