import { Type, type Static } from 'typebox';
import { Link, NoBody, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { CUSTOMER_TYPES } from './sandbox-bank.model.js';
import { DisplayName, Id } from './sandbox-common.schemas.js';

const TAGS = ['Sandbox mock data'];

export const NewCustomer = Type.Object(
  {
    customerNumber: Type.String({
      maxLength: 20,
      description: 'National identity number (11 digits, both check digits valid): the PSU-ID this customer logs in with',
    }),
    customerType: Type.Enum(CUSTOMER_TYPES, { description: 'PRIVATE: a person; CORPORATE: a corporation that needs an agreement' }),
    customerName: DisplayName,
  },
  { additionalProperties: false },
);
export type NewCustomer = Static<typeof NewCustomer>;

export const Customer = Type.Object({
  customerId: Type.String({ description: 'Opaque id of the mock customer' }),
  customerNumber: Type.String(),
  customerType: Type.String(),
  customerName: Type.String(),
  _links: Type.Object({ self: Link }),
});

const CustomerParams = Type.Object({ customerId: Id });

export const createCustomerSchema = {
  operationId: 'createSandboxCustomer',
  tags: TAGS,
  summary: 'Create a test customer in your sandbox',
  headers: SignedRequestHeaders,
  body: NewCustomer,
  response: { 201: Customer, ...signedErrorResponses() },
};

export const listCustomersSchema = {
  operationId: 'listSandboxCustomers',
  tags: TAGS,
  summary: "List your sandbox's customers",
  headers: SignedRequestHeaders,
  response: { 200: Type.Object({ customers: Type.Array(Customer) }), ...signedErrorResponses() },
};

export const getCustomerSchema = {
  operationId: 'getSandboxCustomer',
  tags: TAGS,
  summary: 'Read a test customer',
  headers: SignedRequestHeaders,
  params: CustomerParams,
  response: { 200: Customer, ...signedErrorResponses() },
};

export const deleteCustomerSchema = {
  operationId: 'deleteSandboxCustomer',
  tags: TAGS,
  summary: 'Delete a test customer with its accounts, card accounts, agreement and engagements',
  description:
    "Never changes another customer's balance or history: the customer's own mock data goes with all its postings; a payment between it and another account of the bank stays on that account, the deleted side moved to your sandbox's clearing account. 409 REFERENCE_STATUS_INVALID, changing nothing, while the customer is the debtor or PSU of a live payment (not ACSC, ACCC, PART, RJCT or CANC) or the PSU of an open signing basket: cancel or execute the payments, delete the baskets, then delete the customer.",
  headers: SignedRequestHeaders,
  params: CustomerParams,
  body: NoBody,
  response: { 204: Type.Null(), ...signedErrorResponses() },
};
