import { Type } from 'typebox';
import { Link } from '../../http/schemas/common.schemas.js';
import { SCA_STATUSES, type ScaStatus as ScaStatusValue } from './sca-status.js';

/** Wire schemas of the authorisation sub-resources (Berlin Group 1.3.12 names). */

export const ScaStatus = Type.Unsafe<ScaStatusValue>(Type.String({ enum: [...SCA_STATUSES], description: 'Berlin Group scaStatus' }));

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
  psuMessage: Type.Optional(Type.String({ maxLength: 500, description: 'Why the authorisation failed' })),
});
