import { Type } from 'typebox';
import { PSU_MESSAGE_MAX_LENGTH } from '../../domain/psu-message.js';
import { Link, OPTIONAL_BODY } from '../../http/schemas/common.schemas.js';
import { SCA_STATUSES, type ScaStatus as ScaStatusValue } from './sca-status.js';

/** Wire schemas of the authorisation sub-resources (Berlin Group 1.3.12 names). */

export const ScaStatus = Type.Unsafe<ScaStatusValue>(Type.String({ enum: [...SCA_STATUSES], description: 'Berlin Group scaStatus' }));

/**
 * Members of a start-authorisation body for embedded and decoupled SCA (Berlin Group
 * updatePsuAuthentication, selectPsuAuthenticationMethod, transactionAuthorisation). This bank
 * authorises by redirect only, so each is refused: named here so that a request giving one is told
 * so (redirectOnlyRefusal in authorisation-subresource.routes.ts), not that it misspelt a field.
 */
const REDIRECT_ONLY = 'Refused: this bank authorises by redirect only and takes no PSU credentials or SCA data over this interface';
export const EMBEDDED_SCA_MEMBERS = ['psuData', 'authenticationMethodId', 'scaAuthenticationData'] as const;

/** The body of `POST …/authorisations`: none, or `{}` (the PSU authorises on the bank's pages, `scaRedirect`). */
export const StartAuthorisationBody = Type.Object(
  Object.fromEntries(EMBEDDED_SCA_MEMBERS.map((name) => [name, Type.Optional(Type.Unknown({ description: REDIRECT_ONLY }))])),
  { additionalProperties: false, description: 'None: send no body, or {}', [OPTIONAL_BODY]: true },
);

/** 201 of `POST …/authorisations` (startScaprocessResponse). */
export const StartScaProcessResponse = Type.Object({
  scaStatus: ScaStatus,
  authorisationId: Type.String(),
  _links: Type.Object({ scaRedirect: Link, scaStatus: Link }),
});

/** 200 of `GET …/authorisations` (authorisations). */
export const AuthorisationsResponse = Type.Object({
  authorisationIds: Type.Array(Type.String()),
});

/** 200 of `GET …/authorisations/{authorisationId}` (scaStatusResponse). */
export const ScaStatusResponse = Type.Object({
  scaStatus: ScaStatus,
  psuMessage: Type.Optional(Type.String({ maxLength: PSU_MESSAGE_MAX_LENGTH, description: 'Why the authorisation failed' })),
});
