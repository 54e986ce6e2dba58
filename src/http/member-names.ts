/**
 * JSON member names read without regard to letter case. Berlin Group names are camelCase, but
 * clients built on case-insensitive deserialisers send `StartDate` or `InstructionIdentification`
 * (the Norwegian bank's own public TPP collection does), and the bank side accepted them. So a
 * member whose name differs from a defined one only in letter case is renamed to the defined name
 * before validation. Nothing else is loosened: a member given under both spellings stays as sent,
 * and `additionalProperties: false` refuses the extra one; a name no schema defines is refused as
 * before. A name given twice in the same spelling never gets here: the body's text is refused
 * first (http/repeated-member.ts), as the parsed body keeps only the last.
 */

type Schema = Readonly<Record<string, unknown>>;

/** The defined names of one level of a body, and what is defined below each. */
export interface MemberNames {
  /** Lower-case name → defined name; names that two defined names share in lower case are left out. */
  readonly byLowerCase: ReadonlyMap<string, string>;
  /** The names below each defined member (objects, and the elements of arrays). */
  readonly below: ReadonlyMap<string, MemberNames>;
  /** Which names are defined, to know when a member needs no renaming. */
  readonly defined: ReadonlySet<string>;
}

/** How a `$ref` in a schema is resolved (the schemas registered with `app.addSchema`). */
export type ResolveRef = (ref: string) => Schema | undefined;

/**
 * The member names a schema defines, at every depth; `undefined` when it defines none (a schema
 * of plain values). Unions (`anyOf`, `oneOf`, `allOf`) contribute the names of all their members.
 */
export function memberNamesOf(schema: Schema, resolveRef: ResolveRef): MemberNames | undefined {
  return build([schema], resolveRef, new Map());
}

interface Level {
  readonly byLowerCase: Map<string, string>;
  readonly below: Map<string, MemberNames>;
  readonly defined: Set<string>;
}

/** `built` holds each schema's level once, so a recursive schema refers back to its own level. */
function build(schemas: readonly Schema[], resolveRef: ResolveRef, built: Map<Schema, Level | undefined>): Level | undefined {
  const only = schemas.length === 1 ? schemas[0] : undefined;
  if (only && built.has(only)) return built.get(only);
  const properties = new Map<string, Schema[]>();
  const seen = new Set<Schema>();
  const pending = [...schemas];
  for (let schema = pending.pop(); schema !== undefined; schema = pending.pop()) {
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (typeof schema.$ref === 'string') {
      const target = resolveRef(schema.$ref);
      if (target) pending.push(target);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const members = schema[key];
      if (Array.isArray(members)) pending.push(...(members as Schema[]));
    }
    // An array's elements are read with the names of its items' schema.
    if (isSchema(schema.items)) pending.push(schema.items);
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        if (isSchema(property)) properties.set(name, [...(properties.get(name) ?? []), property]);
      }
    }
  }
  if (properties.size === 0) {
    if (only) built.set(only, undefined);
    return undefined;
  }

  const level: Level = { byLowerCase: new Map(), below: new Map(), defined: new Set(properties.keys()) };
  if (only) built.set(only, level);
  const shared = new Set<string>();
  for (const name of properties.keys()) {
    const lower = name.toLowerCase();
    if (level.byLowerCase.has(lower)) shared.add(lower);
    level.byLowerCase.set(lower, name);
  }
  for (const lower of shared) level.byLowerCase.delete(lower);
  for (const [name, definitions] of properties) {
    const names = build(definitions, resolveRef, built);
    if (names) level.below.set(name, names);
  }
  return level;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Renames, in place, every member of `body` whose name matches a defined name only without
 * regard to case, unless the defined name is given too. Iterative, so no body depth can overflow
 * the stack.
 */
export function adoptDefinedNames(body: unknown, names: MemberNames): void {
  const pending: [unknown, MemberNames][] = [[body, names]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, level] = next;
    if (Array.isArray(value)) {
      for (const element of value) pending.push([element, level]);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const record = value as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      let defined = name;
      if (!level.defined.has(name)) {
        const match = level.byLowerCase.get(name.toLowerCase());
        if (match !== undefined && !Object.hasOwn(record, match)) {
          record[match] = record[name];
          delete record[name];
          defined = match;
        }
      }
      const below = level.below.get(defined);
      if (below) pending.push([record[defined], below]);
    }
  }
}
