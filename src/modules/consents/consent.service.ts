import { newTimeOrderedId } from '../../db/time-ordered-id.js';
import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { CreatedResource } from '../../domain/created-resource.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import { notificationAnswerHeaders, notificationOutbox, type NotificationService } from '../notifications/notification.service.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditService } from '../audit/audit.service.js';
import type { AuthorisableResource } from '../authorisations/authorisation-start.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { BankClock, BankMoment } from '../clock/bank-clock.js';
import type { CoreBanking } from '../../bank/core-banking.port.js';
import { isEngaged } from '../../bank/account-and-permission.js';
import { checkAccess, namedAccounts, type RequestedAccess } from './consent-access.js';
import { consentCreationLinks, consentLinks, consentPath } from './consent-links.js';
import { isAwaitingApproval, type ConsentStatus } from './consent-status.js';
import { transitionConsent } from './consent-transition.js';
import { hasExpired, validityOf } from './consent-validity.js';
import { accessView } from './consent-view.js';
import { consentRepository } from './consent.repository.js';
import type { Consent } from './consent.model.js';
import type { ConsentBody } from './consent.schemas.js';

export interface ConsentSettings {
  readonly publicUrl: string;
}

/** A consent request after the front door: who, what, and the request's identity. */
export interface ConsentCreation {
  readonly tpp: TppIdentity;
  readonly body: ConsentBody;
  readonly headers: RequestHeaders;
  /** X-Request-ID (lower case), recorded with the consent and its audit event. */
  readonly requestId: string;
}

/** The 201 of a consent's creation (Berlin Group consentsResponse-201). */
export interface ConsentCreated {
  readonly consentStatus: 'received';
  readonly consentId: string;
  readonly _links: ReturnType<typeof consentCreationLinks>;
}

export interface ConsentInformation {
  access: Record<string, unknown>;
  recurringIndicator: boolean;
  validUntil: string;
  frequencyPerDay: number;
  lastActionDate: string;
  consentStatus: ConsentStatus;
  _links: Record<string, { href: string }>;
}

/**
 * A PSU of the bank, as the PSU's own page knows it: its PSU-ID within one bank. `tppId` names the
 * sandbox's mock bank of that TPP (each TPP's is a bank of its own); undefined in production, where
 * the PSU's consents given to every TPP are its own.
 */
export interface PsuOfBank {
  readonly psuId: string;
  readonly tppId: string | undefined;
}

/** What a PSU's revocation did: revoked now, not a consent this PSU gave, or one that is no longer valid. */
export type Revocation = 'revoked' | 'unknown' | 'not-valid';

/** How many of a PSU's consents its page lists (the newest). */
export const PSU_CONSENTS_LISTED = 200;

export interface ConsentsService {
  /** Creates a consent (its SCA started with it unless the TPP prefers to start it), or answers a retry with the stored answer. */
  /** Creates the consent (and its implicit authorisation) in one transaction, whose value it is. */
  create(creation: ConsentCreation): Promise<CreatedResource<ConsentCreated>>;
  /** The TPP's consent, its status brought up to date (expiry); another TPP's or none: 401 CONSENT_UNKNOWN. */
  find(tpp: TppIdentity, consentId: string): Promise<Consent>;
  view(consent: Consent): ConsentInformation;
  /** `DELETE /v1/consents/{id}`: terminatedByTpp, its open authorisations ended; a consent already ended stays as it is. */
  terminate(tpp: TppIdentity, consentId: string, requestId: string): Promise<void>;
  /**
   * The consent a read names in Consent-ID, if it allows reading now: unknown 401 CONSENT_UNKNOWN,
   * expired 401 CONSENT_EXPIRED, any other status but valid 401 CONSENT_INVALID. `at`: the read's
   * one reading of the TPP's bank clock, which its other checks use too.
   */
  usable(tpp: TppIdentity, consentId: string, at: BankMoment): Promise<Consent>;
  /** A read went through (at the read's moment): its lastActionDate, and a one-off consent is used up (expired). */
  recordUse(consent: Consent, requestId: string, moment: BankMoment): Promise<void>;
  /** The consents the PSU gave, newest first, each with its status brought up to date (expiry). */
  listGivenBy(psu: PsuOfBank): Promise<Consent[]>;
  /**
   * The PSU revokes a consent it gave, on its own page: valid → revokedByPsu (audited, actor the
   * PSU); the TPP's reads with it are refused from then on. Another PSU's consent is `unknown`.
   */
  revokeByPsu(psu: PsuOfBank, consentId: string): Promise<Revocation>;
  /** `POST /v1/consents/{id}/authorisations`: a new authorisation and where to send the PSU. */
  /**
   * The consent as `POST …/consents/{consentId}/authorisations` starts an authorisation for it, read
   * under its lock in the starting transaction; refused unless it waits for approval.
   */
  authorisationTarget(trx: DbOrTx, consent: Consent): Promise<AuthorisableResource>;
}

const SYSTEM = { type: 'system', id: 'consent-expiry' } as const;

/**
 * Account information consents (docs/design.md §2b): creation with its validity rules and the
 * implicit start of its SCA, reads of the consent and its status, the TPP's termination, and the
 * checks every account read makes on the consent it names.
 */
export function createConsentsService(
  db: Db,
  coreBanking: CoreBanking,
  authorisations: AuthorisationService,
  notifications: Pick<NotificationService, 'decide'>,
  clock: BankClock,
  settings: ConsentSettings,
): ConsentsService {
  const now = () => clock.realNow();

  /**
   * A consent naming accounts of a corporate agreement needs that agreement in PSU-Corporate-ID, as
   * a payment from one does (400 without it, 401 with another), when the PSU the TPP names (PSU-ID
   * or its token) is engaged on the account: that PSU knows the account is the agreement's. For
   * anyone else it is an account the TPP may not be told about yet, as one the bank does not know or
   * another customer's: the consent is created and its SCA page tells the PSU who logs in that it
   * cannot be shared. Else a TPP could probe account numbers for corporate accounts and, by trying
   * organisation numbers, for their owners (docs/design.md §2b).
   */
  async function checkCorporateId(
    tppId: string,
    access: RequestedAccess,
    psuId: string | undefined,
    psuCorporateId: string | undefined,
  ): Promise<void> {
    if (access.kind !== 'detailed' || psuId === undefined) return;
    for (const { reference } of namedAccounts(access)) {
      if ('maskedPan' in reference) continue;
      const account = await coreBanking.findAccount({ tppId }, reference);
      if (account?.organisationNumber === undefined) continue;
      const engagement = await coreBanking.permission({ tppId }, psuId, account.id, account.organisationNumber);
      if (!isEngaged(engagement)) continue;
      if (psuCorporateId === undefined) throw new AppError('CORPORATE_ID_REQUIRED', { path: 'PSU-Corporate-ID' });
      if (psuCorporateId !== account.organisationNumber) throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
    }
  }

  /** Moves a valid consent past its validity to expired; a concurrent change wins quietly. */
  /** `at`: the bank clock as the caller read it; read here when not given. */
  async function expireIfDue(consent: Consent, at?: BankMoment): Promise<Consent> {
    if (consent.status !== 'valid') return consent;
    const { today, now: bankNow } = at ?? (await clock.moment(consent.tppId));
    if (!hasExpired(consent, today, bankNow)) return consent;
    try {
      return await withTransaction(db, (trx) =>
        transitionConsent(trx, consent, { to: 'expired', reason: 'Its validity ended', actor: SYSTEM, at: now().toISOString(), today }),
      );
    } catch {
      return (await consentRepository.findById(db, consent.id)) ?? consent;
    }
  }

  const service: ConsentsService = {
    async create(creation) {
      const { body, headers, tpp } = creation;
      if (body.combinedServiceIndicator === true) {
        throw new AppError('FORMAT_ERROR', {
          path: 'combinedServiceIndicator',
          detail: localized(
            'combined sessions with payment initiation are not offered',
            'kombinerte økter med betalingsinitiering tilbys ikke',
          ),
        });
      }
      const access = checkAccess(body.access, body.recurringIndicator);
      await checkCorporateId(tpp.id, access, headers.psuId?.number, headers.psuCorporateId);
      const today = await clock.today(tpp.id);
      const validity = validityOf(body, today);
      const id = newTimeOrderedId();
      const at = now().toISOString();
      const notification = await notifications.decide(tpp, headers.notification);
      return withTransaction(db, async (trx): Promise<CreatedResource<ConsentCreated>> => {
        const { psuId, psuCorporateId, notification: _wish, ...context } = headers;
        await consentRepository.insert(trx, {
          id,
          tppId: tpp.id,
          access,
          recurring: body.recurringIndicator,
          validUntil: validity.validUntil,
          frequencyPerDay: validity.frequencyPerDay,
          psuId: psuId?.number,
          psuCorporateId,
          lastActionDate: today,
          requestId: creation.requestId,
          requestContext: { ...context, acceptFixes: [...context.acceptFixes] },
          createdAt: at,
        });
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: tpp.id },
            requestId: creation.requestId,
            action: 'consent.created',
            resource: { type: 'consent', id },
            details: { kind: access.kind, validUntil: validity.validUntil, frequencyPerDay: validity.frequencyPerDay },
          },
          at,
        );
        const links = consentLinks(settings.publicUrl, id);
        await notificationOutbox.subscribe(
          trx,
          notification,
          { type: 'consent', id, tppId: tpp.id, selfHref: links.self.href, statusHref: links.status.href },
          at,
        );
        const started = headers.tppExplicitAuthorisationPreferred
          ? undefined
          : await authorisations.create(trx, {
              tpp,
              purpose: 'consent',
              resourceId: id,
              expectedPsuId: psuId?.number,
              psuCorporateId,
              redirectUri: context.tppRedirectUri,
              nokRedirectUri: context.tppNokRedirectUri,
              biometric: context.biometricAuthentication,
            });
        return new CreatedResource(
          links.self.href,
          {
            consentStatus: 'received' as const,
            consentId: id,
            _links: consentCreationLinks(
              settings.publicUrl,
              id,
              started && { authorisationId: started.id, scaRedirect: authorisations.redirectLink(started) },
            ),
          },
          notificationAnswerHeaders(notification),
        );
      });
    },

    async find(tpp, consentId) {
      const consent = await consentRepository.find(db, tpp.id, consentId);
      if (!consent) throw new AppError('CONSENT_UNKNOWN', { path: 'consentId' });
      if (isAwaitingApproval(consent.status)) {
        // An authorisation whose link expired rejects its consent: the read tells the truth.
        if ((await authorisations.expireOverdueOf('consent', [consent.id])) > 0) {
          return (await consentRepository.find(db, tpp.id, consentId)) ?? consent;
        }
        return consent;
      }
      return expireIfDue(consent);
    },

    view(consent) {
      return {
        access: accessView(consent),
        recurringIndicator: consent.recurring,
        validUntil: consent.validUntil,
        frequencyPerDay: consent.frequencyPerDay,
        lastActionDate: consent.lastActionDate,
        consentStatus: consent.status,
        _links: consentLinks(settings.publicUrl, consent.id),
      };
    },

    async terminate(tpp, consentId, requestId) {
      const found = await service.find(tpp, consentId);
      if (!isAwaitingApproval(found.status) && found.status !== 'valid') return;
      const at = now().toISOString();
      const today = await clock.today(tpp.id);
      await withTransaction(db, async (trx) => {
        // The order the SCA flow takes: authorisations first, then the consent.
        await authorisations.lockOf(trx, 'consent', [found.id]);
        await consentRepository.lock(trx, found.id);
        const consent = await consentRepository.find(trx, tpp.id, found.id);
        if (!consent || (!isAwaitingApproval(consent.status) && consent.status !== 'valid')) return;
        const actor = { type: 'tpp' as const, id: tpp.id };
        await authorisations.abandonOpen(
          trx,
          'consent',
          [consent.id],
          localized('The app ended the consent', 'Appen avsluttet samtykket'),
          actor,
        );
        await transitionConsent(trx, consent, { to: 'terminatedByTpp', reason: 'Deleted by the TPP', actor, requestId, at, today });
      });
    },

    async usable(tpp, consentId, at) {
      const found = await consentRepository.find(db, tpp.id, consentId);
      if (!found) throw new AppError('CONSENT_UNKNOWN', { path: 'Consent-ID' });
      const consent = await expireIfDue(found, at);
      if (consent.status === 'expired') throw new AppError('CONSENT_EXPIRED', { path: 'Consent-ID' });
      if (consent.status !== 'valid') {
        throw new AppError('CONSENT_INVALID', {
          path: 'Consent-ID',
          detail: localized(`the consent is ${consent.status}`, `samtykket har status ${consent.status}`),
        });
      }
      return consent;
    },

    async recordUse(consent, requestId, moment) {
      const { today } = moment;
      const at = now().toISOString();
      if (consent.recurring) {
        if (consent.lastActionDate !== today) await consentRepository.update(db, consent.id, 'valid', { lastActionDate: today, at });
        return;
      }
      // A one-off consent serves one read (docs/design.md §2b): of two at once, one gets it.
      try {
        await withTransaction(db, (trx) =>
          transitionConsent(trx, consent, {
            to: 'expired',
            reason: 'A one-off consent, used',
            actor: { type: 'tpp', id: consent.tppId },
            requestId,
            at,
            today,
          }),
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'STATUS_INVALID') throw new AppError('CONSENT_EXPIRED', { path: 'Consent-ID' });
        throw error;
      }
    },

    async listGivenBy(psu) {
      const consents = await consentRepository.listApprovedBy(db, psu.psuId, psu.tppId, PSU_CONSENTS_LISTED);
      const current: Consent[] = [];
      for (const consent of consents) current.push(await expireIfDue(consent));
      return current;
    },

    async revokeByPsu(psu, consentId) {
      const given = (consent: Consent | undefined): consent is Consent =>
        consent !== undefined &&
        consent.approvedAt !== undefined &&
        consent.psuId === psu.psuId &&
        (psu.tppId === undefined || consent.tppId === psu.tppId);
      const found = await consentRepository.findById(db, consentId);
      if (!given(found)) return 'unknown';
      if ((await expireIfDue(found)).status !== 'valid') return 'not-valid';
      const at = now().toISOString();
      const today = await clock.today(found.tppId);
      return withTransaction(db, async (trx): Promise<Revocation> => {
        await consentRepository.lock(trx, found.id);
        const consent = await consentRepository.findById(trx, found.id);
        if (!given(consent)) return 'unknown';
        if (consent.status !== 'valid') return 'not-valid';
        await transitionConsent(trx, consent, {
          to: 'revokedByPsu',
          reason: 'Revoked by the PSU in the online bank',
          actor: { type: 'psu', id: psu.psuId },
          at,
          today,
        });
        return 'revoked';
      });
    },

    async authorisationTarget(trx, found) {
      // Checked under the consent's lock, on its current row: an approval or a DELETE at the same
      // moment cannot slip in between.
      await consentRepository.lock(trx, found.id);
      const consent = (await consentRepository.find(trx, found.tppId, found.id)) ?? found;
      if (!isAwaitingApproval(consent.status)) {
        throw new AppError('STATUS_INVALID', {
          detail: localized(
            `the consent is not waiting for approval (status ${consent.status})`,
            `samtykket venter ikke på godkjenning (status ${consent.status})`,
          ),
        });
      }
      const context = consent.requestContext;
      return {
        id: consent.id,
        href: `${settings.publicUrl}${consentPath(consent.id)}`,
        psuCorporateId: consent.psuCorporateId,
        // Once one PSU has approved (partiallyAuthorised), the next approver is another one: none is expected.
        expectedPsuId: consent.status === 'received' ? consent.psuId : undefined,
        redirectUri: context.tppRedirectUri,
        nokRedirectUri: context.tppNokRedirectUri,
      };
    },
  };
  return service;
}
