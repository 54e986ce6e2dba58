/**
 * The PSU's own page of consents and payments as pure HTML:
 * - every interpolated value (TPP name, creditor, consent id, CSRF token) is escaped;
 * - only a valid consent has a Revoke form, carrying the visit's CSRF token and the consent's id;
 * - what a consent shares is said from what the PSU granted (accounts and kinds, or the list only);
 * - the login asks for the PSU-ID only (the bank is the visit's); without a link the sandbox's page
 *   says where the link comes from; texts follow the frame's language;
 * - no scripts, and the one stylesheet the SCA pages' CSP allows.
 */
import { describe, expect, it } from 'vitest';
import type { Consent } from '../../src/modules/consents/consent.model.js';
import type { Payment } from '../../src/modules/payments/payment.model.js';
import { localized } from '../../src/domain/localized.js';
import { overviewLinkNeededPage, overviewLoginPage, overviewPage } from '../../src/modules/psu-overview/psu-overview-pages.js';
import { PAGE_STYLE, type PageFrame } from '../../src/modules/sca-redirect/sca-pages.js';

const HOSTILE = `"'><script>alert(1)</script>`;
const HOSTILE_ESCAPED = '&#34;&#39;&#62;&#60;script&#62;alert(1)&#60;/script&#62;';

const frame = (language: 'en' | 'nb' = 'en', sandbox = true): PageFrame => ({
  language,
  bankName: 'Nordic Test Bank',
  sandbox,
  purpose: undefined,
});

function consent(overrides: Partial<Consent> = {}): Consent {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    tppId: 'PSDNO-FSA-1',
    status: 'valid',
    access: { kind: 'detailed', accounts: [], balances: [], transactions: [], ownerName: [] },
    recurring: true,
    validUntil: '2027-03-01',
    frequencyPerDay: 4,
    psuId: '13039319955',
    psuCorporateId: undefined,
    grant: {
      accounts: [
        {
          bankAccountId: 'a1',
          type: 'account',
          kinds: ['accounts', 'balances'],
          ownerName: false,
          reference: { iban: 'NO9386011117947', currency: 'NOK' },
        },
      ],
    },
    approvedAt: '2026-11-20T10:00:00.000Z',
    lastActionDate: '2026-11-24',
    requestId: 'r',
    requestContext: {} as Consent['requestContext'],
    createdAt: '2026-11-20T09:00:00.000Z',
    statusChangedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    tppId: 'PSDNO-FSA-1',
    product: 'norwegian-domestic-credit-transfers',
    status: 'ACSC',
    statusReason: undefined,
    fundsAvailable: undefined,
    requestId: 'r',
    psuId: '13039319955',
    psuCorporateId: undefined,
    debtorAccountId: 'a1',
    currency: 'NOK',
    amountMinor: 123456n,
    requestedExecutionDate: undefined,
    requestContext: {} as Payment['requestContext'],
    createdAt: '2026-11-20T09:00:00.000Z',
    statusChangedAt: '2026-11-20T09:00:00.000Z',
    basketId: undefined,
    awaitingFundsSince: undefined,
    service: 'payments',
    body: { creditorName: HOSTILE } as Payment<'payments'>['body'],
    ...overrides,
  } as Payment;
}

const view = (consents: Consent[], payments: Payment[] = []) => ({
  overview: {
    psuId: '13039319955',
    consents: consents.map((entry) => ({ consent: entry, tppName: HOSTILE })),
    payments: payments.map((entry) => ({ payment: entry, tppName: 'Budget App AS' })),
  },
  csrf: `tok${HOSTILE}`,
  revokeAction: '/psu/consents/revoke',
  logoutAction: '/psu/consents/logout',
});

const revokeForms = (html: string) => [...html.matchAll(/<input type="hidden" name="consentId" value="([^"]+)">/g)].map((m) => m[1]);

describe('the overview page', () => {
  it('escapes what TPPs wrote, and what the server put in attributes', () => {
    const html = overviewPage(frame(), view([consent()], [payment()]));
    expect(html).not.toContain('<script>');
    expect(html).toContain(`<h3 id="consent-0">${HOSTILE_ESCAPED}</h3>`);
    expect(html).toContain(`<dd>${HOSTILE_ESCAPED}</dd>`);
    expect(html).toContain(`name="csrf" value="tok${HOSTILE_ESCAPED}"`);
    expect(html).toContain(`<style>${PAGE_STYLE}</style>`);
    expect(html).not.toMatch(/<script|<link|<img|src=/);
  });

  it('offers Revoke for valid consents only', () => {
    const valid = consent();
    const ended = ['expired', 'revokedByPsu', 'terminatedByTpp'].map((status, index) =>
      consent({ id: `3333333${index}-3333-4333-8333-333333333333`, status: status as Consent['status'] }),
    );
    const html = overviewPage(frame(), view([valid, ...ended]));
    expect(revokeForms(html)).toEqual([valid.id]);
    expect(html).toContain('Revoked by you');
    expect(html).toContain('Ended by the app');
    expect(html).toContain('Expired');
  });

  it('says what is shared: each account with its kinds, or the list of accounts only', () => {
    const detailed = overviewPage(frame(), view([consent()]));
    expect(detailed).toContain('NO9386011117947 (account details, balances)');
    const list = consent({ grant: { accounts: [], listOnly: { withBalance: true } } });
    expect(overviewPage(frame(), view([list]))).toContain('The list of your accounts, with their balances');
    const nb = overviewPage(frame('nb'), view([consent()]));
    expect(nb).toContain('NO9386011117947 (kontoopplysninger, saldo)');
    expect(nb).toContain('<html lang="nb">');
    expect(nb).toContain('Gyldig til');
    expect(nb).toContain('1. mars 2027');
  });

  it('shows a payment with its amount, its status and, for a bulk, how many payments', () => {
    const html = overviewPage(frame(), view([], [payment()]));
    expect(html).toMatch(/NOK\s1,234\.56/);
    expect(html).toContain('Paid');
    const bulk = payment({ service: 'bulk-payments', body: { payments: [{}, {}, {}] } } as unknown as Partial<Payment>);
    expect(overviewPage(frame('nb'), view([], [bulk]))).toContain('3 betalinger');
    expect(overviewPage(frame(), view([], []))).toContain('No app has started a payment for you.');
  });
});

describe('the login page', () => {
  it("asks for the PSU-ID only: the bank is the visit's, never a form field", () => {
    for (const sandbox of [true, false]) {
      const html = overviewLoginPage(frame('en', sandbox), { action: '/psu/consents/login', csrf: HOSTILE });
      expect(html).not.toContain('name="tpp"');
      expect(html).toContain('<label for="psu-id">');
      expect(html).toContain(`name="csrf" value="${HOSTILE_ESCAPED}"`);
    }
  });

  it('without a link, in the sandbox: where the link comes from, in both languages, and no form', () => {
    const en = overviewLinkNeededPage(frame());
    expect(en).not.toContain('<form');
    expect(en).toContain('POST /v1/sandbox/psu-page-links');
    expect(en).not.toContain('role="alert"');
    const nb = overviewLinkNeededPage(frame('nb'), { message: localized('refused', 'Denne lenken er ukjent eller utløpt.') });
    expect(nb).toContain('I sandkassen har hver TPP sin egen sandkassebank.');
    expect(nb).toContain('role="alert">Denne lenken er ukjent eller utløpt.</p>');
    expect(nb).not.toContain('<form');
  });
});
