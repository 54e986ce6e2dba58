import type { Language } from '../../domain/localized.js';
import { withinPsuMessage } from '../../domain/psu-message.js';
import { AppError } from '../../errors/app-error.js';
import type { Authorisation } from './authorisation.model.js';
import { failureReasonOf } from './authorisation.service.js';
import type { ScaStatus } from './sca-status.js';

/**
 * What `GET …/authorisations/{authorisationId}` answers (Berlin Group scaStatusResponse): the
 * scaStatus, and why it failed in the request's language. Unknown (or another resource's): 404.
 */
export function scaStatusView(authorisation: Authorisation | undefined, language: Language): { scaStatus: ScaStatus; psuMessage?: string } {
  if (!authorisation) throw new AppError('RESOURCE_UNKNOWN', { path: 'authorisationId' });
  const reason = failureReasonOf(authorisation);
  return { scaStatus: authorisation.scaStatus, ...(reason ? { psuMessage: withinPsuMessage(reason[language]) } : {}) };
}
