import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { localized } from '../../domain/localized.js';
import {
  BERLIN_GROUP_NOT_TAKEN,
  Link,
  NotificationRequestHeaders,
  PATTERN_TEXT,
  ResourceId,
  SignedRequestHeaders,
  signedErrorResponses,
  type BerlinGroupNotTaken,
} from '../../http/schemas/common.schemas.js';
import { FREQUENCIES, type Frequency } from '../../domain/periodic-schedule.js';
import { PSU_MESSAGE_MAX_LENGTH } from '../../domain/psu-message.js';
import { TRANSACTION_STATUSES, type TransactionStatus } from './payment-status.js';

/*
 * Wire schemas of payment initiation (Berlin Group 1.3.12 names, Norwegian profile). They check
 * shape, types and lengths; the rules that need arithmetic or other fields (check digits,
 * currencies, KID, dates, regulatory reporting) live in payment-rules.ts, which names the field
 * it refuses just as these do. Unknown fields are refused, so a misspelt one is never ignored; a
 * Berlin Group member the bank does not take is listed under BERLIN_GROUP_NOT_TAKEN beside the
 * properties, and refused as such.
 */

const strict = { additionalProperties: false } as const;

/** Text with at least one visible character and no control characters. */
const VISIBLE_TEXT = '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]*$';

const text = (maxLength: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: VISIBLE_TEXT,
    [PATTERN_TEXT]: 'must contain a visible character and no control characters (such as a tab or a line break)',
    ...(description ? { description } : {}),
  });

/** The Berlin Group accountReference members a payment's accounts are not named by. */
function accountReferencesNotTaken(): BerlinGroupNotTaken {
  const byNumber = localized('a payment names its accounts by bban or iban', 'en betaling oppgir kontoene sine med bban eller iban');
  return { pan: byNumber, maskedPan: byNumber, msisdn: byNumber, other: byNumber };
}

export const AccountReference = Type.Object(
  {
    iban: Type.Optional(
      Type.String({ maxLength: 42, description: 'IBAN in wire form (no spaces): mod-97, and MOD11 on the BBAN part of a Norwegian one' }),
    ),
    bban: Type.Optional(Type.String({ maxLength: 30, description: 'Norwegian BBAN, 11 digits with a MOD11 check digit' })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' })),
    cashAccountType: Type.Optional(Type.String({ maxLength: 35 })),
  },
  { ...strict, [BERLIN_GROUP_NOT_TAKEN]: accountReferencesNotTaken() },
);
export type AccountReference = Static<typeof AccountReference>;

export const Amount = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' }),
    amount: Type.String({
      maxLength: 20,
      description: 'A string such as "100.33", with at most the currency\'s minor units (a JSON number is refused)',
    }),
  },
  strict,
);
export type Amount = Static<typeof Amount>;

/**
 * The address of every product (`creditorAddress`), in either spelling: the Berlin Group 1.3.12
 * names (`streetName`, `postCode`, `townName`) or those of the bank's documentation (`street`,
 * `postalCode`, `city`), mixed as the TPP likes. A part given under both names must have the same
 * value (payment-rules.ts, domain/postal-address.ts); the payment is stored and answered with the
 * names the TPP sent.
 */
export const PostalAddress = Type.Object(
  {
    streetName: Type.Optional(text(70, 'Berlin Group name of the street; the same part as `street`')),
    street: Type.Optional(text(70, "The bank documentation's name of the street; the same part as `streetName`")),
    buildingNumber: Type.Optional(text(16)),
    postCode: Type.Optional(text(16, 'Berlin Group name of the postal code; the same part as `postalCode`')),
    postalCode: Type.Optional(text(16, "The bank documentation's name of the postal code; the same part as `postCode`")),
    townName: Type.Optional(
      text(35, 'Berlin Group name of the town; the same part as `city`. NCBCT and CBCT need the town: `townName` or `city`'),
    ),
    city: Type.Optional(text(35, "The bank documentation's name of the town; the same part as `townName`")),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  },
  {
    ...strict,
    description:
      "Berlin Group names (streetName, postCode, townName) or the bank documentation's (street, postalCode, city), in any mix. " +
      'A part sent under both names must have the same value, else 400 FORMAT_ERROR naming the field. Answers use the names sent.',
  },
);
export type PostalAddress = Static<typeof PostalAddress>;

export const StructuredRemittance = Type.Object(
  {
    reference: Type.String({ maxLength: 35, description: 'The KID when referenceType is SCOR (or absent)' }),
    referenceType: Type.Optional(Type.String({ maxLength: 35, description: 'SCOR for a KID' })),
    referenceIssuer: Type.Optional(Type.String({ maxLength: 35 })),
  },
  strict,
);
export type StructuredRemittance = Static<typeof StructuredRemittance>;

/** The single structured remittance: still taken, stored and answered as a one-entry remittanceInformationStructuredArray. */
const DeprecatedStructuredRemittance = Type.Object(StructuredRemittance.properties, {
  ...strict,
  deprecated: true,
  description:
    'Deprecated: send remittanceInformationStructuredArray. Still taken (never together with the array: 400 FORMAT_ERROR); ' +
    'the payment is stored and answered with the array.',
});

const IsoDateText = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });

const ChargeBearer = Type.Union([Type.Literal('DEBT'), Type.Literal('CRED'), Type.Literal('SHAR'), Type.Literal('SLEV')], {
  description:
    'ISO 20022 ChargeBearerType1Code. Norwegian domestic and SEPA transfers share the charges (each party pays its own bank): ' +
    'they take SHAR or SLEV; DEBT and CRED only the cross-border products',
});

/** Fields every credit transfer has. */
const transferFields = {
  endToEndIdentification: Type.Optional(text(35)),
  /** Berlin Group's optional instruction id (a bulk item's own reference, as TPPs send it); kept and echoed. */
  instructionIdentification: Type.Optional(text(35)),
  debtorName: Type.Optional(text(70, "The debtor's name as the TPP knows it: kept and echoed; the bank pays from the account's owner")),
  instructedAmount: Amount,
  creditorAccount: AccountReference,
  creditorAgent: Type.Optional(
    Type.String({
      description: 'BIC of the creditor bank. A domestic payment is routed by the account number: the BIC is checked, kept and echoed',
    }),
  ),
  creditorAgentName: Type.Optional(text(140, "The creditor bank's name: kept and echoed")),
  creditorName: text(70),
  ultimateCreditor: Type.Optional(text(70)),
  ultimateDebtor: Type.Optional(text(70)),
  purposeCode: Type.Optional(
    Type.String({ pattern: '^[A-Z]{4}$', [PATTERN_TEXT]: 'must be an ISO 20022 purpose code: four capital letters' }),
  ),
  chargeBearer: Type.Optional(ChargeBearer),
  remittanceInformationUnstructured: Type.Optional(text(140)),
  remittanceInformationUnstructuredArray: Type.Optional(
    Type.Array(text(140), {
      description:
        'The message as a Berlin Group array: one entry, taken as remittanceInformationUnstructured (a payment carries one message ' +
        'of at most 140 characters; more entries are 400 FORMAT_ERROR). Stored and answered as remittanceInformationUnstructured',
    }),
  ),
  remittanceInformationStructured: Type.Optional(DeprecatedStructuredRemittance),
  remittanceInformationStructuredArray: Type.Optional(
    Type.Array(StructuredRemittance, {
      minItems: 1,
      maxItems: 10,
      description: 'The KIDs (referenceType SCOR). Answered here also when the payment was sent with remittanceInformationStructured',
    }),
  ),
};

/** The Berlin Group payment members the bank does not take. */
const creditorIdNotTaken: BerlinGroupNotTaken = {
  creditorId: localized(
    'a creditor identifier (such as a SEPA Creditor ID) belongs to direct debits; a credit transfer names its creditor by creditorName and creditorAccount',
    'en kreditor-ID (som en SEPA Creditor ID) hører til direkte debitering; en overføring oppgir mottakeren med creditorName og creditorAccount',
  ),
};

/** The Norwegian currency register's fields (Valutaregisteret). */
const regulatoryReportingFields = {
  regulatoryReportingCode: Type.Optional(Type.String({ maxLength: 10, description: 'A payment-type code of the currency register' })),
  regulatoryReportingInformation: Type.Optional(text(35, 'What the payment is for, in short')),
  regulatoryReportingAmount: Type.Optional(Amount),
};

const singleFields = {
  debtorAccount: AccountReference,
  requestedExecutionDate: Type.Optional(IsoDateText),
};

function body<T extends TProperties>(properties: T, title: string, notTaken: BerlinGroupNotTaken = creditorIdNotTaken): TObject<T> {
  return Type.Object(properties, { ...strict, title, [BERLIN_GROUP_NOT_TAKEN]: notTaken });
}

export const NdctBody = body({ ...singleFields, ...transferFields, creditorAddress: Type.Optional(PostalAddress) }, 'NDCT payment');
export const IndctsBody = body({ ...singleFields, ...transferFields, creditorAddress: Type.Optional(PostalAddress) }, 'INDCTS payment');
export const NcbctBody = body(
  {
    ...singleFields,
    ...transferFields,
    creditorAgent: Type.String({ description: 'BIC of the creditor bank' }),
    creditorAddress: PostalAddress,
    ...regulatoryReportingFields,
  },
  'NCBCT payment',
);
export const CbctBody = body(
  {
    ...singleFields,
    ...transferFields,
    creditorAgent: Type.Optional(Type.String({ description: 'BIC of the creditor bank; required unless creditorAccount has an IBAN' })),
    creditorAddress: PostalAddress,
    ...regulatoryReportingFields,
  },
  'CBCT payment',
);
export const SctBody = body(
  {
    ...singleFields,
    ...transferFields,
    creditorAgent: Type.Optional(Type.String({ description: 'BIC of the creditor bank' })),
    creditorAddress: Type.Optional(PostalAddress),
    ...regulatoryReportingFields,
  },
  'SCT payment',
);

/** One payment of a bulk: an NDCT without debtor account and date, which the bulk gives once. */
export const BulkItem = Type.Object({ ...transferFields, creditorAddress: Type.Optional(PostalAddress) }, strict);

/** A time of day for a bulk: the bank executes bulks in its batch runs of a day, at no time of the TPP's choosing. */
const bulkNotTaken: BerlinGroupNotTaken = {
  requestedExecutionTime: localized(
    'the bank executes a bulk in its batch runs of the requested day: send requestedExecutionDate',
    'banken utfører en massebetaling i bunkekjøringene den ønskede dagen: send requestedExecutionDate',
  ),
};

export const MAX_BULK_PAYMENTS = 1000;

export const BulkNdctBody = body(
  {
    paymentInformationId: Type.Optional(text(35)),
    batchBookingPreferred: Type.Optional(Type.Boolean()),
    debtorAccount: AccountReference,
    debtorName: transferFields.debtorName,
    requestedExecutionDate: Type.Optional(IsoDateText),
    payments: Type.Array(BulkItem, { minItems: 1, maxItems: MAX_BULK_PAYMENTS }),
  },
  'Bulk NDCT payment',
  bulkNotTaken,
);

export const PeriodicNdctBody = body(
  {
    debtorAccount: AccountReference,
    ...transferFields,
    creditorAddress: Type.Optional(PostalAddress),
    startDate: IsoDateText,
    endDate: Type.Optional(IsoDateText),
    executionRule: Type.Optional(
      Type.Union([Type.Literal('following'), Type.Literal('preceding'), Type.Literal('preceeding')], {
        description: '`preceeding`, as the bank documentation spells it, is taken as `preceding`',
      }),
    ),
    frequency: Type.Unsafe<Frequency>(Type.String({ enum: [...FREQUENCIES], description: 'Berlin Group frequency code' })),
    dayOfExecution: Type.Optional(Type.String({ maxLength: 2, description: '"1".."31"; 31 is the last day of the month' })),
    monthsOfExecution: Type.Optional(
      Type.Array(Type.String({ maxLength: 2 }), { maxItems: 11, description: 'For MonthlyVariable: months "1".."12", unique' }),
    ),
  },
  'Periodic NDCT payment',
);

export type NdctBody = Static<typeof NdctBody>;
export type NcbctBody = Static<typeof NcbctBody>;
export type CbctBody = Static<typeof CbctBody>;
export type SctBody = Static<typeof SctBody>;
export type BulkNdctBody = Static<typeof BulkNdctBody>;
export type PeriodicNdctBody = Static<typeof PeriodicNdctBody>;
export type BulkItem = Static<typeof BulkItem>;

/** The union of every single-payment body, as the rules read it. */
export type SinglePaymentBody = NdctBody & Partial<NcbctBody>;

/**
 * The Straks fee information's body: the payment to price, as a TPP will initiate it. The amount
 * under its Berlin Group name `instructedAmount`, or as `amount`: one of the two.
 */
export const InstantFeeInformationBody = body(
  {
    debtorAccount: AccountReference,
    instructedAmount: Type.Optional(Amount),
    amount: Type.Optional(Type.Object(Amount.properties, { ...strict, description: 'The same as instructedAmount; send one of the two' })),
    creditorAccount: AccountReference,
  },
  'INDCTS fee information',
  {},
);
export type InstantFeeInformationBody = Static<typeof InstantFeeInformationBody>;

const TransactionFees = Type.Object(
  { currency: Type.String(), amount: Type.String() },
  { description: "Berlin Group transactionFees: the fee the bank charges the debtor for the payment, in the debtor account's currency" },
);
const TransactionFeeIndicator = Type.Boolean({
  description: 'Berlin Group transactionFeeIndicator: true when the payment costs the PSU a fee (transactionFees above 0)',
});

/** The Straks fee information's answer. */
export const InstantFeeInformationResponse = Type.Object({
  transactionFees: TransactionFees,
  transactionFeeIndicator: TransactionFeeIndicator,
});

const TransactionStatus = Type.Unsafe<TransactionStatus>(Type.String({ enum: [...TRANSACTION_STATUSES] }));

export const PaymentCreatedResponse = Type.Object({
  transactionStatus: TransactionStatus,
  paymentId: Type.String(),
  /** A Straks payment's fee, as the fee information gives it. */
  transactionFees: Type.Optional(TransactionFees),
  transactionFeeIndicator: Type.Optional(TransactionFeeIndicator),
  _links: Type.Record(Type.String(), Link),
});

export const PaymentStatusResponse = Type.Object({
  transactionStatus: TransactionStatus,
  fundsAvailable: Type.Optional(Type.Boolean()),
  psuMessage: Type.Optional(Type.String({ maxLength: PSU_MESSAGE_MAX_LENGTH })),
});

export const PaymentCancelResponse = Type.Object({
  transactionStatus: TransactionStatus,
  _links: Type.Record(Type.String(), Link),
});

/** The payment as submitted plus its status: any of the bodies above. */
export const PaymentWithStatusResponse = Type.Object({ transactionStatus: TransactionStatus }, { additionalProperties: true });

export const PaymentIdParams = Type.Object({
  paymentProduct: Type.String({ maxLength: 100 }),
  paymentId: ResourceId,
});

export const LogicalDuplicateQuery = Type.Object(
  {
    allowLogicalDuplicate: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true creates the payment even if an equal one (debtor, creditor, amount, date, remittance) is still live',
      }),
    ),
  },
  strict,
);

export const NoQuery = Type.Object({}, strict);

export const InitiationHeaders = Type.Object({
  ...SignedRequestHeaders.properties,
  'psu-id': Type.Optional(Type.String({ description: 'Norwegian national identity number or D-number of the PSU' })),
  'psu-corporate-id': Type.Optional(Type.String({ description: 'Organisation number; required for an account of a corporate agreement' })),
  'tpp-redirect-uri': Type.Optional(Type.String()),
  'tpp-nok-redirect-uri': Type.Optional(Type.String()),
  'tpp-explicit-authorisation-preferred': Type.Optional(
    Type.String({ description: 'true: the TPP starts the authorisation itself (e.g. for a signing basket)' }),
  ),
  ...NotificationRequestHeaders,
});

/** The fee information names the PSU as the initiation does: the same checks of its right to pay from the account. */
export const FeeInformationHeaders = Type.Object({
  ...SignedRequestHeaders.properties,
  'psu-id': InitiationHeaders.properties['psu-id'],
  'psu-corporate-id': InitiationHeaders.properties['psu-corporate-id'],
  'tpp-redirect-uri': InitiationHeaders.properties['tpp-redirect-uri'],
  'tpp-nok-redirect-uri': InitiationHeaders.properties['tpp-nok-redirect-uri'],
});

export const initiationResponses = { 201: PaymentCreatedResponse, ...signedErrorResponses() };
