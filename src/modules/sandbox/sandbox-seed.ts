import type { CustomerType, EngagementRole } from './sandbox-bank.model.js';
import type { TransactionProfile } from './transaction-generator.js';

/**
 * The documented sandbox set that `POST /v1/sandbox/initialize` seeds (README "Sandbox data"):
 * the test customers of the real sandbox (docs/design.md §6) with accounts whose BBANs
 * carry valid check digits (the real sandbox's sample numbers do not). Balances are exact: the
 * generated history is topped up by an opening-balance posting so closingBooked is what is
 * written here, whatever day initialize runs; pending items then make `expected` differ.
 */

export interface SeedPending {
  readonly amount: string;
  readonly counterparty: string;
  readonly text: string;
}

export interface SeedAccount {
  readonly bban: string;
  readonly name: string;
  readonly product: string;
  readonly cashAccountType: string;
  readonly currency: string;
  readonly closingBooked: string;
  /** A credit line: interimAvailable is expected plus this. */
  readonly creditLimit?: string;
  readonly profile: TransactionProfile;
  /** Booked transactions generated over the last SEED_HISTORY_DAYS days. */
  readonly transactions: number;
  readonly pending?: readonly SeedPending[];
}

export interface SeedCardAccount {
  readonly maskedPan: string;
  readonly name: string;
  readonly product: string;
  readonly currency: string;
  readonly creditLimit: string;
  readonly closingBooked: string;
  readonly purchases: number;
  readonly pending: readonly { readonly amount: string; readonly details: string; readonly merchantCategoryCode: string }[];
}

export interface SeedCustomer {
  readonly customerNumber: string;
  readonly customerType: CustomerType;
  readonly name: string;
  readonly accounts: readonly SeedAccount[];
  readonly cardAccounts: readonly SeedCardAccount[];
}

export interface SeedEngagement {
  readonly customer: string;
  readonly bban: string;
  readonly roles: readonly EngagementRole[];
  readonly registerLimit?: string;
  readonly approvalLimit?: string;
}

export interface SeedAgreement {
  readonly owner: string;
  readonly organisationNumber: string;
  readonly name: string;
  readonly engagements: readonly SeedEngagement[];
}

/** How far back the booked history of seeded accounts reaches (about three months). */
export const SEED_HISTORY_DAYS = 90;

const BOTH: readonly EngagementRole[] = ['REGISTER', 'VIEW'];

export const SANDBOX_SEED: { readonly customers: readonly SeedCustomer[]; readonly agreements: readonly SeedAgreement[] } = {
  customers: [
    {
      customerNumber: '13039319955',
      customerType: 'PRIVATE',
      name: 'Ola Nordmann',
      accounts: [
        {
          bban: '12341100028',
          name: 'Brukskonto',
          product: 'Totalkonto',
          cashAccountType: 'CACC',
          currency: 'NOK',
          closingBooked: '34567.89',
          profile: 'private',
          transactions: 60,
          pending: [{ amount: '-312.40', counterparty: 'REMA 1000 Nygårdsgaten', text: 'Reservasjon varekjøp REMA 1000' }],
        },
        {
          bban: '12341200022',
          name: 'Sparekonto',
          product: 'Høyrentekonto',
          cashAccountType: 'SVGS',
          currency: 'NOK',
          closingBooked: '150000.00',
          profile: 'savings',
          transactions: 3,
        },
      ],
      cardAccounts: [
        {
          maskedPan: '525412******3241',
          name: 'Ola Nordmann Mastercard',
          product: 'Mastercard Gold',
          currency: 'NOK',
          creditLimit: '50000.00',
          closingBooked: '-3456.70',
          purchases: 12,
          pending: [{ amount: '-249.00', details: 'Peppes Pizza Bryggen, Bergen', merchantCategoryCode: '5812' }],
        },
      ],
    },
    {
      customerNumber: '12085592767',
      customerType: 'PRIVATE',
      name: 'Per Olsen',
      accounts: [
        {
          bban: '12342100013',
          name: 'Brukskonto',
          product: 'Totalkonto',
          cashAccountType: 'CACC',
          currency: 'NOK',
          closingBooked: '18912.45',
          creditLimit: '10000.00',
          profile: 'private',
          transactions: 50,
          pending: [{ amount: '-89.90', counterparty: 'KIWI Danmarksplass', text: 'Reservasjon varekjøp KIWI' }],
        },
        {
          bban: '12342200026',
          name: 'Sparekonto',
          product: 'Høyrentekonto',
          cashAccountType: 'SVGS',
          currency: 'NOK',
          closingBooked: '52300.00',
          profile: 'savings',
          transactions: 3,
        },
      ],
      cardAccounts: [
        {
          maskedPan: '492500******7788',
          name: 'Per Olsen Visa',
          product: 'Visa Classic',
          currency: 'NOK',
          creditLimit: '30000.00',
          closingBooked: '-1234.50',
          purchases: 8,
          pending: [{ amount: '-599.00', details: 'Elkjøp Lagunen, Rådal', merchantCategoryCode: '5732' }],
        },
      ],
    },
    {
      customerNumber: '18129215603',
      customerType: 'CORPORATE',
      name: 'Fjordbris Regnskap AS',
      accounts: [
        {
          bban: '12343100017',
          name: 'Driftskonto',
          product: 'Bedriftskonto',
          cashAccountType: 'CACC',
          currency: 'NOK',
          closingBooked: '845230.50',
          profile: 'corporate',
          transactions: 40,
        },
        {
          bban: '12343200038',
          name: 'Skattetrekkskonto',
          product: 'Skattetrekkskonto',
          cashAccountType: 'TAXE',
          currency: 'NOK',
          closingBooked: '96400.00',
          profile: 'tax',
          transactions: 4,
        },
      ],
      cardAccounts: [],
    },
    {
      customerNumber: '20079518612',
      customerType: 'CORPORATE',
      name: 'Nordlys Bygg AS',
      accounts: [
        {
          bban: '12344100010',
          name: 'Driftskonto',
          product: 'Bedriftskonto',
          cashAccountType: 'CACC',
          currency: 'NOK',
          closingBooked: '1254780.00',
          profile: 'corporate',
          transactions: 40,
        },
        {
          bban: '12344200023',
          name: 'Valutakonto EUR',
          product: 'Valutakonto',
          cashAccountType: 'CACC',
          currency: 'EUR',
          closingBooked: '45120.75',
          profile: 'corporate',
          transactions: 8,
        },
      ],
      cardAccounts: [],
    },
  ],
  agreements: [
    {
      owner: '18129215603',
      organisationNumber: '923456783',
      name: 'Fjordbris Regnskap AS',
      engagements: [
        { customer: '13039319955', bban: '12343100017', roles: BOTH, approvalLimit: '100000.00' },
        { customer: '13039319955', bban: '12343200038', roles: BOTH },
        { customer: '12085592767', bban: '12343100017', roles: ['VIEW'] },
      ],
    },
    {
      owner: '20079518612',
      organisationNumber: '998877660',
      name: 'Nordlys Bygg AS',
      engagements: [
        { customer: '12085592767', bban: '12344100010', roles: BOTH, registerLimit: '50000.00', approvalLimit: '0' },
        { customer: '12085592767', bban: '12344200023', roles: BOTH },
        { customer: '13039319955', bban: '12344100010', roles: BOTH },
      ],
    },
  ],
};
