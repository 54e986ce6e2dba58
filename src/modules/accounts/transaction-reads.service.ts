import type { CoreBanking, RequestingTpp, TransactionQuery } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import { activeFixes } from '../../domain/accept-fix.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { addDays, todayIn, type IsoDate } from '../../domain/iso-date.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { ACCEPT_FIXES } from '../../release/release-notes.js';
import type { BankClock, BankMoment } from '../clock/bank-clock.js';
import type { GrantedAccount } from '../consents/consent-grant.js';
import type { ConsentsService } from '../consents/consent.service.js';
import type { Consent } from '../consents/consent.model.js';
import type { AccountRead, ReadAnswer } from './account-read.js';
import type { AccountType } from './account-resource.repository.js';
import { fromBankOnAccount, grantedAccount, reportedAccount } from './granted-account.js';
import type { PaymentsOnAccount } from './payments-on-account.js';
import { pagingLinks } from './transaction-links.js';
import type { TransactionListQuerystring } from './account.schemas.js';
import { HISTORY_DAYS, readTransactionQuery, type TransactionListQuery } from './transaction-query.js';
import { decodeSnapshot, encodeSnapshot, type SnapshotSeal, type TransactionSnapshot } from './transaction-snapshot.js';
import {
  cardTransactionView,
  entryOfBankTransaction,
  standingOrderView,
  transactionView,
  type StatementEntry,
} from './transaction-views.js';
import { transactionWindow } from './transaction-window.js';
import { admitRead } from './unattended-reads.js';

export interface TransactionReadsService {
  /**
   * `GET /v1/accounts/{id}/transactions` and `/v1/card-accounts/{id}/transactions`, the query as its schema let it
   * through (a card account's schema declares a subset of the names).
   */
  list(type: AccountType, read: AccountRead, resourceId: string, query: TransactionListQuerystring): Promise<ReadAnswer>;
  /** `GET /v1/accounts/{id}/transactions/{transactionId}`. */
  details(read: AccountRead, resourceId: string, transactionId: string): Promise<ReadAnswer>;
}

const PATHS: Readonly<Record<AccountType, string>> = { account: 'accounts', card: 'card-accounts' };

/** How recent the consent's SCA must be to read history older than {@link HISTORY_DAYS} (with the PSU present). */
const FRESH_SCA_MS = 60 * 60 * 1000;

type BankEntry = StatementEntry & { readonly paymentId?: string | undefined };

/** Newest first, as the bank lists: booking date descending, then id descending. */
function newestFirst(a: StatementEntry, b: StatementEntry): number {
  if (a.bookingDate !== b.bookingDate) return a.bookingDate > b.bookingDate ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/** One page of a transaction list to report: the read, its account, the query and the list's paging state. */
interface PageRequest {
  readonly read: AccountRead;
  readonly granted: GrantedAccount;
  readonly query: TransactionListQuery;
  /** The list's snapshot from the page's links; undefined on a first read. */
  readonly snapshot: TransactionSnapshot | undefined;
  /** The list's own URL, which the paging links and the entries' links start with. */
  readonly base: string;
  readonly today: IsoDate;
  readonly seal: SnapshotSeal;
  /** The moment of the list's first page, which every page's snapshot carries on. */
  readonly takenAt: string;
}

/** A page's entries as the report of its `bookingStatus`: booked and pending apart, only those asked for. */
function reportByStatus<E extends { readonly status: string }, V>(
  bookingStatus: TransactionListQuery['bookingStatus'],
  entries: readonly E[],
  view: (entry: E) => V,
): { booked?: V[]; pending?: V[] } {
  return {
    ...(bookingStatus === 'pending' ? {} : { booked: entries.filter((entry) => entry.status === 'booked').map(view) }),
    ...(bookingStatus === 'booked' ? {} : { pending: entries.filter((entry) => entry.status === 'pending').map(view) }),
  };
}

/**
 * Transaction lists and details under a consent (docs/design.md §2b): the consent must cover the
 * account's transactions; a list is read as of its first page (the snapshot in its links), paged by
 * offset and limit; our approved, not yet executed payments are pending lines ahead of the bank's
 * list; standing orders are the `information` report; without the PSU present each read counts
 * against frequencyPerDay, and history older than 90 days needs the PSU and a fresh SCA.
 */
export function createTransactionReadsService(
  db: Db,
  coreBanking: CoreBanking,
  consents: ConsentsService,
  clock: BankClock,
  payments: PaymentsOnAccount,
  settings: { readonly publicUrl: string },
  /** The server's secret the paging snapshots are sealed under (the same for every instance and restart). */
  snapshotSecret: () => Promise<Buffer>,
): TransactionReadsService {
  async function transactionsGranted(read: AccountRead, type: AccountType, resourceId: string, at: BankMoment) {
    const consent = await consents.usable(read.tpp, read.consentId, at);
    const { granted } = await grantedAccount(db, coreBanking, consent, type, resourceId, 'transactions');
    return { consent, granted };
  }

  /**
   * History before the last 90 days (a list from `since`, or a transaction booked then): only with
   * the PSU present and an SCA of the consent less than an hour old. `path`: what asked for it;
   * `countedFrom`: the day the 90 days are counted back from, the read's own day unless it
   * continues a list begun earlier.
   */
  function checkHistory(
    read: AccountRead,
    consent: Consent,
    since: IsoDate,
    path: 'dateFrom' | 'transactionId',
    at: BankMoment,
    countedFrom: IsoDate = at.today,
  ): void {
    if (since >= addDays(countedFrom, -HISTORY_DAYS)) return;
    const now = at.now.getTime();
    const approvedAt = consent.approvedAt === undefined ? Number.NaN : Date.parse(consent.approvedAt);
    if (read.psuPresent && now - approvedAt <= FRESH_SCA_MS) return;
    throw new AppError('CONSENT_INVALID', {
      path,
      detail: localized(
        `transactions older than ${HISTORY_DAYS} days need the PSU present and a fresh consent (SCA within the last hour): ask the PSU to approve a new consent`,
        `transaksjoner eldre enn ${HISTORY_DAYS} dager krever at brukeren er til stede og et nytt samtykke (SCA i løpet av den siste timen): be brukeren godkjenne et nytt samtykke`,
      ),
    });
  }

  /** The bank's lines of a page, with what our payments add to them. */
  async function described(tpp: RequestingTpp, entries: readonly BankEntry[]): Promise<StatementEntry[]> {
    const owners = new Map<string, Promise<string | undefined>>();
    const ownerOf = (bankAccountId: string) => {
      const known = owners.get(bankAccountId);
      if (known) return known;
      const owner = coreBanking.account(tpp, bankAccountId).then((account) => account?.ownerName);
      owners.set(bankAccountId, owner);
      return owner;
    };
    return payments.describe(db, entries, ownerOf);
  }

  async function accountReport({ read, granted, query, snapshot, base, today, seal, takenAt }: PageRequest) {
    const tpp = { tppId: read.tpp.id };
    const account = granted.bankAccountId;
    if (query.bookingStatus === 'information') {
      // The standing orders are ours (the account's periodic payments), but the report is one of
      // the account's statement: when the core system cannot give the statement (unavailable, or
      // without data it must have) there is no report either, never a 200 with the orders alone
      // (docs/design.md §2b). One line of the statement is asked for to learn that.
      await coreBanking.transactions(tpp, account, { bookingStatus: 'booked', dateFrom: query.dateFrom, dateTo: query.dateTo, limit: 1 });
      const orders = await payments.standingOrders(db, account);
      return {
        report: { information: orders.slice(query.offset, query.offset + query.limit).map(standingOrderView) },
        links: pagingLinks(base, query, orders.length, undefined),
      };
    }
    const bankQuery: Omit<TransactionQuery, 'limit'> = {
      bookingStatus: query.bookingStatus,
      dateFrom: query.dateFrom,
      dateTo: query.dateTo,
    };
    let pendingPaymentIds = snapshot?.pendingPaymentIds;
    const window = await transactionWindow<BankEntry>(
      async (page) => {
        const answer = await coreBanking.transactions(tpp, account, { ...bankQuery, ...page });
        return { next: answer.next, asOf: answer.asOf, transactions: answer.transactions.map(entryOfBankTransaction) };
      },
      { bankAsOf: snapshot?.bankAsOf, offset: query.offset, limit: query.limit },
      async () => {
        if (query.bookingStatus === 'booked') return [];
        let entries: StatementEntry[];
        if (snapshot?.pendingPaymentIds !== undefined) {
          entries = await payments.pendingOf(db, account, snapshot.pendingPaymentIds, today);
        } else {
          const pending = await payments.pending(db, account, today);
          pendingPaymentIds = pending.paymentIds;
          entries = pending.entries;
        }
        return entries
          .filter((entry) => entry.bookingDate >= query.dateFrom && (query.dateTo === undefined || entry.bookingDate <= query.dateTo))
          .sort(newestFirst);
      },
      coreBanking.transactionCount && ((asOf) => coreBanking.transactionCount!(tpp, account, { ...bankQuery, asOf })),
    );
    const entries = await described(tpp, window.entries);
    const view = (entry: StatementEntry) => transactionView(entry, `${base}/${encodeURIComponent(entry.id)}`);
    const token = encodeSnapshot({ bankAsOf: window.bankAsOf, pendingPaymentIds, takenAt }, seal);
    return {
      report: reportByStatus(query.bookingStatus, entries, view),
      links: pagingLinks(base, query, window.total, token),
    };
  }

  async function cardReport({ read, granted, query, snapshot, base, today, seal, takenAt }: PageRequest) {
    const tpp = { tppId: read.tpp.id };
    const window = await transactionWindow(
      (page) =>
        coreBanking.cardTransactions(tpp, granted.bankAccountId, {
          bookingStatus: query.bookingStatus as TransactionQuery['bookingStatus'],
          dateFrom: query.dateFrom,
          dateTo: query.dateTo,
          ...page,
        }),
      { bankAsOf: snapshot?.bankAsOf, offset: query.offset, limit: query.limit },
      async () => [],
    );
    const fixes = activeFixes(read.acceptFixes, today, ACCEPT_FIXES);
    const view = (item: (typeof window.entries)[number]) => cardTransactionView(item, fixes);
    return {
      report: reportByStatus(query.bookingStatus, window.entries, view),
      links: pagingLinks(base, query, window.total, encodeSnapshot({ bankAsOf: window.bankAsOf, pendingPaymentIds: [], takenAt }, seal)),
    };
  }

  return {
    async list(type, read, resourceId, parameters) {
      const at = await clock.moment(read.tpp.id);
      const { today } = at;
      const { consent, granted } = await transactionsGranted(read, type, resourceId, at);
      const query = readTransactionQuery(parameters, today);
      // A snapshot works for the list it was issued for only: this TPP's, of this account.
      const seal = { secret: await snapshotSecret(), list: `${read.tpp.id}:${type}:${resourceId}` };
      const snapshot = query.snapshot === undefined ? undefined : decodeSnapshot(query.snapshot, seal, at.now);
      // The links of a page carry the first page's moment: they hold for a day from it, not from the last page read.
      const takenAt = snapshot?.takenAt ?? at.now.toISOString();
      if (type === 'card' && query.bookingStatus === 'information') {
        throw new AppError('FORMAT_ERROR', {
          path: 'bookingStatus',
          detail: localized(
            'a card account has no standing orders: booked, pending or both',
            'en kortkonto har ingen faste oppdrag: booked, pending eller both',
          ),
        });
      }
      // A page of a list begun on an earlier day (its links hold a day) is history as of that day:
      // its links carry the dateFrom the first page defaulted to, which the next day is 91 days back.
      const begunOn = snapshot === undefined ? today : todayIn(BANK_TIME_ZONE, new Date(snapshot.takenAt));
      checkHistory(read, consent, query.dateFrom, 'dateFrom', at, begunOn < today ? begunOn : today);
      const accountHref = `${settings.publicUrl}/v1/${PATHS[type]}/${encodeURIComponent(resourceId)}`;
      const base = `${accountHref}/transactions`;
      const {
        value: { report, links },
        headers,
      } = await admitRead(db, read, consent, [{ bankAccountId: granted.bankAccountId, kind: 'transactions' }], at.now, () =>
        fromBankOnAccount(
          (type === 'account' ? accountReport : cardReport)({ read, granted, query, snapshot, base, today, seal, takenAt }),
        ),
      );
      await consents.recordUse(consent, read.requestId, at);
      const accountLink = type === 'account' ? { account: { href: accountHref } } : { cardAccount: { href: accountHref } };
      const body = {
        ...reportedAccount(type, granted),
        [type === 'account' ? 'transactions' : 'cardTransactions']: { ...report, _links: { ...accountLink, ...links } },
      };
      return { body, headers };
    },

    async details(read, resourceId, transactionId) {
      const at = await clock.moment(read.tpp.id);
      const { consent, granted } = await transactionsGranted(read, 'account', resourceId, at);
      const tpp = { tppId: read.tpp.id };
      const { value: entry, headers } = await admitRead(
        db,
        read,
        consent,
        [{ bankAccountId: granted.bankAccountId, kind: 'transactions' }],
        at.now,
        async () => {
          const booked = async () => {
            const found = await fromBankOnAccount(coreBanking.transaction(tpp, granted.bankAccountId, transactionId));
            return found && (await described(tpp, [entryOfBankTransaction(found)]))[0];
          };
          // The bank again when neither knows it: a payment executed between the two reads (a batch
          // run) is no longer pending and already booked, under the id it had while pending.
          const entryFound =
            (await booked()) ?? (await payments.pendingById(db, granted.bankAccountId, transactionId, at.today)) ?? (await booked());
          // The port answers "no such transaction" for an account it no longer has, too; such an
          // account was already answered 404 at account-id by grantedAccount, so this is the id's.
          if (!entryFound) throw new AppError('RESOURCE_UNKNOWN', { path: 'transactionId' });
          // A transaction is history as the list's lines are: one booked before the last 90 days
          // is refused here just as a list reaching back to its day is.
          checkHistory(read, consent, entryFound.bookingDate, 'transactionId', at);
          return entryFound;
        },
      );
      await consents.recordUse(consent, read.requestId, at);
      const href = `${settings.publicUrl}/v1/accounts/${encodeURIComponent(resourceId)}/transactions/${encodeURIComponent(entry.id)}`;
      return { body: { transactionsDetails: transactionView(entry, href) }, headers };
    },
  };
}
