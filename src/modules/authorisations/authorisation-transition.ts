import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { ActorType } from '../audit/audit-event.js';
import { auditService } from '../audit/audit.service.js';
import { authorisationRepository } from './authorisation.repository.js';
import type { NotifiedResourceType } from '../notifications/notification.model.js';
import { notificationOutbox } from '../notifications/notification.service.js';
import type { Authorisation, AuthorisationPurpose } from './authorisation.model.js';
import { approvedScaMove, type ScaStatus } from './sca-status.js';

/** The resource an authorisation's scaStatus is notified for (SCA content), by its purpose; a PSU login has none. */
const NOTIFIED_RESOURCE: Readonly<Record<AuthorisationPurpose, NotifiedResourceType | undefined>> = {
  payment: 'payment',
  'payment-cancellation': 'payment',
  'signing-basket': 'signing-basket',
  consent: 'consent',
  'psu-login': undefined,
};

export interface ScaStatusChange {
  readonly to: ScaStatus;
  /** Why it failed, in words the PSU and the TPP read (psuMessage). */
  readonly reason?: string | undefined;
  /** The PSU who identified (set with psuIdentified). */
  readonly psuId?: string | undefined;
  readonly actor: { readonly type: ActorType; readonly id: string };
  readonly at: string;
}

/**
 * The one way an authorisation's scaStatus changes (docs/design.md §3): an illegal move is refused, the
 * update applies only if nobody changed the status meanwhile, and the move is written to the audit
 * log, and to the notification outbox when the resource's TPP asked for SCA notifications, in the
 * caller's transaction.
 */
export async function transitionAuthorisation(trx: DbOrTx, authorisation: Authorisation, change: ScaStatusChange): Promise<Authorisation> {
  const move = approvedScaMove(authorisation.scaStatus, change.to);
  if (!move) {
    throw new AppError('STATUS_INVALID', {
      detail: localized(
        `an authorisation in scaStatus ${authorisation.scaStatus} cannot move to ${change.to}`,
        `en autorisasjon med scaStatus ${authorisation.scaStatus} kan ikke gå til ${change.to}`,
      ),
    });
  }
  const applied = await authorisationRepository.transition(trx, authorisation.id, move, {
    ...(change.reason === undefined ? {} : { statusReason: change.reason }),
    ...(change.psuId === undefined ? {} : { psuId: change.psuId }),
    at: change.at,
  });
  if (!applied) {
    throw new AppError('STATUS_INVALID', {
      detail: localized('the authorisation changed meanwhile', 'autorisasjonen ble endret i mellomtiden'),
    });
  }
  await auditService.append(
    trx,
    {
      actor: change.actor,
      action: 'authorisation.sca-status-changed',
      resource: { type: 'authorisation', id: authorisation.id },
      details: {
        purpose: authorisation.purpose,
        ...(authorisation.resourceId ? { resourceId: authorisation.resourceId } : {}),
        from: authorisation.scaStatus,
        to: change.to,
        ...(change.reason ? { reason: change.reason } : {}),
      },
    },
    change.at,
  );
  const notified = NOTIFIED_RESOURCE[authorisation.purpose];
  if (notified && authorisation.resourceId !== undefined) {
    await notificationOutbox.scaStatusChanged(
      trx,
      notified,
      authorisation.resourceId,
      { authorisationId: authorisation.id, scaStatus: change.to, cancellation: authorisation.purpose === 'payment-cancellation' },
      change.at,
    );
  }
  return {
    ...authorisation,
    scaStatus: change.to,
    statusReason: change.reason ?? authorisation.statusReason,
    psuId: change.psuId ?? authorisation.psuId,
    statusChangedAt: change.at,
  };
}
