import type { AccountReference } from '../../bank/core-banking.port.js';
import { formatAmount, type Money } from '../../domain/money.js';
import type { AccountWithBalances } from './account.service.js';
import type { AgreementWithEngagements } from './agreement.service.js';
import type { CardAccountWithBalances } from './card-account.service.js';
import type {
  SandboxAccount,
  SandboxBalances,
  SandboxCardTransaction,
  SandboxCustomer,
  SandboxEngagement,
  SandboxTransaction,
} from './sandbox-bank.model.js';

type Verb = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** Berlin Group `amount`: the amount as a string with exactly the currency's decimals. */
export function amountView(money: Money): { currency: string; amount: string } {
  return { currency: money.currency, amount: formatAmount(money) };
}

/** Balances; with a credit line, which of them include it (interimAvailable only). */
function balancesView(balances: SandboxBalances, creditLimit: Money) {
  const credit = (included: boolean) => (creditLimit.minor > 0n ? { creditLimitIncluded: included } : {});
  return [
    { balanceType: 'closingBooked' as const, balanceAmount: amountView(balances.closingBooked), ...credit(false) },
    { balanceType: 'expected' as const, balanceAmount: amountView(balances.expected), ...credit(false) },
    { balanceType: 'interimAvailable' as const, balanceAmount: amountView(balances.interimAvailable), ...credit(true) },
  ];
}

function referenceView(reference: AccountReference): { iban?: string; bban?: string } {
  return 'iban' in reference ? { iban: reference.iban } : { bban: reference.bban };
}

/**
 * The mock-data API's JSON: Berlin Group field names (`resourceId`, `balances`, `transactionAmount`,
 * `_links` with `verbs`), amounts as strings, and absolute links under XS2A_PUBLIC_URL.
 */
export function sandboxMapper(publicUrl: string) {
  const base = `${publicUrl}/v1/sandbox`;
  const link = (path: string, ...verbs: Verb[]) => ({ href: `${base}${path}`, verbs });
  const accountPath = (id: string) => `/accounts/${encodeURIComponent(id)}`;
  const cardPath = (id: string) => `/card-accounts/${encodeURIComponent(id)}`;
  const agreementPath = (id: string) => `/agreements/${encodeURIComponent(id)}`;

  const transaction = (account: SandboxAccount, item: SandboxTransaction) => {
    const own = { iban: account.iban };
    const other = item.counterpartyAccount && referenceView(item.counterpartyAccount);
    const debit = item.amount.minor < 0n;
    const details = link(`${accountPath(account.id)}/transactions/${encodeURIComponent(item.id)}`, 'GET');
    return {
      transactionId: item.id,
      bookingDate: item.bookingDate,
      valueDate: item.valueDate,
      transactionAmount: amountView(item.amount),
      ...(debit
        ? {
            debtorAccount: own,
            ...(item.counterpartyName ? { creditorName: item.counterpartyName } : {}),
            ...(other ? { creditorAccount: other } : {}),
          }
        : {
            creditorAccount: own,
            ...(item.counterpartyName ? { debtorName: item.counterpartyName } : {}),
            ...(other ? { debtorAccount: other } : {}),
          }),
      ...(item.remittanceUnstructured !== undefined ? { remittanceInformationUnstructured: item.remittanceUnstructured } : {}),
      ...(item.remittanceReference !== undefined
        ? { remittanceInformationStructuredArray: [{ reference: item.remittanceReference, referenceType: 'SCOR' }] }
        : {}),
      // Berlin Group `transactions` names the link to a transaction's details transactionDetails.
      _links: { self: details, transactionDetails: details },
    };
  };

  const engagement = (item: SandboxEngagement) => ({
    engagementId: item.id,
    customer: item.customer.customerNumber,
    account: { iban: item.account.iban, bban: item.account.bban },
    roles: [...item.roles],
    ...(item.registerLimit ? { registerLimit: formatAmount(item.registerLimit) } : {}),
    ...(item.approvalLimit ? { approvalLimit: formatAmount(item.approvalLimit) } : {}),
    ...(item.consentNeedsSecondApprover ? { consentNeedsSecondApprover: true } : {}),
    _links: { self: link(`${agreementPath(item.agreementId)}/engagements/${encodeURIComponent(item.id)}`, 'GET') },
  });

  const cardTransaction = (item: SandboxCardTransaction) => ({
    cardTransactionId: item.id,
    transactionDate: item.transactionDate,
    ...(item.bookingDate !== undefined ? { bookingDate: item.bookingDate } : {}),
    transactionAmount: amountView(item.amount),
    ...(item.originalAmount ? { originalAmount: amountView(item.originalAmount) } : {}),
    ...(item.originalAmount && item.exchangeRate !== undefined
      ? {
          currencyExchange: [
            {
              sourceCurrency: item.originalAmount.currency,
              exchangeRate: item.exchangeRate,
              unitCurrency: item.originalAmount.currency,
              targetCurrency: item.amount.currency,
              quotationDate: item.transactionDate,
            },
          ],
        }
      : {}),
    ...(item.merchantCategoryCode !== undefined ? { merchantCategoryCode: item.merchantCategoryCode } : {}),
    maskedPAN: item.maskedPan,
    ...(item.transactionDetails !== undefined ? { transactionDetails: item.transactionDetails } : {}),
    _links: { self: link(`${cardPath(item.cardAccountId)}/transactions/${encodeURIComponent(item.id)}`, 'GET') },
  });

  return {
    link,

    customer: (customer: SandboxCustomer) => ({
      customerId: customer.id,
      customerNumber: customer.customerNumber,
      customerType: customer.customerType,
      customerName: customer.name,
      _links: { self: link(`/customers/${encodeURIComponent(customer.id)}`, 'GET', 'DELETE') },
    }),

    account: ({ account, balances }: AccountWithBalances) => ({
      resourceId: account.id,
      customerNumber: account.owner.customerNumber,
      bban: account.bban,
      iban: account.iban,
      currency: account.currency,
      name: account.name,
      product: account.product,
      cashAccountType: account.cashAccountType,
      creditLimit: amountView(account.creditLimit),
      ...(account.organisationNumber !== undefined ? { organisationNumber: account.organisationNumber } : {}),
      balances: balancesView(balances, account.creditLimit),
      _links: {
        self: link(accountPath(account.id), 'GET', 'PATCH'),
        balance: link(`${accountPath(account.id)}/balance`, 'PUT'),
        transactions: link(`${accountPath(account.id)}/transactions`, 'GET', 'POST'),
      },
    }),

    transaction,

    transactionReport: (account: SandboxAccount, items: readonly SandboxTransaction[]) => ({
      account: { iban: account.iban },
      transactions: {
        booked: items.filter((item) => item.status === 'booked').map((item) => transaction(account, item)),
        pending: items.filter((item) => item.status === 'pending').map((item) => transaction(account, item)),
      },
      _links: { account: link(accountPath(account.id), 'GET') },
    }),

    transactionsLink: (account: SandboxAccount) => link(`${accountPath(account.id)}/transactions`, 'GET', 'POST'),
    accountLink: (account: SandboxAccount) => link(accountPath(account.id), 'GET'),

    agreement: ({ agreement, engagements }: AgreementWithEngagements) => ({
      agreementId: agreement.id,
      owner: agreement.owner.customerNumber,
      organisationNumber: agreement.organisationNumber,
      name: agreement.name,
      engagements: engagements.map(engagement),
      _links: {
        self: link(agreementPath(agreement.id), 'GET'),
        engagements: link(`${agreementPath(agreement.id)}/engagements`, 'POST'),
      },
    }),

    engagement,

    cardAccount: ({ cardAccount, balances }: CardAccountWithBalances) => ({
      resourceId: cardAccount.id,
      customerNumber: cardAccount.owner.customerNumber,
      maskedPan: cardAccount.maskedPan,
      name: cardAccount.name,
      product: cardAccount.product,
      currency: cardAccount.currency,
      creditLimit: amountView(cardAccount.creditLimit),
      balances: balancesView(balances, cardAccount.creditLimit),
      _links: {
        self: link(cardPath(cardAccount.id), 'GET', 'PATCH'),
        transactions: link(`${cardPath(cardAccount.id)}/transactions`, 'GET', 'POST'),
      },
    }),

    cardTransaction,

    cardTransactionReport: (
      cardAccount: { id: string; maskedPan: string; currency: string },
      items: readonly SandboxCardTransaction[],
    ) => ({
      cardAccount: { maskedPan: cardAccount.maskedPan, currency: cardAccount.currency },
      cardTransactions: {
        booked: items.filter((item) => item.status === 'booked').map(cardTransaction),
        pending: items.filter((item) => item.status === 'pending').map(cardTransaction),
      },
      _links: { cardAccount: link(cardPath(cardAccount.id), 'GET') },
    }),
  };
}

export type SandboxMapper = ReturnType<typeof sandboxMapper>;
