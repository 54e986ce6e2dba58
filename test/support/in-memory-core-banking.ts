/**
 * A deliberately small core-banking adapter with no database: plain maps per TPP, one currency
 * per payment (no exchange rates), synchronous execution. It exists to prove the port can be
 * implemented without this project's database, and runs the same contract suite as the sandbox
 * adapter (test/bank/core-banking.contract.ts).
 */
import { randomUUID } from 'node:crypto';
import { BankError } from '../../src/bank/bank-error.js';
import type {
  AccountBalances,
  AccountPermission,
  AccountReference,
  BankAccount,
  BankCardAccount,
  BankCardTransaction,
  BankTransaction,
  CoreBanking,
  PaymentInstruction,
  ReportedOutcome,
  RequestingTpp,
  SubmissionOutcome,
} from '../../src/bank/core-banking.port.js';
import { accountNumber } from './sandbox.js';
import { ibanFromNorwegianBban } from '../../src/domain/iban.js';
import { matches, pageOf } from '../../src/bank/transaction-paging.js';
import type { Money } from '../../src/domain/money.js';
import type { ContractSeed, SeedEngagement } from '../bank/core-banking.contract.js';

interface Customer {
  readonly name: string;
  readonly type: 'PRIVATE' | 'CORPORATE';
}

interface Ledger {
  booked: bigint;
  pending: bigint;
}

interface Tenant {
  readonly customers: Map<string, Customer>;
  readonly accounts: Map<string, BankAccount>;
  readonly money: Map<string, Ledger>;
  readonly transactions: Map<string, BankTransaction[]>;
  /** Per organisation number: the owner and its engagements. */
  readonly agreements: Map<string, { owner: string; engagements: readonly SeedEngagement[] }>;
  readonly cards: Map<string, BankCardAccount>;
  readonly cardTransactions: Map<string, BankCardTransaction[]>;
}

/** The contract's seed, where an account may be given a known number. */
export interface InMemorySeed extends ContractSeed {
  account(account: Parameters<ContractSeed['account']>[0] & { bban?: string }): Promise<BankAccount>;
}

export interface InMemoryCoreBanking {
  readonly bank: CoreBanking;
  seed(tpp: RequestingTpp): InMemorySeed;
  /** In `decidesLater` mode: executes what was accepted, reporting each in the feed; how many. */
  settleAccepted(): Promise<number>;
}

export interface InMemoryOptions {
  /**
   * A bank that decides later: a submission is answered `accepted` and executed (or not) only
   * when the test calls {@link InMemoryCoreBanking.settleAccepted}, the outcome then in the feed.
   */
  readonly decidesLater?: boolean;
  /**
   * What an instant payment to another bank costs, in minor units of the debtor account's
   * currency (default 200: 2.00); one to an account of this bank is free.
   */
  readonly instantPaymentFeeMinor?: bigint;
}

export function createInMemoryCoreBanking(options: InMemoryOptions = {}): InMemoryCoreBanking {
  const accepted: { tpp: RequestingTpp; instruction: PaymentInstruction }[] = [];
  const tenants = new Map<string, Tenant>();
  /** Executed payments by `paymentId:item`, and the feed in execution order. */
  const executed = new Set<string>();
  const feed: ReportedOutcome[] = [];
  let numbers = 10_000;

  const tenant = (tpp: RequestingTpp): Tenant => {
    let found = tenants.get(tpp.tppId);
    if (!found) {
      found = {
        customers: new Map(),
        accounts: new Map(),
        money: new Map(),
        transactions: new Map(),
        agreements: new Map(),
        cards: new Map(),
        cardTransactions: new Map(),
      };
      tenants.set(tpp.tppId, found);
    }
    return found;
  };

  const accountOrThrow = (tpp: RequestingTpp, id: string): BankAccount => {
    const account = tenant(tpp).accounts.get(id);
    if (!account) throw new BankError('unknown-account', `no account ${id}`);
    return account;
  };

  const byReference = (tpp: RequestingTpp, reference: AccountReference) =>
    [...tenant(tpp).accounts.values()].find((account) =>
      'iban' in reference ? account.iban === reference.iban : account.bban === reference.bban,
    );

  /** What was booked on the account or card account after the end of `date`. */
  const bookedAfter = (tpp: RequestingTpp, id: string, date: string): bigint =>
    [...(tenant(tpp).transactions.get(id) ?? []), ...(tenant(tpp).cardTransactions.get(id) ?? [])]
      .filter((item) => item.status === 'booked' && item.bookingDate !== undefined && item.bookingDate > date)
      .reduce((sum, item) => sum + item.amount.minor, 0n);

  const balancesOf = (tpp: RequestingTpp, id: string, currency: string, credit = 0n, closingDate?: string): AccountBalances => {
    const money = tenant(tpp).money.get(id) ?? { booked: 0n, pending: 0n };
    const of = (minor: bigint): Money => ({ minor, currency });
    return {
      closingBooked: of(money.booked - (closingDate === undefined ? 0n : bookedAfter(tpp, id, closingDate))),
      expected: of(money.booked + money.pending),
      interimAvailable: of(money.booked + money.pending + credit),
    };
  };

  const record = (tpp: RequestingTpp, accountId: string, transaction: BankTransaction) => {
    const data = tenant(tpp);
    const money = data.money.get(accountId) ?? { booked: 0n, pending: 0n };
    if (transaction.status === 'booked') money.booked += transaction.amount.minor;
    else money.pending += transaction.amount.minor;
    data.money.set(accountId, money);
    data.transactions.set(accountId, [...(data.transactions.get(accountId) ?? []), transaction]);
  };

  const engagementOf = (tpp: RequestingTpp, psuId: string, accountId: string, organisationNumber: string) =>
    tenant(tpp)
      .agreements.get(organisationNumber)
      ?.engagements.find((engagement) => engagement.psu === psuId && engagement.accountId === accountId);

  const bank: CoreBanking = {
    async findAccount(tpp, reference) {
      return byReference(tpp, reference);
    },
    async account(tpp, accountId) {
      return tenant(tpp).accounts.get(accountId);
    },
    async accountsOf(tpp, psuId, organisationNumber) {
      const accounts = [...tenant(tpp).accounts.values()];
      if (organisationNumber === undefined) {
        return tenant(tpp).customers.get(psuId)?.type === 'PRIVATE'
          ? accounts.filter((account) => account.ownerCustomerNumber === psuId)
          : [];
      }
      return accounts.filter((account) => engagementOf(tpp, psuId, account.id, organisationNumber) !== undefined);
    },
    async permission(tpp, psuId, accountId, organisationNumber): Promise<AccountPermission> {
      const account = tenant(tpp).accounts.get(accountId);
      if (!account) return { canView: false, canRegister: false };
      if (organisationNumber === undefined) {
        const owner = account.ownerType === 'PRIVATE' && account.ownerCustomerNumber === psuId;
        return { canView: owner, canRegister: owner };
      }
      const engagement = engagementOf(tpp, psuId, accountId, organisationNumber);
      if (!engagement) return { canView: false, canRegister: false };
      const canRegister = engagement.roles.includes('REGISTER');
      return {
        canView: engagement.roles.includes('VIEW'),
        canRegister,
        registerLimit: canRegister ? engagement.registerLimit : undefined,
        approvalLimit: canRegister ? engagement.approvalLimit : undefined,
        ...(engagement.consentNeedsSecondApprover ? { consentNeedsSecondApprover: true } : {}),
      };
    },
    async balances(tpp, accountId, closingDate) {
      const card = tenant(tpp).cards.get(accountId);
      if (card) return balancesOf(tpp, card.id, card.currency, card.creditLimit.minor, closingDate);
      const account = accountOrThrow(tpp, accountId);
      return balancesOf(tpp, account.id, account.currency, 0n, closingDate);
    },
    async transactions(tpp, accountId, query) {
      accountOrThrow(tpp, accountId);
      const wanted = (tenant(tpp).transactions.get(accountId) ?? []).filter((item) => matches(query, item.status, item.bookingDate));
      return pageOf(wanted, (item) => ({ date: item.bookingDate, id: item.id }), query);
    },
    async transaction(tpp, accountId, transactionId) {
      return tenant(tpp)
        .transactions.get(accountId)
        ?.find((item) => item.id === transactionId);
    },
    async cardAccountsOf(tpp, psuId) {
      return [...tenant(tpp).cards.values()].filter((card) => card.ownerCustomerNumber === psuId);
    },
    async cardAccount(tpp, cardAccountId) {
      return tenant(tpp).cards.get(cardAccountId);
    },
    async cardTransactions(tpp, cardAccountId, query) {
      if (!tenant(tpp).cards.has(cardAccountId)) throw new BankError('unknown-account', `no card account ${cardAccountId}`);
      const wanted = (tenant(tpp).cardTransactions.get(cardAccountId) ?? []).filter((item) =>
        matches(query, item.status, item.transactionDate),
      );
      return pageOf(wanted, (item) => ({ date: item.transactionDate, id: item.id }), query);
    },
    async fundsAvailable(tpp, reference, amount) {
      const account = byReference(tpp, reference);
      if (!account) throw new BankError('unknown-account', 'no such account');
      if (amount.currency !== account.currency) throw new BankError('refused', `This bank does not exchange ${amount.currency}`);
      return balancesOf(tpp, account.id, account.currency).interimAvailable.minor >= amount.minor;
    },
    async instantPaymentFee(tpp, query) {
      const account = accountOrThrow(tpp, query.debtorAccountId);
      if (query.amount.currency !== account.currency) {
        throw new BankError('refused', `This bank does not exchange ${query.amount.currency}`);
      }
      const withinBank = byReference(tpp, query.creditorAccount) !== undefined;
      return { minor: withinBank ? 0n : (options.instantPaymentFeeMinor ?? 200n), currency: account.currency };
    },
    submitPayment: submit,
    async submitPayments(tpp, instructions) {
      // A payment file: each in the order given, as if submitted one after another; an all-or-none
      // bulk's payments (next to each other) checked together first, and executed only all together.
      const outcomes: SubmissionOutcome[] = [];
      for (let start = 0; start < instructions.length;) {
        const first = instructions[start]!;
        let end = start + 1;
        while (first.allOrNone && end < instructions.length && instructions[end]!.paymentId === first.paymentId) end++;
        const group = instructions.slice(start, end);
        const blocked = first.allOrNone && !options.decidesLater ? blockersOf(tpp, group) : undefined;
        if (blocked?.some((outcome) => outcome !== undefined)) {
          outcomes.push(...blocked.map((outcome) => outcome ?? { kind: 'pending-funds' as const }));
        } else {
          for (const instruction of group) outcomes.push(await submit(tpp, instruction));
        }
        start = end;
      }
      return outcomes;
    },
    async outcomesSince(cursor, limit = 100) {
      const from = cursor === undefined ? 0 : Number(cursor);
      const outcomes = feed.slice(from, from + Math.max(1, limit));
      return { outcomes, cursor: String(from + outcomes.length) };
    },
  };

  async function submit(tpp: RequestingTpp, instruction: PaymentInstruction): Promise<SubmissionOutcome> {
    if (options.decidesLater) {
      const known = `${instruction.paymentId}:${instruction.item ?? ''}`;
      if (executed.has(known)) return { kind: 'executed' };
      if (!accepted.some((entry) => `${entry.instruction.paymentId}:${entry.instruction.item ?? ''}` === known)) {
        accepted.push({ tpp, instruction });
      }
      return { kind: 'accepted' };
    }
    return execute(tpp, instruction);
  }

  /**
   * What would stop each payment of an all-or-none bulk (one debtor account), tried one after
   * another without moving money: undefined for one that could be executed.
   */
  function blockersOf(tpp: RequestingTpp, group: readonly PaymentInstruction[]): (SubmissionOutcome | undefined)[] {
    const debtor = tenant(tpp).accounts.get(group[0]!.debtorAccountId);
    let available = debtor ? balancesOf(tpp, debtor.id, debtor.currency).interimAvailable.minor : 0n;
    return group.map((instruction): SubmissionOutcome | undefined => {
      if (executed.has(`${instruction.paymentId}:${instruction.item ?? ''}`)) return undefined;
      if (!debtor) return { kind: 'rejected', reason: 'The debtor account no longer exists' };
      if (instruction.amount.currency !== debtor.currency) {
        return { kind: 'rejected', reason: `This bank does not exchange ${instruction.amount.currency}` };
      }
      available -= instruction.amount.minor + (instruction.fee?.minor ?? 0n);
      return available < 0n ? { kind: 'pending-funds' } : undefined;
    });
  }

  /** Executes a payment now (once per payment and item), or answers why not. */
  async function execute(tpp: RequestingTpp, instruction: PaymentInstruction): Promise<SubmissionOutcome> {
    {
      const key = `${instruction.paymentId}:${instruction.item ?? ''}`;
      if (executed.has(key)) return { kind: 'executed' };
      const debtor = tenant(tpp).accounts.get(instruction.debtorAccountId);
      if (!debtor) return { kind: 'rejected', reason: 'The debtor account no longer exists' };
      if (instruction.amount.currency !== debtor.currency) {
        return { kind: 'rejected', reason: `This bank does not exchange ${instruction.amount.currency}` };
      }
      if (instruction.fee && instruction.fee.currency !== debtor.currency) {
        return { kind: 'rejected', reason: `This bank does not exchange ${instruction.fee.currency}` };
      }
      const feeMinor = instruction.fee?.minor ?? 0n;
      if (balancesOf(tpp, debtor.id, debtor.currency).interimAvailable.minor < instruction.amount.minor + feeMinor) {
        return { kind: 'pending-funds' };
      }
      const id = instruction.item === undefined ? instruction.paymentId : `${instruction.paymentId}-${instruction.item}`;
      const leg = (minor: bigint): BankTransaction => ({
        id,
        status: 'booked',
        bookingDate: instruction.executionDate,
        valueDate: instruction.executionDate,
        amount: { minor, currency: debtor.currency },
        counterpartyName: instruction.creditorName,
        paymentId: instruction.paymentId,
        description: instruction.description,
      });
      record(tpp, debtor.id, leg(-instruction.amount.minor));
      if (feeMinor > 0n) {
        record(tpp, debtor.id, {
          id: `${id}-fee`,
          status: 'booked',
          bookingDate: instruction.executionDate,
          valueDate: instruction.executionDate,
          amount: { minor: -feeMinor, currency: debtor.currency },
          description: `Fee: ${instruction.description}`,
        });
      }
      const creditor = instruction.creditorAccount && byReference(tpp, instruction.creditorAccount);
      if (creditor && creditor.currency === debtor.currency) record(tpp, creditor.id, leg(instruction.amount.minor));
      executed.add(key);
      feed.push({ paymentId: instruction.paymentId, item: instruction.item, outcome: { kind: 'executed' } });
      return { kind: 'executed' };
    }
  }

  async function settleAccepted(): Promise<number> {
    const due = accepted.splice(0);
    for (const { tpp, instruction } of due) {
      const outcome = await execute(tpp, instruction);
      if (outcome.kind === 'rejected' || outcome.kind === 'pending-funds') {
        const reason = outcome.kind === 'rejected' ? outcome.reason : 'Insufficient funds';
        feed.push({ paymentId: instruction.paymentId, item: instruction.item, outcome: { kind: 'rejected', reason } });
      }
    }
    return due.length;
  }

  const seed = (tpp: RequestingTpp): InMemorySeed => ({
    async customer(customer) {
      tenant(tpp).customers.set(customer.customerNumber, { name: customer.name, type: customer.type });
    },
    // `bban`: the account's number, when the caller wants a known one (the adapter's demo account).
    async account({ owner, currency, closingBooked, bban: given }) {
      const customer = tenant(tpp).customers.get(owner);
      if (!customer) throw new Error(`no customer ${owner}`);
      const { bban, iban } = given === undefined ? accountNumber() : { bban: given, iban: ibanFromNorwegianBban(given) };
      const account: BankAccount = {
        id: randomUUID(),
        bban,
        iban,
        currency,
        name: 'Konto',
        product: 'BRUKSKONTO',
        cashAccountType: 'CACC',
        ownerName: customer.name,
        ownerCustomerNumber: owner,
        ownerType: customer.type,
      };
      tenant(tpp).accounts.set(account.id, account);
      if (closingBooked) tenant(tpp).money.set(account.id, { booked: closingBooked.minor, pending: 0n });
      return account;
    },
    async agreement({ owner, engagements }) {
      const organisationNumber = String(900_000_000 + numbers++);
      tenant(tpp).agreements.set(organisationNumber, { owner, engagements });
      for (const [id, account] of tenant(tpp).accounts) {
        if (account.ownerCustomerNumber === owner) tenant(tpp).accounts.set(id, { ...account, organisationNumber });
      }
      return { organisationNumber };
    },
    async transaction(accountId, item) {
      const account = accountOrThrow(tpp, accountId);
      const id = randomUUID();
      record(tpp, account.id, {
        id,
        status: item.status,
        bookingDate: item.bookingDate,
        valueDate: item.bookingDate,
        amount: item.amount,
        counterpartyName: item.counterpartyName,
        remittanceUnstructured: item.remittance,
        description: [item.counterpartyName, item.remittance].filter(Boolean).join(': '),
      });
      return id;
    },
    async book(accountId, transactionId) {
      const list = tenant(tpp).transactions.get(accountId) ?? [];
      const index = list.findIndex((item) => item.id === transactionId && item.status === 'pending');
      if (index < 0) throw new Error(`no pending transaction ${transactionId}`);
      const item = list[index]!;
      const money = tenant(tpp).money.get(accountId)!;
      money.pending -= item.amount.minor;
      money.booked += item.amount.minor;
      list[index] = { ...item, status: 'booked' };
    },
    async cardAccount({ owner, currency, creditLimit }) {
      const customer = tenant(tpp).customers.get(owner);
      if (!customer) throw new Error(`no customer ${owner}`);
      const card: BankCardAccount = {
        id: randomUUID(),
        maskedPan: `525412******${String(numbers++).slice(-4)}`,
        name: 'Kredittkort',
        product: 'KREDITTKORT',
        currency,
        creditLimit,
        ownerName: customer.name,
        ownerCustomerNumber: owner,
      };
      tenant(tpp).cards.set(card.id, card);
      return card;
    },
    async cardTransaction(cardAccountId, item) {
      const card = tenant(tpp).cards.get(cardAccountId);
      if (!card) throw new Error(`no card account ${cardAccountId}`);
      const id = randomUUID();
      const money = tenant(tpp).money.get(card.id) ?? { booked: 0n, pending: 0n };
      if (item.bookingDate === undefined) money.pending += item.amount.minor;
      else money.booked += item.amount.minor;
      tenant(tpp).money.set(card.id, money);
      const list = tenant(tpp).cardTransactions.get(card.id) ?? [];
      list.push({
        id,
        maskedPan: card.maskedPan,
        status: item.bookingDate === undefined ? 'pending' : 'booked',
        transactionDate: item.transactionDate,
        bookingDate: item.bookingDate,
        amount: item.amount,
        originalAmount: item.originalAmount,
        merchant: item.merchant,
      });
      tenant(tpp).cardTransactions.set(card.id, list);
      return id;
    },
  });

  return { bank, seed, settleAccepted };
}
