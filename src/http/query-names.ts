import type { FastifyInstance } from 'fastify';
import { checkBooleanHeader } from './headers/boolean-header.js';

/*
 * The query of every API route, read by one set of rules before its schema validates it:
 * - names match without regard to case (a real TPP collection sends `BookingStatus`,
 *   `WithBalance`): a name that differs from a declared one only in letter case is read as the
 *   declared one;
 * - a declared name given twice (repeated, or in two spellings) is refused: which one would count
 *   is anyone's guess;
 * - a boolean is `true` or `false` in any case, by the rule of a boolean header
 *   (headers/boolean-header.ts);
 * - a flag the Berlin Group defines by its presence ("If contained, …", withBalance) is true when
 *   given bare (`?withBalance`) or empty;
 * - a route takes only the names its schema declares, none when it declares no query, so an
 *   unknown name is refused on every route alike (installQueryDeclarations).
 */

/** Marks a boolean query parameter that is true when given without a value. */
export const TRUE_WHEN_CONTAINED = 'x-true-when-contained';

type Schema = Readonly<Record<string, unknown>>;

/** Why a query was refused, in the shape of a schema validator's error (error-handler.ts reads it). */
export interface QueryNameIssue {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: 'uniqueName';
  readonly params: Record<string, never>;
  readonly message: string;
}

/** The declared names of a query schema by lower case, its booleans, and those true when contained. */
export interface QueryNames {
  readonly byLowerCase: ReadonlyMap<string, string>;
  readonly booleans: ReadonlySet<string>;
  readonly trueWhenContained: ReadonlySet<string>;
}

export function queryNamesOf(schema: Schema): QueryNames {
  const properties = (schema.properties ?? {}) as Readonly<Record<string, Schema>>;
  const byLowerCase = new Map<string, string>();
  const booleans = new Set<string>();
  const trueWhenContained = new Set<string>();
  for (const [name, property] of Object.entries(properties)) {
    byLowerCase.set(name.toLowerCase(), name);
    if (property.type === 'boolean') booleans.add(name);
    if (property[TRUE_WHEN_CONTAINED] === true) trueWhenContained.add(name);
  }
  return { byLowerCase, booleans, trueWhenContained };
}

/**
 * Renames, in place, each query name to its declared spelling, writes a boolean in lower case and
 * makes a bare flag true; the
 * issue of a name given more than once, or undefined. Names not declared are left for the schema
 * to refuse.
 */
export function adoptQueryNames(query: Record<string, unknown>, names: QueryNames): QueryNameIssue | undefined {
  for (const name of Object.keys(query)) {
    const declared = names.byLowerCase.get(name.toLowerCase());
    if (declared === undefined) continue;
    if (Array.isArray(query[name]) || (declared !== name && Object.hasOwn(query, declared))) {
      return {
        instancePath: `/${declared}`,
        schemaPath: `#/properties/${declared}`,
        keyword: 'uniqueName',
        params: {},
        message: 'is given more than once',
      };
    }
    if (declared !== name) {
      query[declared] = query[name];
      delete query[name];
    }
    const value = query[declared];
    if (value === '' && names.trueWhenContained.has(declared)) {
      query[declared] = true;
    } else if (typeof value === 'string' && names.booleans.has(declared)) {
      // Anything but true or false is left as given, for the schema to refuse.
      const read = checkBooleanHeader(value);
      if (read.ok) query[declared] = String(read.value);
    }
  }
  return undefined;
}

/**
 * Every route of the scope that declares a schema takes only the query names it declares: its
 * querystring schema is made closed, and a route without one takes no query at all. Installed
 * before the routes are registered.
 */
export function installQueryDeclarations(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (route.schema === undefined) return;
    const declared = route.schema.querystring as Schema | undefined;
    route.schema = {
      ...route.schema,
      querystring:
        declared === undefined
          ? { type: 'object', properties: {}, additionalProperties: false }
          : { ...declared, additionalProperties: false },
    };
  });
}
