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
import { fromBankOnAccount, grantedAccount, notCovered, reportedAccount, unknownAccount } from './granted-account.js';
import { admitRead } from './unattended-reads.js';
import type { AccountRead, ReadAnswer } from './account-read.js';

export interface AccountReadsService {
  list(type: AccountType, read: AccountRead, withBalance: boolean): Promise<Record<string, unknown>>;
  details(type: AccountType, read: AccountRead, resourceId: string, withBalance: boolean): Promise<ReadAnswer>;
  balances(type: AccountType, read: AccountRead, resourceId: string): Promise<ReadAnswer>;
}

const PATHS: Readonly<Record<AccountType, string>> = { account: 'accounts', card: 'card-accounts' };

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
  settings: { readonly publicUrl: string },
): AccountReadsService {
  /** What a read's views need of its moment (one reading of the bank clock for the whole read). */
  function context(read: AccountRead, { today, now }: BankMoment) {
    return {
      fixes: activeFixes(read.acceptFixes, today, ACCEPT_FIXES),
      when: { previousBankDay: rollToBankDay(addDays(today, -1), 'preceding'), now: now.toISOString() },
    };
  }

  async function balancesOf(tpp: RequestingTpp, bankAccountId: string, when: { previousBankDay: string; now: string }): Promise<Balance[]> {
    const balances: AccountBalances = await fromBankOnAccount(coreBanking.balances(tpp, bankAccountId));
    return balanceList(balances, when);
  }

  /** One account's view, or undefined when the bank no longer has it (closed accounts are not listed). */
  async function viewOf(
    read: AccountRead,
    type: AccountType,
    granted: GrantedAccount,
    withBalances: boolean,
    listOnly: boolean,
    ctx: ReturnType<typeof context>,
  ): Promise<Record<string, unknown> | undefined> {
    const tpp = { tppId: read.tpp.id };
    const resourceId = await accountResourceRepository.idFor(db, read.tpp.id, type, granted.bankAccountId, clock.realNow().toISOString());
    // Links to what the consent grants on the account (Berlin Group accountDetails `_links`: "only
    // supported, when the corresponding consent has been already granted").
    const href = (kind: 'balances' | 'transactions') =>
      !listOnly && granted.kinds.includes(kind)
        ? `${settings.publicUrl}/v1/${PATHS[type]}/${encodeURIComponent(resourceId)}/${kind}`
        : undefined;
    const view = {
      resourceId,
      balancesHref: href('balances'),
      transactionsHref: href('transactions'),
      ownerName: granted.ownerName,
      fixes: ctx.fixes,
    };
    if (type === 'account') {
      const account = await coreBanking.account(tpp, granted.bankAccountId);
      if (!account) return undefined;
      return accountDetails(account, { ...view, balances: withBalances ? await balancesOf(tpp, account.id, ctx.when) : undefined });
    }
    const card = await coreBanking.cardAccount(tpp, granted.bankAccountId);
    if (!card) return undefined;
    return cardAccountDetails(card, { ...view, balances: withBalances ? await balancesOf(tpp, card.id, ctx.when) : undefined });
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
      const views: Record<string, unknown>[] = [];
      for (const granted of consent.grant?.accounts ?? []) {
        if (granted.type !== type) continue;
        // With balance where the consent grants them (Berlin Group: "if granted by the PSU").
        const withBalances = withBalance && (listOnly !== undefined || granted.kinds.includes('balances'));
        const view = await viewOf(read, type, granted, withBalances, listOnly !== undefined, ctx);
        if (view) views.push(view);
      }
      await consents.recordUse(consent, read.requestId, at);
      return type === 'account' ? { accounts: views } : { cardAccounts: views };
    },

    async details(type, read, resourceId, withBalance) {
      const at = await clock.moment(read.tpp.id);
      const consent = await consents.usable(read.tpp, read.consentId, at);
      const granted = await grantedAccount(db, consent, type, resourceId);
      const { value: view, headers } = await admitRead(db, read, consent, granted.bankAccountId, 'details', at.now, async () => {
        const found = await viewOf(read, type, granted, withBalance && granted.kinds.includes('balances'), false, context(read, at));
        if (!found) throw unknownAccount();
        return found;
      });
      await consents.recordUse(consent, read.requestId, at);
      return { body: type === 'account' ? { account: view } : { cardAccount: view }, headers };
    },

    async balances(type, read, resourceId) {
      const at = await clock.moment(read.tpp.id);
      const consent = await consents.usable(read.tpp, read.consentId, at);
      const granted = await grantedAccount(db, consent, type, resourceId);
      if (!granted.kinds.includes('balances')) {
        throw notCovered('the consent does not cover the balances of this account', 'samtykket omfatter ikke saldoen på denne kontoen');
      }
      const tpp = { tppId: read.tpp.id };
      const { value: balances, headers } = await admitRead(db, read, consent, granted.bankAccountId, 'balances', at.now, () =>
        balancesOf(tpp, granted.bankAccountId, context(read, at).when),
      );
      await consents.recordUse(consent, read.requestId, at);
      return { body: { ...reportedAccount(type, granted), balances }, headers };
    },
  };
}
