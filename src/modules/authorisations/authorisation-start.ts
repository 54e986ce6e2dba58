import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { authorisationHref } from './authorisation-links.js';
import type { AuthorisationSubjects } from './authorisation-subject.js';
import type { Authorisation, AuthorisationRequest } from './authorisation.model.js';
import type { ScaStatus } from './sca-status.js';

/** What a start needs of the SCA flow: to make the authorisation, and the address of its pages. */
export interface AuthorisationMaker {
  create(db: DbOrTx, request: AuthorisationRequest): Promise<Authorisation>;
  redirectLink(authorisation: Pick<Authorisation, 'id'>): string;
}

/** The 201 of a started authorisation (Berlin Group startScaprocessResponse), with its Location. */
export interface StartedAuthorisation {
  readonly location: string;
  readonly body: {
    scaStatus: ScaStatus;
    authorisationId: string;
    _links: { scaRedirect: { href: string }; scaStatus: { href: string } };
  };
}

/**
 * A resource about to get an authorisation, as its owner read it in the starting transaction
 * (under its lock, where it has one), once the owner's own refusals have passed.
 */
export interface AuthorisableResource {
  readonly id: string;
  /** The resource's own URL: the authorisation's `scaStatus` link hangs below it. */
  readonly href: string;
  /** The PSU-Corporate-ID the resource was created with: a start naming another one is refused. */
  readonly psuCorporateId: string | undefined;
  /** The PSU expected when the TPP names none (the one named at creation, until someone approved). */
  readonly expectedPsuId: string | undefined;
  /** The TPP's redirect URIs of the creation, used when the start gives none. */
  readonly redirectUri: string | undefined;
  readonly nokRedirectUri: string | undefined;
}

/** `POST …/{resourceId}/authorisations` (or a payment's `…/cancellation-authorisations`), whatever the resource. */
export interface AuthorisationStart {
  readonly tpp: Pick<TppIdentity, 'id' | 'name'>;
  /** The subject registered for what the authorisation approves (a payment, its cancellation, a basket, …). */
  readonly purpose: keyof AuthorisationSubjects;
  /** The sub-resource's path segment, where the TPP reads the authorisation's scaStatus. */
  readonly segment: string;
  readonly headers: Pick<RequestHeaders, 'psuId' | 'psuCorporateId' | 'tppRedirectUri' | 'tppNokRedirectUri' | 'biometricAuthentication'>;
  /**
   * The resource as the start sees it, read in the starting transaction: the owner locks it there
   * when it must (so that a change of the resource cannot slip in between its checks and the new
   * authorisation) and throws its refusals (its status does not allow one now, …).
   */
  resource(trx: DbOrTx): Promise<AuthorisableResource>;
}

/**
 * Starts an authorisation explicitly, for any resource: the owner's checks, then the PSU-Corporate-ID
 * the TPP sends must be the resource's, and the new authorisation is made in the same transaction.
 * The answer is the 201 of the sub-resource: where to send the PSU, where to follow the authorisation.
 */
export async function startAuthorisation(
  db: Db,
  authorisations: AuthorisationMaker,
  start: AuthorisationStart,
): Promise<StartedAuthorisation> {
  const { headers } = start;
  const { resource, authorisation } = await withTransaction(db, async (trx) => {
    const resource = await start.resource(trx);
    if (headers.psuCorporateId !== undefined && headers.psuCorporateId !== resource.psuCorporateId) {
      throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
    }
    const authorisation = await authorisations.create(trx, {
      tpp: start.tpp,
      purpose: start.purpose,
      resourceId: resource.id,
      expectedPsuId: headers.psuId?.number ?? resource.expectedPsuId,
      psuCorporateId: resource.psuCorporateId,
      redirectUri: headers.tppRedirectUri ?? resource.redirectUri,
      nokRedirectUri: headers.tppNokRedirectUri ?? resource.nokRedirectUri,
      biometric: headers.biometricAuthentication,
    });
    return { resource, authorisation };
  });
  return startedAuthorisation(
    authorisation,
    authorisations.redirectLink(authorisation),
    authorisationHref(resource.href, authorisation.id, start.segment),
  );
}

/** What `POST …/authorisations` answers, whatever the resource: where the PSU goes, where the TPP follows. */
function startedAuthorisation(authorisation: Authorisation, scaRedirect: string, scaStatusHref: string): StartedAuthorisation {
  return {
    location: scaStatusHref,
    body: {
      scaStatus: authorisation.scaStatus,
      authorisationId: authorisation.id,
      _links: { scaRedirect: { href: scaRedirect }, scaStatus: { href: scaStatusHref } },
    },
  };
}
