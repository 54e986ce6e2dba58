import * as asn1js from 'asn1js';
import { isPsd2Role, type Psd2Role } from '../tpp-identity.js';

/**
 * The qcStatements extension (RFC 3739, OID 1.3.6.1.5.5.7.1.3) and the PSD2 statement in it
 * (ETSI TS 119 495 §5.1):
 *
 *   PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName NCAName, nCAId NCAId }
 *   RoleOfPSP  ::= SEQUENCE { roleOfPspOid OBJECT IDENTIFIER, roleOfPspName UTF8String }
 *
 * The role OID decides; the name is informative. Some sandbox certificates (adorsys-generated)
 * carry one bare QCStatement instead of a SEQUENCE OF; that form is read too.
 */
export const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3';
const PSD2_STATEMENT_OID = '0.4.0.19495.2';
const QC_COMPLIANCE_OID = '0.4.0.1862.1.1';
const QC_TYPE_OID = '0.4.0.1862.1.6';
const QC_TYPE_ESEAL_OID = '0.4.0.1862.1.6.2';
const ROLE_OIDS: Record<Psd2Role, string> = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
};

export interface Psd2Statement {
  readonly roles: readonly Psd2Role[];
  readonly ncaName: string;
  readonly ncaId: string;
}

/** Reads the PSD2 statement; undefined when the extension has none or it is malformed. */
export function readPsd2Statement(extensionValue: ArrayBuffer): Psd2Statement | undefined {
  const parsed = asn1js.fromBER(extensionValue);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) {
    return undefined;
  }
  const items = parsed.result.valueBlock.value;
  const statements = items[0] instanceof asn1js.ObjectIdentifier ? [parsed.result] : items;
  for (const statement of statements) {
    if (!(statement instanceof asn1js.Sequence)) {
      continue;
    }
    const [id, info] = statement.valueBlock.value;
    if (id instanceof asn1js.ObjectIdentifier && id.valueBlock.toString() === PSD2_STATEMENT_OID) {
      return info instanceof asn1js.Sequence ? readPsd2QcType(info) : undefined;
    }
  }
  return undefined;
}

function readPsd2QcType(info: asn1js.Sequence): Psd2Statement | undefined {
  const [rolesBlock, ncaNameBlock, ncaIdBlock] = info.valueBlock.value;
  if (!(rolesBlock instanceof asn1js.Sequence)) {
    return undefined;
  }
  const roles: Psd2Role[] = [];
  for (const roleBlock of rolesBlock.valueBlock.value) {
    const oid = roleBlock instanceof asn1js.Sequence ? roleBlock.valueBlock.value[0] : undefined;
    if (!(oid instanceof asn1js.ObjectIdentifier)) {
      return undefined;
    }
    const role = roleForOid(oid.valueBlock.toString());
    if (role && !roles.includes(role)) {
      roles.push(role);
    }
  }
  const ncaName = stringValue(ncaNameBlock);
  const ncaId = stringValue(ncaIdBlock);
  if (ncaName === undefined || ncaId === undefined) {
    return undefined;
  }
  return { roles, ncaName, ncaId };
}

function roleForOid(oid: string): Psd2Role | undefined {
  const entry = Object.entries(ROLE_OIDS).find(([, roleOid]) => roleOid === oid);
  return entry && isPsd2Role(entry[0]) ? entry[0] : undefined;
}

function stringValue(block: unknown): string | undefined {
  if (block instanceof asn1js.BaseStringBlock) {
    const value = (block.valueBlock as { value: unknown }).value;
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/**
 * DER of a qcStatements extension value for a QSealC: QcCompliance, QcType eseal and the PSD2
 * statement. Used by the sandbox certificate authority.
 */
export function encodeQsealcStatements(statement: Psd2Statement): ArrayBuffer {
  const roles = statement.roles.map(
    (role) =>
      new asn1js.Sequence({
        value: [new asn1js.ObjectIdentifier({ value: ROLE_OIDS[role] }), new asn1js.Utf8String({ value: role })],
      }),
  );
  const psd2QcType = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: roles }),
      new asn1js.Utf8String({ value: statement.ncaName }),
      new asn1js.Utf8String({ value: statement.ncaId }),
    ],
  });
  return new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: QC_COMPLIANCE_OID })] }),
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: QC_TYPE_OID }),
          new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: QC_TYPE_ESEAL_OID })] }),
        ],
      }),
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: PSD2_STATEMENT_OID }), psd2QcType] }),
    ],
  }).toBER();
}
