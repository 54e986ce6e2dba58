/**
 * What `GET …/authorisations/{authorisationId}` answers (scaStatusView): the scaStatus, and a
 * failed one's reason as psuMessage in the request's language, within the Berlin Group's 500
 * characters (psuMessageText) however long the stored reason.
 */
import { describe, expect, it } from 'vitest';
import { PSU_MESSAGE_MAX_LENGTH } from '../../src/domain/psu-message.js';
import type { Authorisation } from '../../src/modules/authorisations/authorisation.model.js';
import { scaStatusView } from '../../src/modules/authorisations/authorisation-views.js';

const AT = '2026-11-20T08:00:00.000Z';

function failed(statusReason: string | undefined): Authorisation {
  return {
    id: 'a1',
    tppId: 't1',
    tppName: 'TPP',
    purpose: 'payment',
    resourceId: 'p1',
    scaStatus: 'failed',
    statusReason,
    expectedPsuId: undefined,
    psuCorporateId: undefined,
    psuId: undefined,
    codeAttempts: 0,
    redirectUri: undefined,
    nokRedirectUri: undefined,
    biometric: false,
    loginCodeHash: undefined,
    loginCodeExpiresAt: undefined,
    expiresAt: AT,
    createdAt: AT,
    statusChangedAt: AT,
  };
}

describe('scaStatusView', () => {
  it('answers a failed one with its reason in the asked language', () => {
    const authorisation = failed(JSON.stringify({ en: 'The app cancelled the payment', nb: 'Appen kansellerte betalingen' }));
    expect(scaStatusView(authorisation, 'en')).toEqual({ scaStatus: 'failed', psuMessage: 'The app cancelled the payment' });
    expect(scaStatusView(authorisation, 'nb')).toEqual({ scaStatus: 'failed', psuMessage: 'Appen kansellerte betalingen' });
  });

  it('cuts a reason longer than 500 characters, in both languages', () => {
    const authorisation = failed(JSON.stringify({ en: 'Refused: '.padEnd(800, 'e'), nb: 'Avvist: '.padEnd(800, 'n') }));
    for (const language of ['en', 'nb'] as const) {
      const { psuMessage } = scaStatusView(authorisation, language);
      expect(psuMessage!.length).toBeLessThanOrEqual(PSU_MESSAGE_MAX_LENGTH);
      expect(psuMessage).toMatch(/…$/);
    }
  });

  it('answers one without a reason with its scaStatus alone', () => {
    expect(scaStatusView({ ...failed(undefined), scaStatus: 'received' }, 'en')).toEqual({ scaStatus: 'received' });
  });
});
