import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

/**
 * Response serializers, compiled once per distinct schema rather than once per route and status:
 * every route documents the same error body for nine statuses, and each compile of it by
 * fast-json-stringify costs about a millisecond at start.
 */
export const sharedSerializers: BuildSerializer = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  const compiled = new Map<string, ReturnType<typeof compile>>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
