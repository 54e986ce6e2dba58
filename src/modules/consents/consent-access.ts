import { checkNorwegianBban } from '../../domain/bban.js';
import { checkCurrencyCode } from '../../domain/currencies.js';
import { checkIban } from '../../domain/iban.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';

/*
 * What a consent asks for (docs/design.md §2b), read from the Berlin Group `access` object. Four
 * kinds: bank-offered (empty lists: the PSU picks the accounts on the SCA page), detailed
 * (account references), global (`allPsd2`) and account list only (`availableAccounts` /
 * `availableAccountsWithBalance`). Pure: no I/O; refusals are 400 FORMAT_ERROR naming the field.
 */

export const ACCESS_KINDS = ['accounts', 'balances', 'transactions'] as const;
/** What a TPP may read of an account: its details, its balances, its transactions. */
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** An account named in a consent: a payment account by BBAN or IBAN, a card account by masked PAN. */
export type ConsentReference =
  | { readonly bban: string; readonly currency?: string | undefined }
  | { readonly iban: string; readonly currency?: string | undefined }
  | { readonly maskedPan: string; readonly currency?: string | undefined };

export type RequestedAccess =
  | {
      readonly kind: 'bank-offered';
      /** The access kinds asked for (those sent as empty lists). */
      readonly kinds: readonly AccessKind[];
      readonly ownerName: boolean;
    }
  | {
      readonly kind: 'detailed';
      readonly accounts: readonly ConsentReference[];
      readonly balances: readonly ConsentReference[];
      readonly transactions: readonly ConsentReference[];
      /** The references whose owner name is asked for. */
      readonly ownerName: readonly ConsentReference[];
    }
  | { readonly kind: 'global'; readonly ownerName: boolean }
  | { readonly kind: 'account-list'; readonly withBalance: boolean; readonly ownerName: boolean };

export type ConsentKind = RequestedAccess['kind'];

type AllAccounts = 'allAccounts' | 'allAccountsWithOwnerName';

/** The access object as the wire schema lets it through (consent.schemas.ts). */
export interface AccessBody {
  readonly accounts?: readonly ReferenceBody[];
  readonly balances?: readonly ReferenceBody[];
  readonly transactions?: readonly ReferenceBody[];
  readonly additionalInformation?: { readonly ownerName?: readonly ReferenceBody[] };
  readonly availableAccounts?: AllAccounts;
  readonly availableAccountsWithBalance?: AllAccounts;
  readonly allPsd2?: AllAccounts;
}

export interface ReferenceBody {
  readonly bban?: string;
  readonly iban?: string;
  readonly maskedPan?: string;
  readonly pan?: string;
  readonly currency?: string;
}

/** A masked card number: digits with the middle hidden by `*`, e.g. 525412******3241. */
const MASKED_PAN = /^[0-9]{4,8}\*{2,10}[0-9]{4}$/;

function formatError(path: string, en: string, nb: string): AppError {
  return new AppError('FORMAT_ERROR', { path, detail: localized(en, nb) });
}

function checkReference(body: ReferenceBody, path: string): ConsentReference {
  if (body.pan !== undefined) {
    throw formatError(
      `${path}.pan`,
      'a card account is named by maskedPan, never by its full card number',
      'en kortkonto oppgis med maskedPan, aldri med hele kortnummeret',
    );
  }
  const given = (['bban', 'iban', 'maskedPan'] as const).filter((field) => body[field] !== undefined);
  if (given.length !== 1) {
    throw formatError(
      path,
      'name the account by exactly one of bban, iban or maskedPan',
      'oppgi kontoen med nøyaktig én av bban, iban eller maskedPan',
    );
  }
  let currency: string | undefined;
  if (body.currency !== undefined) {
    const checked = checkCurrencyCode(body.currency);
    if (!checked.ok) throw new AppError('FORMAT_ERROR', { path: `${path}.currency`, detail: checked.reason });
    currency = checked.value;
  }
  const withCurrency = currency === undefined ? {} : { currency };
  if (body.bban !== undefined) {
    const checked = checkNorwegianBban(body.bban);
    if (!checked.ok) throw new AppError('FORMAT_ERROR', { path: `${path}.bban`, detail: checked.reason });
    return { bban: checked.value, ...withCurrency };
  }
  if (body.iban !== undefined) {
    const checked = checkIban(body.iban);
    if (!checked.ok) throw new AppError('FORMAT_ERROR', { path: `${path}.iban`, detail: checked.reason });
    return { iban: checked.value, ...withCurrency };
  }
  const masked = body.maskedPan ?? '';
  if (!MASKED_PAN.test(masked)) {
    throw formatError(
      `${path}.maskedPan`,
      'maskedPan must be a masked card number (its first 4 to 8 digits, 2 to 10 asterisks and its last 4 digits), such as 525412******3241',
      'maskedPan må være et maskert kortnummer (de første 4 til 8 sifrene, 2 til 10 stjerner og de siste 4 sifrene), som 525412******3241',
    );
  }
  return { maskedPan: masked, ...withCurrency };
}

/** The key two references of the same account share (the currency aside). */
export function referenceKey(reference: ConsentReference): string {
  if ('bban' in reference) return `bban:${reference.bban}`;
  if ('iban' in reference) return `iban:${reference.iban}`;
  return `maskedPan:${reference.maskedPan}`;
}

/**
 * Reads `access`. `recurringIndicator` matters: an account-list consent is one-off only (the
 * Berlin Group's rule), refused as recurring rather than silently made one-off.
 */
export function checkAccess(access: AccessBody, recurringIndicator: boolean): RequestedAccess {
  const lists = ACCESS_KINDS.filter((kind) => access[kind] !== undefined);
  const ownerNameList = access.additionalInformation?.ownerName;
  const listed = lists.some((kind) => (access[kind]?.length ?? 0) > 0);
  const wholesale = (['allPsd2', 'availableAccounts', 'availableAccountsWithBalance'] as const).filter(
    (field) => access[field] !== undefined,
  );

  if (wholesale.length > 1) {
    throw formatError(
      `access.${wholesale[1]}`,
      `${wholesale[0]} and ${wholesale[1]} cannot be asked together`,
      `${wholesale[0]} og ${wholesale[1]} kan ikke bes om sammen`,
    );
  }
  const [whole] = wholesale;
  if (whole !== undefined) {
    if (listed || ownerNameList !== undefined) {
      throw formatError(
        `access.${whole}`,
        `${whole} cannot be combined with account lists`,
        `${whole} kan ikke kombineres med kontolister`,
      );
    }
    const ownerName = access[whole] === 'allAccountsWithOwnerName';
    if (whole === 'allPsd2') return { kind: 'global', ownerName };
    if (recurringIndicator) {
      throw formatError(
        'recurringIndicator',
        'a consent for the list of accounts is one-off: send recurringIndicator false',
        'et samtykke til kontolisten er engangs: send recurringIndicator false',
      );
    }
    return { kind: 'account-list', withBalance: whole === 'availableAccountsWithBalance', ownerName };
  }
  if (lists.length === 0) {
    throw formatError(
      'access',
      'ask for accounts, balances, transactions, availableAccounts or allPsd2',
      'be om accounts, balances, transactions, availableAccounts eller allPsd2',
    );
  }
  if (!listed) {
    // Empty lists only: the bank offers the PSU's accounts and the PSU picks them (docs/design.md §2b).
    if (ownerNameList !== undefined && ownerNameList.length > 0) {
      throw formatError(
        'access.additionalInformation.ownerName',
        'a bank-offered consent asks for the owner name with an empty list',
        'et bankstyrt samtykke ber om eiernavn med en tom liste',
      );
    }
    return { kind: 'bank-offered', kinds: lists, ownerName: ownerNameList !== undefined };
  }
  const read = (kind: AccessKind) => (access[kind] ?? []).map((body, index) => checkReference(body, `access.${kind}[${index}]`));
  const detailed = { accounts: read('accounts'), balances: read('balances'), transactions: read('transactions') };
  const named = new Set([...detailed.accounts, ...detailed.balances, ...detailed.transactions].map(referenceKey));
  const ownerName = (ownerNameList ?? []).map((body, index) => checkReference(body, `access.additionalInformation.ownerName[${index}]`));
  ownerName.forEach((reference, index) => {
    if (!named.has(referenceKey(reference))) {
      throw formatError(
        `access.additionalInformation.ownerName[${index}]`,
        'the owner name is asked for an account the consent does not name',
        'eiernavn bes om for en konto samtykket ikke nevner',
      );
    }
  });
  // An empty ownerName list asks for the owner name of every account named.
  const owners =
    ownerNameList !== undefined && ownerNameList.length === 0
      ? [...detailed.accounts, ...detailed.balances, ...detailed.transactions]
      : ownerName;
  return { kind: 'detailed', ...detailed, ownerName: owners };
}

/** Every account a detailed consent names, once each, with the access kinds asked for it. */
export function namedAccounts(
  access: Extract<RequestedAccess, { kind: 'detailed' }>,
): { reference: ConsentReference; kinds: AccessKind[]; ownerName: boolean }[] {
  const byKey = new Map<string, { reference: ConsentReference; kinds: AccessKind[]; ownerName: boolean }>();
  const owners = new Set(access.ownerName.map(referenceKey));
  for (const kind of ACCESS_KINDS) {
    for (const reference of access[kind]) {
      const key = referenceKey(reference);
      const entry = byKey.get(key) ?? { reference, kinds: [], ownerName: owners.has(key) };
      if (!entry.kinds.includes(kind)) entry.kinds.push(kind);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()];
}
