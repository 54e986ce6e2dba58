import { Type, type Static } from 'typebox';
import { Link, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';

export const TppIdParams = Type.Object({
  tppId: Type.String({ description: "The caller's own organisation id, with or without the PSD prefix (NO-FSA-… or PSDNO-FSA-…)" }),
});

export const ContactInformation = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254, description: 'An official, non-personal mailbox of the TPP' }),
  },
  { additionalProperties: false },
);
export type ContactInformation = Static<typeof ContactInformation>;

export const ContactInformationResponse = Type.Object({
  email: Type.String(),
  _links: Type.Object({ self: Link }),
});

export const putContactInformationSchema = {
  operationId: 'putTppContactInformation',
  tags: ['TPP dialogue'],
  summary: "Register the TPP's contact e-mail address (one per TPP)",
  headers: SignedRequestHeaders,
  params: TppIdParams,
  body: ContactInformation,
  response: { 200: ContactInformationResponse, ...signedErrorResponses() },
};

export const getContactInformationSchema = {
  operationId: 'getTppContactInformation',
  tags: ['TPP dialogue'],
  summary: "Read the TPP's registered contact e-mail address",
  headers: SignedRequestHeaders,
  params: TppIdParams,
  response: { 200: ContactInformationResponse, ...signedErrorResponses() },
};
