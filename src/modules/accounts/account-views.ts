import type { AccountBalances, BankAccount, BankCardAccount } from '../../bank/core-banking.port.js';
import { formatAmount, type Money } from '../../domain/money.js';
import type { AcceptFixName } from '../../domain/accept-fix.js';

/*
 * The Berlin Group shapes of account information (docs/design.md §2b): accountDetails,
 * cardAccountDetails and their balances, amounts as strings. Pure: the caller brings the bank's
 * data, the TPP's resourceId and the accept-fixes in force.
 */

/** The bank's legacy `cashAccountType` words, shown until a TPP takes the `cash-account-type-iso` fix. */
const LEGACY_CASH_ACCOUNT_TYPES: Readonly<Record<string, string>> = {
  CACC: 'BRUKSKONTO',
  SVGS: 'SPAREKONTO',
  CARD: 'KREDITTKORT',
};

/** How long `name` may be: 35 characters, 70 with the `longer-name` fix (never more). */
export function nameLength(fixes: ReadonlySet<AcceptFixName>): number {
  return fixes.has('longer-name') ? 70 : 35;
}

export function amountOf(money: Money): { currency: string; amount: string } {
  return { currency: money.currency, amount: formatAmount(money) };
}

export interface Balance {
  balanceType: 'closingBooked' | 'expected' | 'interimAvailable';
  balanceAmount: { currency: string; amount: string };
  creditLimitIncluded?: boolean;
  referenceDate?: string;
  lastChangeDateTime?: string;
}

/**
 * The balance list: closingBooked at the end of the previous bank day, expected (booked and
 * pending) and interimAvailable (expected plus any credit line) as of now.
 */
export function balanceList(balances: AccountBalances, when: { previousBankDay: string; now: string }): Balance[] {
  return [
    { balanceType: 'closingBooked', balanceAmount: amountOf(balances.closingBooked), referenceDate: when.previousBankDay },
    { balanceType: 'expected', balanceAmount: amountOf(balances.expected), lastChangeDateTime: when.now },
    {
      balanceType: 'interimAvailable',
      balanceAmount: amountOf(balances.interimAvailable),
      creditLimitIncluded: true,
      lastChangeDateTime: when.now,
    },
  ];
}

export interface AccountView {
  readonly resourceId: string;
  /** Where the account's own resources are: its balances and its transactions, each when the consent covers them. */
  readonly balancesHref?: string | undefined;
  readonly transactionsHref?: string | undefined;
  readonly ownerName: boolean;
  readonly balances?: Balance[] | undefined;
  readonly fixes: ReadonlySet<AcceptFixName>;
}

/** The account's `_links`: `balances` and `transactions` where the view has them. */
function linksOf(view: AccountView): Record<string, { href: string }> {
  return {
    ...(view.balancesHref === undefined ? {} : { balances: { href: view.balancesHref } }),
    ...(view.transactionsHref === undefined ? {} : { transactions: { href: view.transactionsHref } }),
  };
}

export function accountDetails(account: BankAccount, view: AccountView): Record<string, unknown> {
  const cashAccountType = view.fixes.has('cash-account-type-iso')
    ? account.cashAccountType
    : (LEGACY_CASH_ACCOUNT_TYPES[account.cashAccountType] ?? account.product.toUpperCase().slice(0, 35));
  return {
    resourceId: view.resourceId,
    iban: account.iban,
    bban: account.bban,
    currency: account.currency,
    ...(view.ownerName ? { ownerName: account.ownerName.slice(0, 140) } : {}),
    name: account.name.slice(0, nameLength(view.fixes)),
    product: account.product.slice(0, 35),
    cashAccountType,
    status: 'enabled',
    usage: account.ownerType === 'PRIVATE' ? 'PRIV' : 'ORGA',
    ...(view.balances ? { balances: view.balances } : {}),
    _links: linksOf(view),
  };
}

export function cardAccountDetails(card: BankCardAccount, view: AccountView): Record<string, unknown> {
  return {
    resourceId: view.resourceId,
    maskedPan: card.maskedPan,
    currency: card.currency,
    ...(view.ownerName ? { ownerName: card.ownerName.slice(0, 140) } : {}),
    name: card.name.slice(0, nameLength(view.fixes)),
    product: card.product.slice(0, 35),
    status: 'enabled',
    usage: 'PRIV',
    creditLimit: amountOf(card.creditLimit),
    ...(view.balances ? { balances: view.balances } : {}),
    _links: linksOf(view),
  };
}
