import type { AccountBalances, CoreBanking, RequestingTpp } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import { rollToBankDay } from '../../domain/bank-calendar.js';
import { addDays } from '../../domain/iso-date.js';
import { ACCEPT_FIXES } from '../../release/release-notes.js';
import { activeFixes } from '../../domain/accept-fix.js';
import type { BankClock, BankMoment } from '../clock/bank-clock.js';
import type { GrantedAccount } from '../consents/consent-grant.js';
import type { ConsentsService } from '../consents/consent.service.js';
import { accountResourceRepository, type AccountType } from './account-resource.repository.js';
import { accountDetails, balanceList, cardAccountDetails, type Balance } from './account-views.js';
import {
  accountNow,
  fromBankOnAccount,
  goneFromBank,
  grantedAccount,
  notCovered,
  reportedAccount,
  unknownAccount,
  type HeldAccount,
} from './granted-account.js';
import type { PaymentsOnAccount } from './payments-on-account.js';
import { admitRead, type CountedRead } from './unattended-reads.js';
import type { AccountRead, ReadAnswer } from './account-read.js';

export interface AccountReadsService {
  list(type: AccountType, read: AccountRead, withBalance: boolean): Promise<ReadAnswer>;
  details(type: AccountType, read: AccountRead, resourceId: string, withBalance: boolean): Promise<ReadAnswer>;
  balances(type: AccountType, read: AccountRead, resourceId: string): Promise<ReadAnswer>;
}

const PATHS: Readonly<Record<AccountType, string>> = { account: 'accounts', card: 'card-accounts' };

/**
 * What a view of an account answers, and so counts without the PSU present (docs/design.md §2b):
 * its details, and its balances when they are shown with it.
 */
function countedReads(granted: GrantedAccount, withBalances: boolean): CountedRead[] {
  const details: CountedRead = { bankAccountId: granted.bankAccountId, kind: 'details' };
  return withBalances ? [details, { bankAccountId: granted.bankAccountId, kind: 'balances' }] : [details];
}

/**
 * Reads of accounts and card accounts under a consent (docs/design.md §2b): the consent named in
 * Consent-ID must be valid and cover the account and the kind of access; the TPP sees each account
 * by its own opaque resourceId; a one-off consent is used up by the read.
 */
export function createAccountReadsService(
  db: Db,
  coreBanking: CoreBanking,
  consents: ConsentsService,
  clock: BankClock,
  payments: PaymentsOnAccount,
  settings: { readonly publicUrl: string },
): AccountReadsService {
  /** What a read's views need of its moment (one reading of the bank clock for the whole read). */
  function context(read: AccountRead, { today, now }: BankMoment) {
    return {
      fixes: activeFixes(read.acceptFixes, today, ACCEPT_FIXES),
      when: { previousBankDay: rollToBankDay(addDays(today, -1), 'preceding'), now: now.toISOString() },
    };
  }

  /**
   * The balances shown: closingBooked as the bank closed the previous bank day; expected and
   * interimAvailable as the bank has them less our approved payments it has not executed yet,
   * exactly those the account's transaction list shows as pending lines (so the two agree). Only
   * debits: an incoming payment from another account of the bank is no pending line on the
   * creditor's list either, and counts once it is booked. An account the bank no longer has is
   * its BankError `unknown-account`, which each read answers in its own way.
   */
  async function balancesOf(
    tpp: RequestingTpp,
    type: AccountType,
    bankAccountId: string,
    when: { previousBankDay: string; now: string },
  ): Promise<Balance[]> {
    const balances: AccountBalances = await coreBanking.balances(tpp, bankAccountId, when.previousBankDay);
    // A card account is no payment's debtor account.
    const heldDebit =
      type === 'account' ? await payments.pendingDebit(db, { id: bankAccountId, currency: balances.expected.currency }) : 0n;
    return balanceList(
      {
        ...balances,
        expected: { ...balances.expected, minor: balances.expected.minor - heldDebit },
        interimAvailable: { ...balances.interimAvailable, minor: balances.interimAvailable.minor - heldDebit },
      },
      when,
    );
  }

  /** One account's view, with its balances when `withBalances`. */
  async function viewOf(
    read: AccountRead,
    granted: GrantedAccount,
    found: HeldAccount,
    withBalances: boolean,
    listOnly: boolean,
    ctx: ReturnType<typeof context>,
  ): Promise<Record<string, unknown>> {
    const tpp = { tppId: read.tpp.id };
    const resourceId = await accountResourceRepository.idFor(
      db,
      read.tpp.id,
      found.type,
      granted.bankAccountId,
      clock.realNow().toISOString(),
    );
    // Links to what the consent grants on the account (Berlin Group accountDetails `_links`: "only
    // supported, when the corresponding consent has been already granted").
    const href = (kind: 'balances' | 'transactions') =>
      !listOnly && granted.kinds.includes(kind)
        ? `${settings.publicUrl}/v1/${PATHS[found.type]}/${encodeURIComponent(resourceId)}/${kind}`
        : undefined;
    const view = {
      resourceId,
      balancesHref: href('balances'),
      transactionsHref: href('transactions'),
      ownerName: granted.ownerName,
      fixes: ctx.fixes,
      balances: withBalances ? await balancesOf(tpp, found.type, granted.bankAccountId, ctx.when) : undefined,
    };
    return found.type === 'account' ? accountDetails(found.account, view) : cardAccountDetails(found.card, view);
  }

  return {
    async list(type, read, withBalance) {
      const at = await clock.moment(read.tpp.id);
      const consent = await consents.usable(read.tpp, read.consentId, at);
      const listOnly = consent.grant?.listOnly;
      if (withBalance && listOnly && !listOnly.withBalance) {
        throw notCovered('the consent covers the list of accounts without balances', 'samtykket gjelder kontolisten uten saldo');
      }
      const ctx = context(read, at);
      // The accounts listed, in the consent's order: those the consent's PSU may still share and
      // the bank still holds (a closed one is not listed, and costs no quota). Each account's
      // questions are asked for all accounts at once, since a bank's port answers each over its
      // own round trip.
      const ofType = (consent.grant?.accounts ?? []).filter((granted) => granted.type === type);
      const held = await Promise.all(
        ofType.map(async (granted) => {
          const now = await accountNow(coreBanking, consent, granted);
          return now.shareable ? now.held() : undefined;
        }),
      );
      const listed = ofType.flatMap((granted, index) => {
        const found = held[index];
        // With balance where the consent grants them (Berlin Group: "if granted by the PSU").
        const withBalances = withBalance && (listOnly !== undefined || granted.kinds.includes('balances'));
        return found ? [{ granted, found, withBalances }] : [];
      });
      // The list answers each account's details (and balances): without the PSU it is a read of
      // each, refused when any is used up. An account-list consent (availableAccounts) is one-off,
      // used up by this read, and counts nothing.
      const counted = listOnly ? [] : listed.flatMap(({ granted, withBalances }) => countedReads(granted, withBalances));
      const { value: views, headers } = await admitRead(db, read, consent, counted, at.now, async (leftOut) => {
        const views: Record<string, unknown>[] = [];
        for (const { granted, found, withBalances } of listed) {
          try {
            views.push(await viewOf(read, granted, found, withBalances, listOnly !== undefined, ctx));
          } catch (error) {
            // Closed between being found and its balances read: left out, as a closed account is
            // (and costing no quota), rather than failing the whole list with a 404 at an
            // account-id the list has not.
            if (!goneFromBank(error)) throw error;
            leftOut(granted.bankAccountId);
          }
        }
        return views;
      });
      await consents.recordUse(consent, read.requestId, at);
      return { body: type === 'account' ? { accounts: views } : { cardAccounts: views }, headers };
    },

    async details(type, read, resourceId, withBalance) {
      const at = await clock.moment(read.tpp.id);
      const consent = await consents.usable(read.tpp, read.consentId, at);
      const { granted, held } = await grantedAccount(db, coreBanking, consent, type, resourceId);
      const withBalances = withBalance && granted.kinds.includes('balances');
      const counted = countedReads(granted, withBalances);
      const { value: view, headers } = await admitRead(db, read, consent, counted, at.now, async () => {
        const found = await held();
        if (!found) throw unknownAccount();
        return fromBankOnAccount(viewOf(read, granted, found, withBalances, false, context(read, at)));
      });
      await consents.recordUse(consent, read.requestId, at);
      return { body: type === 'account' ? { account: view } : { cardAccount: view }, headers };
    },

    async balances(type, read, resourceId) {
      const at = await clock.moment(read.tpp.id);
      const consent = await consents.usable(read.tpp, read.consentId, at);
      const { granted } = await grantedAccount(db, coreBanking, consent, type, resourceId, 'balances');
      const tpp = { tppId: read.tpp.id };
      const { value: balances, headers } = await admitRead(
        db,
        read,
        consent,
        [{ bankAccountId: granted.bankAccountId, kind: 'balances' }],
        at.now,
        () => fromBankOnAccount(balancesOf(tpp, type, granted.bankAccountId, context(read, at).when)),
      );
      await consents.recordUse(consent, read.requestId, at);
      return { body: { ...reportedAccount(type, granted), balances }, headers };
    },
  };
}
