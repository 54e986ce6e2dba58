import type { AccessKind, ConsentReference } from './consent-access.js';
import type { Consent } from './consent.model.js';

/** A reference as the Berlin Group `accountReference` writes it. */
function wire(reference: ConsentReference): Record<string, string> {
  return { ...reference };
}

/**
 * The `access` of `GET /v1/consents/{id}`: what the TPP asked, and for a bank-offered consent once
 * the PSU approved it, the accounts the PSU chose under each kind asked for.
 */
export function accessView(consent: Consent): Record<string, unknown> {
  const access = consent.access;
  switch (access.kind) {
    case 'global':
      return { allPsd2: access.ownerName ? 'allAccountsWithOwnerName' : 'allAccounts' };
    case 'account-list':
      return {
        [access.withBalance ? 'availableAccountsWithBalance' : 'availableAccounts']: access.ownerName
          ? 'allAccountsWithOwnerName'
          : 'allAccounts',
      };
    case 'detailed': {
      const view: Record<string, unknown> = {};
      for (const kind of ['accounts', 'balances', 'transactions'] as const) {
        if (access[kind].length > 0) view[kind] = access[kind].map(wire);
      }
      if (access.ownerName.length > 0) view['additionalInformation'] = { ownerName: access.ownerName.map(wire) };
      return view;
    }
    case 'bank-offered': {
      const grant = consent.grant;
      const chosen = (kind: AccessKind) =>
        (grant?.accounts ?? []).filter((account) => account.kinds.includes(kind)).map((account) => ({ ...account.reference }));
      const view: Record<string, unknown> = Object.fromEntries(access.kinds.map((kind) => [kind, chosen(kind)]));
      if (access.ownerName) {
        view['additionalInformation'] = { ownerName: (grant?.accounts ?? []).map((account) => ({ ...account.reference })) };
      }
      return view;
    }
  }
}
