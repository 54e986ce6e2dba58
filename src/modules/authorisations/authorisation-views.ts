import type { Language } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { Authorisation } from './authorisation.model.js';
import { failureReasonOf } from './authorisation.service.js';
import type { ScaStatus } from './sca-status.js';

/** The 201 of a started authorisation (Berlin Group startScaprocessResponse), with its Location. */
export interface StartedAuthorisation {
  readonly location: string;
  readonly body: {
    scaStatus: ScaStatus;
    authorisationId: string;
    _links: { scaRedirect: { href: string }; scaStatus: { href: string } };
  };
}

/** What `POST …/authorisations` answers, whatever the resource: where the PSU goes, where the TPP follows. */
export function startedAuthorisation(authorisation: Authorisation, scaRedirect: string, scaStatusHref: string): StartedAuthorisation {
  return {
    location: scaStatusHref,
    body: {
      scaStatus: authorisation.scaStatus,
      authorisationId: authorisation.id,
      _links: { scaRedirect: { href: scaRedirect }, scaStatus: { href: scaStatusHref } },
    },
  };
}

/**
 * What `GET …/authorisations/{authorisationId}` answers (Berlin Group scaStatusResponse): the
 * scaStatus, and why it failed in the request's language. Unknown (or another resource's): 404.
 */
export function scaStatusView(authorisation: Authorisation | undefined, language: Language): { scaStatus: ScaStatus; psuMessage?: string } {
  if (!authorisation) throw new AppError('RESOURCE_UNKNOWN', { path: 'authorisationId' });
  const reason = failureReasonOf(authorisation);
  return { scaStatus: authorisation.scaStatus, ...(reason ? { psuMessage: reason[language] } : {}) };
}
