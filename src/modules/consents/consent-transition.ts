import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { ActorType } from '../audit/audit-event.js';
import { auditService } from '../audit/audit.service.js';
import type { Grant } from './consent-grant.js';
import { consentRepository } from './consent.repository.js';
import type { Consent } from './consent.model.js';
import { notificationOutbox } from '../notifications/notification.service.js';
import { FINAL_CONSENT_STATUSES, type ConsentStatus } from './consent-status.js';

/** The legal moves of a consent's status (docs/design.md §2b). */
const MOVES: Readonly<Record<ConsentStatus, readonly ConsentStatus[]>> = {
  received: ['valid', 'partiallyAuthorised', 'rejected', 'terminatedByTpp'],
  partiallyAuthorised: ['valid', 'rejected', 'terminatedByTpp'],
  valid: ['expired', 'revokedByPsu', 'terminatedByTpp'],
  rejected: [],
  expired: [],
  revokedByPsu: [],
  terminatedByTpp: [],
};

/** Who approved a consent, what was granted, and when its SCA completed. */
export interface ConsentApproval {
  readonly psuId: string;
  readonly psuCorporateId?: string | undefined;
  readonly grant: Grant;
  /**
   * When its SCA completed by the TPP's bank clock (the sandbox clock a TPP may move), not the real
   * one: the 180 days and the fresh-SCA hour are counted by that clock, so they must start on it.
   */
  readonly scaAt: string;
}

export interface ConsentChange {
  readonly to: ConsentStatus;
  /** Why, for the audit trail. */
  readonly reason: string;
  readonly actor: { readonly type: ActorType; readonly id: string };
  readonly requestId?: string | undefined;
  readonly at: string;
  /** The TPP's bank date, the consent's lastActionDate from now on. */
  readonly today: string;
  /** The approval: who approved it and what was granted. */
  readonly approval?: ConsentApproval | undefined;
}

/**
 * The one way a consent's status changes: an illegal move is refused, the update applies only if
 * nobody changed the status meanwhile (else 409 STATUS_INVALID), and the change is audited, and
 * put in the notification outbox when the consent's TPP asked for notifications, in the caller's
 * transaction.
 */
export async function transitionConsent(trx: DbOrTx, consent: Consent, change: ConsentChange): Promise<Consent> {
  if (!MOVES[consent.status].includes(change.to)) {
    throw new AppError('STATUS_INVALID', {
      detail: localized(
        `a consent in status ${consent.status} cannot become ${change.to}`,
        `et samtykke med status ${consent.status} kan ikke bli ${change.to}`,
      ),
    });
  }
  const applied = await consentRepository.update(trx, consent.id, consent.status, {
    status: change.to,
    lastActionDate: change.today,
    at: change.at,
    ...(change.approval
      ? {
          psuId: change.approval.psuId,
          psuCorporateId: change.approval.psuCorporateId,
          grant: change.approval.grant,
          approvedAt: change.approval.scaAt,
        }
      : {}),
  });
  if (!applied) throw new AppError('STATUS_INVALID');
  await auditService.append(
    trx,
    {
      actor: change.actor,
      requestId: change.requestId,
      action: 'consent.status-changed',
      resource: { type: 'consent', id: consent.id },
      details: { from: consent.status, to: change.to, reason: change.reason },
    },
    change.at,
  );
  await notificationOutbox.statusChanged(
    trx,
    'consent',
    consent.id,
    [{ status: change.to, final: FINAL_CONSENT_STATUSES.has(change.to) }],
    change.at,
  );
  return {
    ...consent,
    status: change.to,
    lastActionDate: change.today,
    statusChangedAt: change.at,
    ...(change.approval
      ? {
          psuId: change.approval.psuId,
          psuCorporateId: change.approval.psuCorporateId ?? consent.psuCorporateId,
          grant: change.approval.grant,
          approvedAt: change.approval.scaAt,
        }
      : {}),
  };
}
